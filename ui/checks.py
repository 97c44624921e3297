"""The "Checks against the sources" expander: each quoted number beside the live one, whose it is,
and one of four verdicts.

The quoted side is text copied from a source; the live side is always computed by ``core`` and
formatted to the quoted number of decimals. Each row ends with one :class:`Verdict` (issue #24):

- **exact**: the live value equals the quote exactly (an integer, a shape, a word, or a float
  whose quoted digits are all there is);
- **within rounding**: the live value, printed to the quote's digits, reads the same;
- **within noise**: the quote is a sample (a Monte Carlo run), and the live value lies inside the
  sampling band, with its percentile;
- **differs**: none of these, always with the reason.

"Within a factor of N" is never a verdict. Every row names its source from :data:`SOURCES`, so a
reader knows whom to believe. Where a source is loose (a sample read as the truth, the wrong
quantity for the right conclusion), the row also carries ``true``: the true value, shown beside the
quote, and its note says why the two differ; the verdict then compares the live value with the
truth, not the quote, and is never **exact**: "exact" beside a quote says the quote is right, and
a quote its row corrects is not (issue 38). :class:`Check` refuses that combination.

The table is Markdown, and every cell goes through one escaper: a label such as
"largest |J|" once split the table, so 10 of 13 rows lost their live value and their mark.
"""

from __future__ import annotations

import enum
import math
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
HERE = "here"
SOURCES: dict[str, str] = {
    POST: "the post",  # shared/seed: "Three matrices, and a triangle of minus infinity"
    BOOK: "the book",  # chapter 3 as printed, and its notebook's printouts
    BOOK_CODE: "the book's code",  # the book's code run here in PyTorch 2.13, or a value it defines
    SOLUTIONS: "the exercise solutions",  # the exercise solutions in rasbt/LLMs-from-scratch
    HERE: "computed here",  # a value this app computes another way; the row's note says how
}
TITLE = "Checks against the sources"
TRUE_COLUMN = "true value"  # shown only when some row has a true value beside its quote
VERDICT_COLUMN = "verdict"
HEADER = ("check", "source", "quoted", TRUE_COLUMN, "live", VERDICT_COLUMN)


class Verdict(enum.Enum):
    """How a live value stands to its quote (or to the truth, where the quote is loose)."""

    EXACT = "exact"
    ROUNDING = "within rounding"
    NOISE = "within noise"
    DIFFERS = "differs"

    @property
    def ok(self) -> bool:
        return self is not Verdict.DIFFERS

    @property
    def mark(self) -> str:
        """A mark that does not rely on colour: the verdict's words follow it."""
        return "✅" if self.ok else "❌"


@dataclass(frozen=True)
class Check:
    """One row of the expander.

    ``source`` is a key of :data:`SOURCES`. ``true`` is empty when the quote is the truth; when
    the source is loose it holds the true value and the verdict compares the live value with it.
    ``note`` says how the live side is computed or compared, or why quote and truth differ.
    ``why`` qualifies the verdict: the digits of a rounding, the percentile of a sample, the
    reason for a difference (required for :attr:`Verdict.DIFFERS`).
    """

    label: str
    quoted: str
    live: str
    verdict: Verdict
    source: str = ""
    note: str = ""
    true: str = ""
    why: str = ""

    def __post_init__(self) -> None:
        if self.verdict is Verdict.EXACT and self.true:
            raise ValueError(
                f"{self.label!r}: a row with a true value corrects its quote, so its verdict cannot be "
                "exact; compare the live value with the true one (within rounding, within noise)"
            )
        if self.verdict is Verdict.DIFFERS and not self.why:
            object.__setattr__(self, "why", f"live {self.live} against {self.true or self.quoted}")

    @property
    def ok(self) -> bool:
        return self.verdict.ok

    @property
    def source_text(self) -> str:
        return SOURCES.get(self.source, self.source)

    @property
    def verdict_text(self) -> str:
        """``✅ within rounding (4 decimals)``: mark, verdict and its qualifier."""
        words = f"{self.verdict.mark} {self.verdict.value}"
        if not self.why:
            return words
        return f"{words}: {self.why}" if self.verdict is Verdict.DIFFERS else f"{words} ({self.why})"


_NUMBER = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?", re.IGNORECASE)


def quoted_numbers(quoted: str) -> list[float]:
    """Every number in a quote, in order: ``"[0.4419, -1,024]"`` -> ``[0.4419, -1024.0]``."""
    return [float(t.replace(",", "").replace("−", "-")) for t in _NUMBER.findall(quoted)]


def _printed(arr: np.ndarray, decimals: int) -> str:
    if arr.ndim == 0:
        return fmt.num(float(arr), decimals)
    if arr.ndim == 1:
        return fmt.vec(arr, decimals)
    return "[" + ", ".join(_printed(row, decimals) for row in arr) + "]"


def exact(
    label: str,
    quoted: str,
    value: float | Sequence[float] | np.ndarray,
    source: str = "",
    note: str = "",
    why: str = "",
) -> Check:
    """A printed number (or tensor) against the live ``value`` printed like it.

    **exact** when every quoted number equals the value exactly, **within rounding** when the
    value printed to the quote's decimals reads the same, otherwise **differs** (``why`` says why;
    by default, the two printings).
    """
    decimals = fmt.decimals_of(quoted)
    arr = np.asarray(value, dtype=np.float64)
    live = _printed(arr, decimals)
    numbers = quoted_numbers(quoted)
    if len(numbers) == arr.size and np.array_equal(np.asarray(numbers), arr.ravel()):
        return Check(label, quoted, live, Verdict.EXACT, source, note)
    if live == quoted.lstrip("≈~ "):
        return Check(label, quoted, live, Verdict.ROUNDING, source, note, why=f"{decimals} decimals")
    return Check(label, quoted, live, Verdict.DIFFERS, source, note, why=why)


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
    why: str = "",
) -> Check:
    """A rounded or approximate quote ("≈ 0.46", "about a third"): **within rounding** when
    ``low <= value <= high``, the interval the quote's own rounding allows, else **differs**.

    ``why`` names the interval for a passing row (say ``"0.455 to 0.465"``) and the reason for a
    failing one.
    """
    shown = live if live is not None else fmt.num(value)
    inside = bool(low <= value <= high)
    verdict = Verdict.ROUNDING if inside else Verdict.DIFFERS
    return Check(label, quoted, shown, verdict, source, note, true, why)


def percentile(z: float) -> float:
    """Where a value ``z`` standard errors from its expectation falls, as a percentile (0–100)
    of the normal sampling distribution."""
    return 50.0 * (1.0 + math.erf(z / math.sqrt(2.0)))


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``23rd``, ``11th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def sampled(
    label: str,
    quoted: str,
    value: float,
    expectation: float,
    std_error: float,
    live: str | None = None,
    source: str = "",
    note: str = "",
    true: str = "",
    z_limit: float = 4.0,
) -> Check:
    """A statistic from random draws against its expectation: **within noise** when ``value`` lies
    within ``z_limit`` standard errors of ``expectation``, with its percentile; else **differs**."""
    shown = live if live is not None else fmt.num(value)
    z = (
        0.0
        if std_error == 0 and value == expectation
        else (value - expectation) / std_error
        if std_error
        else math.inf
    )
    if abs(z) <= z_limit:
        pct = min(99, max(1, round(percentile(z))))
        return Check(label, quoted, shown, Verdict.NOISE, source, note, true, f"{ordinal(pct)} percentile")
    return Check(
        label,
        quoted,
        shown,
        Verdict.DIFFERS,
        source,
        note,
        true,
        f"{abs(z):.1f} standard errors from its expectation",
    )


def same(
    label: str, quoted: str, live: str, source: str = "", note: str = "", true: str = "", why: str = ""
) -> Check:
    """A check on a non-numeric quote (a token name, a shape): **exact** on equal text.

    With ``true`` (a loose source, which the note corrects), it compares the live text with the true
    one instead: equal text is **within rounding** of the truth as both are printed, never
    **exact**, since the quote itself is wrong.
    """
    if true:
        verdict = Verdict.ROUNDING if true == live else Verdict.DIFFERS
        agreed = "of the true value, as printed"
    else:
        verdict = Verdict.EXACT if quoted == live else Verdict.DIFFERS
        agreed = ""
    return Check(
        label, quoted, live, verdict, source, note, true, why if verdict is Verdict.DIFFERS else agreed
    )


def counts(rows: Iterable[Check]) -> dict[Verdict, int]:
    """How many rows have each verdict, in :class:`Verdict`'s order, zeros included."""
    out = dict.fromkeys(Verdict, 0)
    for c in rows:
        out[c.verdict] += 1
    return out


def title(rows: Sequence[Check]) -> str:
    """``Checks against the sources: 12 exact, 3 within rounding, 1 within noise, 0 differ``."""
    n = counts(rows)
    parts = [f"{n[v]} {v.value}" for v in Verdict if v is not Verdict.DIFFERS]
    differ = n[Verdict.DIFFERS]
    return f"{TITLE}: " + ", ".join([*parts, f"{differ} differ" + ("s" if differ == 1 else "")])


def parse_title(label: str) -> dict[Verdict, int]:
    """The counts back from a :func:`title` (the tests read what the reader reads)."""
    body = label[label.index(f"{TITLE}: ") + len(TITLE) + 2 :].strip()  # after any icon text
    out = {}
    for part in body.split(", "):
        n, words = part.split(" ", 1)
        verdict = Verdict.DIFFERS if words.startswith("differ") else Verdict(words)
        out[verdict] = int(n)
    return out


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
        VERDICT_COLUMN: escape_text(c.verdict_text),
    }
    return tuple(cells[name] for name in columns)


def table_markdown(checks: Iterable[Check]) -> str:
    """The checks as a Markdown table: what, whose, quoted, true where the source is loose, live, verdict."""
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


def verdict_of(cell: str) -> Verdict:
    """The verdict a drawn verdict cell states (``✅ within noise (52nd percentile)``)."""
    words = cell.split(" ", 1)[1] if " " in cell else cell
    return next(v for v in Verdict if words.replace("\\", "").startswith(v.value))


def expander(checks: Sequence[Check], note: str | None = None, expanded: bool = False) -> None:
    """Render the expander, its title counting each verdict."""
    with st.expander(title(checks), expanded=expanded):
        if any(c.true for c in checks):
            note = (note + " " if note else "") + (
                "Where a true value stands beside the quote, the source is loose or a sample, and the "
                "verdict compares the live value with the truth, not with the quote."
            )
        if note:
            st.caption(note)
        st.markdown(table_markdown(checks), unsafe_allow_html=True)
