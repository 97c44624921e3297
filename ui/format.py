"""Number formatting shared by every page: 4 decimals, as the book prints tensors."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

import numpy as np

from core.rounding import round_up

DECIMALS = 4
# Float32's 24-bit significand holds 7.2 decimal digits: no float is printed with more (the
# README's "Precision"). 14904247539442.61 states digits that only a summation order produced.
FLOAT32_DIGITS = 7


def unsigned_zero(s: str) -> str:
    """``s`` without its minus sign when what it prints is zero (``-0.0000``, ``-0.0e+0``, ``-0.0%``).

    A minus on a printed zero is float noise (``-(1 × log 1)`` is ``-0.0``; ``-1e-9`` rounds to
    ``-0.0000``), and a reader takes it for a negative number. Every helper below passes its text
    through here, so no page prints one. A mantissa with any non-zero digit keeps its sign, and so
    does ``-inf``.
    """
    digits = [c for c in s.split("e")[0] if c.isdigit()]  # "-inf" has none: it keeps its sign
    return s[1:] if s.startswith("-") and digits and set(digits) == {"0"} else s


def num(x: float, decimals: int = DECIMALS) -> str:
    """``0.4419``: a float to fixed decimals, with ``-0.0000`` shown as ``0.0000``; to fewer where
    it would print more significant digits than float32 holds (:data:`FLOAT32_DIGITS`:
    ``1234.5678`` prints ``1234.568``), in scientific notation where even its units are more
    (``1.490e+13``)."""
    x = float(x)
    if abs(x) >= 10.0 ** (FLOAT32_DIGITS - decimals) and math.isfinite(x):
        whole = len(f"{abs(x):.0f}")
        if whole > FLOAT32_DIGITS:
            return sci(x, 3)
        decimals = FLOAT32_DIGITS - whole
    return unsigned_zero(f"{x:.{decimals}f}")


def vec(xs: Iterable[float], decimals: int = DECIMALS) -> str:
    """``[0.4419, 0.6515, 0.5683]``: a vector as the post writes one."""
    return "[" + ", ".join(num(x, decimals) for x in np.ravel(np.asarray(list(xs), dtype=np.float64))) + "]"


def short_vec(z: np.ndarray, show: int = 8) -> str:
    """A vector as :func:`vec` writes it, cut to its first entries past ``show`` (a
    GPT-2 output row has 768): ``[0.1, 0.2, 0.3, …, 0.9] (768 numbers)``; ``(the zero vector)``
    follows one that is."""
    z = np.ravel(np.asarray(z, dtype=np.float64))
    zero = "" if z.any() else " (the zero vector)"
    if len(z) <= show:
        return vec(z) + zero
    head = ", ".join(num(v) for v in z[: show - 2])
    return f"[{head}, …, {num(z[-1])}] ({len(z):,} numbers){zero}"


def sci(x: float, digits: int = 1) -> str:
    """``5.6e-17``: scientific notation for float noise and tiny Jacobian entries."""
    return unsigned_zero(f"{float(x):.{digits}e}".replace("e-0", "e-").replace("e+0", "e+"))


def integer(n: int) -> str:
    """``2,194,830,951,552``: an exact integer with thousands separators."""
    return f"{int(n):,}"


WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def plural(noun: str) -> str:
    """``key`` -> ``keys``, ``query`` -> ``queries``: the regular English plural. A noun that
    forms it otherwise (``matrix``) passes its plural to :func:`count`."""
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def count(n: int, noun: str, many: str | None = None) -> str:
    """``1 key``, ``6 keys``, ``1,024 queries``: a count and its noun, singular for one.

    The one helper every page's prose and chart names count with, so no page writes "1 keys"
    (issue 38): ``many`` is the plural where :func:`plural` does not form it (``matrices``).
    """
    return f"{int(n):,} {noun if n == 1 else many or plural(noun)}"


def in_words(n: int) -> str:
    """``six``: a count in words up to ten, in figures past it."""
    return WORDS[n] if 0 <= n < len(WORDS) else f"{n:,}"


def size(rows: int, cols: int, row: str = "query", col: str = "key") -> str:
    """``6 queries by 6 keys``, ``1 query by 1 key``: a matrix's size, as a chart's name gives it."""
    return f"{count(rows, row)} by {count(cols, col)}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def percent(x: float, decimals: int = 1) -> str:
    """``7.3%``: a fraction as a percentage."""
    return unsigned_zero(f"{100 * float(x):.{decimals}f}%")


def decimals_of(quoted: str) -> int:
    """How many decimals the first number in a quoted string has (``"0.2134"`` -> 4)."""
    token = quoted.strip("[]≈~ ").split(",")[0].strip()
    return len(token.split(".")[1]) if "." in token else 0


def noise(x: float, limit: float) -> str:
    """A difference that is rounding noise, as a bound: ``0 (exactly)``, ``below 2e-15 (float64
    rounding)``, or the difference itself when it is above ``limit`` (then it is not noise).

    ``limit`` comes from :func:`core.rounding.bound`; it is rounded up, never down.
    """
    if x == 0:
        return "0 (exactly)"
    if abs(x) <= limit:
        return f"below {sci(round_up(limit), 0)} (float64 rounding)"
    return sci(x)


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&=^\"'])")


def md(text: str) -> str:
    """``text`` with every Markdown-active character escaped: shown as typed, never rendered (a
    reader's token is text)."""
    return _MARKDOWN.sub(r"\\\1", text)


def leaders(weights: np.ndarray, decimals: int = DECIMALS) -> np.ndarray:
    """The positions of a row's largest weight, ties included, as the row prints: every entry that
    prints (to ``decimals``) as its largest does.

    Ties are decided on the printed value, not by exact equality, because the sentence is read
    beside the heatmap's cells: "gives most weight to *go* (0.3333)" next to three cells that all
    read 0.3333 is false to the reader's eye even if *go* wins by 1e-17, and a repeated word's
    weights, equal in exact arithmetic, may differ in the last bit after a matrix product.
    At the printed digits, "shares its most weight between *go* and *go²*" is exactly what the
    cells show, and a single winner is a winner the cells show too.
    """
    w = np.asarray(weights, dtype=np.float64)
    top = num(float(w.max()), decimals)
    return np.flatnonzero([num(float(x), decimals) == top for x in w])


def most_weight(weights: np.ndarray, labels: Sequence[str], what: str = "A") -> str:
    """Where a query's row of weights goes, in one sentence every page with a focused query shows:
    to one key, shared between tied keys, or to every key alike (:func:`leaders` decides ties).

    ``labels`` name the row's keys (a reader's tokens, escaped here); ``what`` names the matrix
    the row belongs to ("the masked A").
    """
    w = np.asarray(weights, dtype=np.float64)
    if not w.any():
        return f"Its row of {what} is all zeros."
    top = leaders(w)
    value = num(float(w[top[0]]))
    names = [f"*{md(labels[i])}*" for i in top]
    if len(w) == 1:
        return f"Its row of {what} is [{value}]: its one key, {names[0]}, takes all the weight."
    if len(top) == len(w):
        every = "both keys" if len(w) == 2 else f"all {in_words(len(w))} keys"
        return f"Its row of {what} weighs {every} alike ({value} each)."
    if len(top) == 1:
        return f"Its row of {what} gives most weight to {names[0]} ({value})."
    return f"Its row of {what} shares its most weight, {value} each, between {listing(names)}."
