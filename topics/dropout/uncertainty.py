"""A Monte Carlo figure printed with its standard error, to the digits that error supports.

A mean over 10,000 draws is not known to 4 decimals: printing ``0.9983`` claims digits the draws
never settled. The rule here is the usual one for a measurement (the Particle Data Group's, in
its simplest form): round the standard error to one significant digit, or two when that digit is
a 1 (rounding 0.0014 to 0.001 would understate it by a third), and print the value to the same
decimal place: ``0.998 ± 0.003``, ``49.7% ± 0.4%``, ``0.2495 ± 0.0014``.

Only the Dropout page uses it so far; it is pure (no NumPy state, no Streamlit) so the view can
build its sentences with it and the tests can hold it to its rule.
"""

from __future__ import annotations

import math

from ui import format as fmt


def decimals(std_error: float, fallback: int = fmt.DECIMALS) -> int:
    """How many decimals a value with standard error ``std_error`` supports.

    One significant digit of the error, two when it starts with 1, never fewer than 0 decimals (so
    an error of 10 or more prints whole digits it does not support; no share or row sum has one).
    An error of exactly 0 (nothing random: p = 0) supports any number; ``fallback`` is used.
    """
    se = abs(float(std_error))
    if not math.isfinite(se):
        raise ValueError(f"a standard error must be finite, got {std_error}")
    if se == 0.0:
        return fallback
    d = -math.floor(math.log10(se))
    if round(se, d) >= 10.0 ** (1 - d):  # 0.00096 rounds to 0.001: one place fewer
        d -= 1
    if f"{round(se, d):.{max(d, 0)}f}".lstrip("0.").startswith("1"):
        d += 1
    return max(d, 0)


def estimate(value: float, std_error: float, fallback: int = fmt.DECIMALS) -> str:
    """``0.998 ± 0.003``: ``value`` and its standard error, both to :func:`decimals` places."""
    d = decimals(std_error, fallback)
    return f"{fmt.num(value, d)} ± {fmt.num(abs(std_error), d)}"


def estimate_percent(share: float, std_error: float, fallback: int = 1) -> str:
    """``49.7% ± 0.4%``: a share of draws as a percentage, with its standard error."""
    d = decimals(100.0 * std_error, fallback)
    return f"{fmt.num(100.0 * share, d)}% ± {fmt.num(100.0 * abs(std_error), d)}%"


def exact_percent(share: float, digits: int = 3) -> str:
    """An exact probability (``pⁱ``) as a percentage that never reads 0 unless it is 0:
    ``50%``, ``12.5%``, ``0.0156%``, ``1.56e-6%``, at most ``digits`` significant digits."""
    x = 100.0 * float(share)
    if x == 0.0:
        return "0%"
    if x < 1e-3:
        return f"{fmt.sci(x, digits - 1)}%"
    return f"{x:.{digits}g}%"
