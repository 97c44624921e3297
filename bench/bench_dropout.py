"""Dropout (figure 04): Monte Carlo draws per second, and the page's server time per rerun.

Goals from the issue: 20,000 draws on the 6 × 6 causal matrix with the NumPy generator in under
50 ms; the page's default rerun under 150 ms of server time with a warm cache.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable

import numpy as np

from bench import Figure, best_of
from core import dropout, masking, tokens, weights

DRAWS = 20_000


def _draws(rng: np.random.Generator, w: np.ndarray) -> np.ndarray:
    """20,000 dropped matrices: one uniform array, one comparison, one multiply."""
    return dropout.apply_dropout(w, dropout.keep_masks_numpy(rng, DRAWS, len(w), 0.5), 0.5)


def _rerun_times(repeats: int, change: bool) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds per ``AppTest`` rerun of the dropout page; ``change`` flips scaling.

    CPU time is the process's (the script runs in AppTest's thread while the main one sleeps),
    so it stays meaningful when other jobs share the machine's two cores; wall time does not.
    """
    from tests.app.conftest import open_page, widget

    at = open_page("app_pages/dropout.py")
    for _ in range(2):  # warm the cache for both toggle states
        widget(at, "scaling").set_value(not widget(at, "scaling").value).run()
    wall, cpu = [], []
    for _ in range(repeats):
        if change:
            widget(at, "scaling").set_value(not widget(at, "scaling").value)
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    assert not at.exception
    return wall, cpu


def _p95(xs: list[float]) -> float:
    return float(np.percentile(xs, 95))


def run(quick: bool) -> Iterable[Figure]:
    w = masking.causal_weights(tokens.inputs(), weights.section_3_5())
    rng = np.random.default_rng(0)
    repeat = 3 if quick else 10
    t = best_of(lambda: _draws(rng, w), repeat)
    yield Figure("dropout_numpy_20k_draws", t * 1e3, "ms")
    yield Figure("dropout_numpy_draws_per_s", DRAWS / t, "draws/s")
    t = best_of(lambda: dropout.dropout_stats(w, dropout.keep_masks(0, DRAWS, 6, 0.5, "numpy"), 0.5), repeat)
    yield Figure("dropout_numpy_20k_draws_with_stats", t * 1e3, "ms")
    t = best_of(lambda: dropout.keep_masks(0, DRAWS, 6, 0.5, "torch"), repeat)
    yield Figure("dropout_torchgen_20k_masks", t * 1e3, "ms")
    repeats = 5 if quick else 20
    for name, change in (("dropout_page_rerun", False), ("dropout_page_rerun_after_toggle", True)):
        wall, cpu = _rerun_times(repeats, change)
        yield Figure(f"{name}_median", statistics.median(wall) * 1e3, "ms")
        yield Figure(f"{name}_p95", _p95(wall) * 1e3, "ms")
        yield Figure(f"{name}_cpu_median", statistics.median(cpu) * 1e3, "ms")
        yield Figure(f"{name}_cpu_p95", _p95(cpu) * 1e3, "ms")
