"""The "Checks against the book" expander: each quoted number beside the live one, and whose it is.

The quoted side is text copied from a source; the live side is always computed by ``core`` and
formatted to the quoted number of decimals, so a tick means "equal to the last printed digit".

Every row names its source from :data:`SOURCES`, so a reader knows whom to believe (issue #13).
Where a source is loose (a Monte Carlo sample read as the truth, the wrong quantity for the right
conclusion), the row also carries ``true``: the true value, shown beside the quote, and its note
says why the two differ; the tick then compares the live value with the truth, not the quote.

The table is Markdown, and every cell goes through one escaper: a label such as
"largest |J|" once split the table, so 10 of 13 rows lost their live value and their mark.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import streamlit as st

from ui import format as fmt

# Whom a quoted number comes from. Pages pass the key (``source="post"``); the table shows the text.
POST = "post"
BOOK = "book"
BOOK_CODE = "book code"
SOLUTIONS = "solutions"
AUDIT = "audit"
SOURCES: dict[str, str] = {
    POST: "the post",  # shared/seed: "Three matrices, and a triangle of minus infinity"
    BOOK: "the book's printed output",  # chapter 3 as printed, its notebook's printouts
    BOOK_CODE: "the book's code",  # the book's code run here in PyTorch 2.13, or a value it defines
    SOLUTIONS: "the official solutions",  # the exercise solutions in rasbt/LLMs-from-scratch
    AUDIT: "the audit (PyTorch 2.13)",  # issue #13's independent re-run: what the sources left loose
}
HEADER = ("check", "source", "quoted", "true value", "live", "")
TRUE_COLUMN = "true value"  # shown only when some row has a true value beside its quote


@dataclass(frozen=True)
class Check:
    """One row of the expander.

    ``source`` is a key of :data:`SOURCES`. ``true`` is empty when the quote is the truth; when
    the source is loose it holds the true value and ``ok`` compares the live value with it.
    ``note`` says how the live side is computed or compared, or why quote and truth differ.
    """

    label: str
    quoted: str
    live: str
    ok: bool
    source: str = ""
    note: str = ""
    true: str = ""

    @property
    def source_text(self) -> str:
        return SOURCES.get(self.source, self.source)


def exact(
    label: str,
    quoted: str,
    value: float | Sequence[float] | np.ndarray,
    source: str = "",
    note: str = "",
) -> Check:
    """A check that passes when ``value``, printed like ``quoted``, reads the same."""
    decimals = fmt.decimals_of(quoted)
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        live = fmt.num(float(arr), decimals)
    elif arr.ndim == 1:
        live = fmt.vec(arr, decimals)
    else:
        live = "[" + ", ".join(fmt.vec(row, decimals) for row in arr) + "]"
    return Check(label, quoted, live, live == quoted.lstrip("≈~ "), source, note)


def within(
    label: str,
    quoted: str,
    value: float,
    low: float,
    high: float,
    live: str | None = None,
    source: str = "",
    note: str = "",
    true: str = "",
) -> Check:
    """A check for a statistical or rounded quote: passes when ``low <= value <= high``."""
    shown = live if live is not None else fmt.num(value)
    return Check(label, quoted, shown, bool(low <= value <= high), source, note, true)


def same(label: str, quoted: str, live: str, source: str = "", note: str = "", true: str = "") -> Check:
    """A check on a non-numeric quote (a token name, a shape): passes on equal text.

    With ``true`` (a loose source), it passes when the live text equals the true one instead.
    """
    return Check(label, quoted, live, (true or quoted) == live, source, note, true)


# --- rendering ------------------------------------------------------------------------------

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]<>|$~:#&])")


def escape_text(text: str) -> str:
    """Plain text for a Markdown table cell: every character Markdown, HTML or a table reads, escaped.

    ``|`` would end the cell, ``<`` open an HTML tag, ``$`` start LaTeX, ``:`` an emoji or a
    Streamlit colour directive, ``*`` and ``_`` emphasis; a line break would end the row.
    """
    return _MARKDOWN_SPECIALS.sub(r"\\\1", " ".join(str(text).split()))


def code_cell(text: str) -> str:
    """Text as inline code in a table cell; an empty value shows as a dash, never an empty cell.

    Backslash escapes do not work inside code, except ``\\|`` in a table cell (GitHub-flavoured
    Markdown splits cells before it reads code spans); backticks get a longer fence.
    """
    flat = " ".join(str(text).split())
    if not flat:
        return "—"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat.replace('|', chr(92) + '|')}{pad}{fence}"


def header(checks: Sequence[Check]) -> tuple[str, ...]:
    """The table's columns: :data:`HEADER`, without the true-value column when no row needs it."""
    return HEADER if any(c.true for c in checks) else tuple(h for h in HEADER if h != TRUE_COLUMN)


def row_cells(c: Check, columns: Sequence[str] = HEADER) -> tuple[str, ...]:
    """One check as the cells of ``columns`` (a subset of :data:`HEADER`), each escaped."""
    label = escape_text(c.label) + (f" <br><small>{escape_text(c.note)}</small>" if c.note else "")
    cells = {
        "check": label,
        "source": escape_text(c.source_text) if c.source else "—",
        "quoted": code_cell(c.quoted),
        TRUE_COLUMN: code_cell(c.true) if c.true else "",
        "live": code_cell(c.live),
        "": "✅" if c.ok else "❌",
    }
    return tuple(cells[name] for name in columns)


def table_markdown(checks: Iterable[Check]) -> str:
    """The checks as a Markdown table: what, whose, quoted, true where the source is loose, live, mark."""
    rows_in = list(checks)
    columns = header(rows_in)
    rows = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    rows += ["| " + " | ".join(row_cells(c, columns)) + " |" for c in rows_in]
    return "\n".join(rows)


def split_row(line: str) -> list[str]:
    """The cells of one Markdown table row as GitHub-flavoured Markdown splits it (on unescaped ``|``).

    The inverse the tests use to prove :func:`table_markdown` is well formed.
    """
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", body)]


def expander(checks: Sequence[Check], note: str | None = None, expanded: bool = False) -> None:
    """Render the expander, with a one-line tally in its title."""
    passed = sum(c.ok for c in checks)
    with st.expander(f"Checks against the book: {passed} of {len(checks)} match", expanded=expanded):
        if any(c.true for c in checks):
            note = (note + " " if note else "") + (
                "Where a true value stands beside the quote, the source is loose or a sample, and the "
                "mark compares the live value with the truth, not with the quote."
            )
        if note:
            st.caption(note)
        st.markdown(table_markdown(checks), unsafe_allow_html=True)
