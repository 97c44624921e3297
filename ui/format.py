"""Number formatting shared by every page: 4 decimals, as the book prints tensors."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from core.rounding import round_up

DECIMALS = 4


def num(x: float, decimals: int = DECIMALS) -> str:
    """``0.4419``: a float to fixed decimals, with ``-0.0000`` shown as ``0.0000``."""
    s = f"{float(x):.{decimals}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


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
    return f"{float(x):.{digits}e}".replace("e-0", "e-").replace("e+0", "e+")


def integer(n: int) -> str:
    """``2,194,830,951,552``: an exact integer with thousands separators."""
    return f"{int(n):,}"


def percent(x: float, decimals: int = 1) -> str:
    """``7.3%``: a fraction as a percentage."""
    return f"{100 * float(x):.{decimals}f}%"


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
