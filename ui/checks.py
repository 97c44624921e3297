"""The "Checks against the book" expander: each quoted number beside the live one.

The quoted side is text copied from the book or the post; the live side is always computed by
``core`` and formatted to the quoted number of decimals, so a tick means "equal to the last
printed digit".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import streamlit as st

from ui import format as fmt


@dataclass(frozen=True)
class Check:
    """One row of the expander."""

    label: str
    quoted: str
    live: str
    ok: bool
    source: str = ""


def exact(label: str, quoted: str, value: float | Sequence[float] | np.ndarray, source: str = "") -> Check:
    """A check that passes when ``value``, printed like ``quoted``, reads the same."""
    decimals = fmt.decimals_of(quoted)
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        live = fmt.num(float(arr), decimals)
    elif arr.ndim == 1:
        live = fmt.vec(arr, decimals)
    else:
        live = "[" + ", ".join(fmt.vec(row, decimals) for row in arr) + "]"
    return Check(label, quoted, live, live == quoted.lstrip("≈~ "), source)


def within(label: str, quoted: str, value: float, low: float, high: float, live: str | None = None) -> Check:
    """A check for a statistical or rounded quote: passes when ``low <= value <= high``."""
    shown = live if live is not None else fmt.num(value)
    return Check(label, quoted, shown, bool(low <= value <= high))


def same(label: str, quoted: str, live: str, source: str = "") -> Check:
    """A check on a non-numeric quote (a token name, a shape): passes on equal text."""
    return Check(label, quoted, live, quoted == live, source)


def table_markdown(checks: Iterable[Check]) -> str:
    """The checks as a Markdown table: what, book or post, live, tick or cross."""
    rows = ["| | quoted | live | |", "|---|---|---|---|"]
    for c in checks:
        label = f"{c.label} <br><small>{c.source}</small>" if c.source else c.label
        rows.append(f"| {label} | `{c.quoted}` | `{c.live}` | {'✅' if c.ok else '❌'} |")
    return "\n".join(rows)


def expander(checks: Sequence[Check], note: str | None = None, expanded: bool = False) -> None:
    """Render the expander, with a one-line tally in its title."""
    passed = sum(c.ok for c in checks)
    with st.expander(f"Checks against the book: {passed} of {len(checks)} match", expanded=expanded):
        if note:
            st.caption(note)
        st.markdown(table_markdown(checks), unsafe_allow_html=True)
