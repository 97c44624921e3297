"""Dropout (figure 04): Monte Carlo draws per second, and the page's rerun after the scaling toggle.

Goals from the issue: 20,000 draws on the 6 × 6 causal matrix with the NumPy generator in under
50 ms; the page's rerun under 150 ms of server time with a warm cache. The draws with their
statistics are the page's own path (``topics.dropout.view.monte_carlo``, what its cache holds), and
the whole view (``view.build``: the page's draws and the checks' two runs of 20,000) is timed as the
page computes it on a cache miss. The page figures are ``bench.pages.rerun_times`` for the scaling
toggle, the control ``bench_pages`` does not move (it moves p, as ``page_dropout_*``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from bench import Figure, best_of
from bench.pages import rerun_times
from core import tokens
from topics.dropout import sampling, view

DRAWS = 20_000


def _draws(rng: np.random.Generator, w: np.ndarray) -> np.ndarray:
    """20,000 dropped matrices: one uniform array, one comparison, one multiply."""
    return sampling.apply_dropout(w, sampling.keep_masks_numpy(rng, DRAWS, len(w), 0.5), 0.5)


def run(quick: bool) -> Iterable[Figure]:
    default = view.build(view.Settings())
    x, w = tokens.inputs(), default.weights
    rng = np.random.default_rng(0)
    repeat = 3 if quick else 10
    t = best_of(lambda: _draws(rng, w), repeat)
    yield Figure("dropout_numpy_20k_draws", t * 1e3, "ms")
    yield Figure("dropout_numpy_draws_per_s", DRAWS / t, "draws/s")
    t = best_of(lambda: view.monte_carlo(0.5, True, 0, DRAWS, "numpy", x), repeat)
    yield Figure("dropout_numpy_20k_draws_with_stats", t * 1e3, "ms")
    t = best_of(lambda: sampling.keep_masks(0, DRAWS, 6, 0.5, "torch"), repeat)
    yield Figure("dropout_torchgen_20k_masks", t * 1e3, "ms")
    t = best_of(lambda: view.build(view.Settings()), repeat)
    yield Figure("dropout_view_build", t * 1e3, "ms")
    timing = rerun_times("topics/dropout/page.py", "scaling", (False, True), 5 if quick else 20)
    yield from timing.figures("dropout_page_scaling")
