"""What the property tests read in generated prose: the numbers a sentence states.

A page's prose is built by its view; the property tests check that every number a sentence states
is one the view holds, formatted as the page formats it, and not a number typed into the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# 1,024  0.1878  −0.5  5.6e-17  37%  ×493,048  (a number glued to letters, as in "d_k" or "W_q", is not one)
NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+−]?\d+)?%?(?![\w])", re.IGNORECASE)


def numbers(text: str) -> list[str]:
    """Every number ``text`` states, as written (``"1,024"``, ``"0.2199"``, ``"5.6e-17"``, ``"37%"``)."""
    return [m.group(0).rstrip(",") for m in NUMBER.finditer(text)]


def unexplained(text: str, stated: Iterable[str], constants: Iterable[str] = ()) -> list[str]:
    """The numbers in ``text`` that are neither in one of the ``stated`` strings (the view's values,
    formatted as the page formats them) nor among ``constants`` (the structural ones: "2" in
    "√2", "1" in "1/(1 − p)", a section number)."""
    pool = " ".join(stated)
    allowed = set(constants)
    return [n for n in numbers(text) if n not in allowed and n not in pool]
