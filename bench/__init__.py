"""Benchmarks that print figures, one per line: ``name value unit``. Run ``python -m bench``.

Each ``bench/bench_*.py`` module defines ``run(quick: bool) -> Iterable[Figure]``. Speed goals
are read from these figures (ratios measured in one run), never asserted in tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    value: float | str  # a str names a kind (``class_db sqlite``)
    unit: str

    def line(self) -> str:
        v = self.value
        if isinstance(v, str):
            return f"{self.name} {v} {self.unit}".rstrip()
        shown = f"{v:.4g}" if isinstance(v, float) and not float(v).is_integer() else f"{v:,.0f}"
        return f"{self.name} {shown} {self.unit}"


def best_of(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The fastest of ``repeat`` timings of ``number`` calls, in seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best
