"""Exact formatting for the cost page: Fractions rounded by integer arithmetic, binary sizes.

A float would print 2,194,830,951,552 bytes correctly but not 10⁴⁰; these helpers never go
through one for a value the page quotes, so the text is the exact value, rounded once.
"""

from __future__ import annotations

from fractions import Fraction

from topics.cost.arithmetic import GIB, KIB, MIB, PIB, TIB

UNITS: tuple[tuple[str, int], ...] = (
    ("EiB", PIB * 1024),
    ("PiB", PIB),
    ("TiB", TIB),
    ("GiB", GIB),
    ("MiB", MIB),
    ("KiB", KIB),
    ("B", 1),
)


def fixed(value: Fraction | int, places: int) -> str:
    """``Fraction(17147116809, 671088640)`` to ``"25.55"``: round half up, thousands separators."""
    v = Fraction(value)
    sign = "-" if v < 0 else ""
    scaled = (abs(v) * 10**places + Fraction(1, 2)).__floor__()  # round half up, exactly
    whole, frac = divmod(scaled, 10**places)
    return f"{sign}{whole:,}" + (f".{frac:0{places}d}" if places > 0 else "")


def in_unit(nbytes: int, unit: int) -> str:
    """``nbytes`` in ``unit`` bytes: exact when it divides, 3 decimals above 1, 3 significant below."""
    v = Fraction(nbytes, unit)
    if v.denominator == 1:
        return f"{v.numerator:,}"
    if v >= 1:
        return fixed(v, 3)
    return f"{float(v):.3g}"


def binary_size(nbytes: int) -> str:
    """``2097152`` to ``"2 MiB"``, ``2194830951552`` to ``"1.996 TiB"``: the largest unit ≤ the size."""
    for name, unit in UNITS:
        if nbytes >= unit:
            return f"{in_unit(nbytes, unit)} {name}"
    return "0 B"


def seconds(t: Fraction) -> str:
    """A duration in seconds at a sensible precision: ``"104,658 s"``, ``"0.40 s"``, ``"95.4 ns"``."""
    if t >= 100:
        return f"{fixed(t, 0)} s"
    if t >= 1:
        return f"{fixed(t, 2)} s"
    for name, scale in (("ms", 10**3), ("µs", 10**6), ("ns", 10**9)):
        if t * scale >= 1 or name == "ns":
            return f"{float(t * scale):.3g} {name}"
    raise AssertionError("unreachable")


def hours(t: Fraction) -> str:
    """Seconds as hours to 2 decimals: ``104,657.7 s`` to ``"29.07 h"``."""
    return f"{fixed(Fraction(t) / 3600, 2)} h"
