"""Dropout's draws run under the server's heavy-work budget (``ui.budget``, issue 25), for a cost
that bounds what they really allocate: measured with tracemalloc at the worst legal settings."""

from __future__ import annotations

import contextlib
import gc
import tracemalloc

import numpy as np
import pytest

from topics.dropout import sampling, study, view
from ui import cache


def _x(n: int) -> np.ndarray:
    return np.round(np.random.default_rng(n).random((n, 3)), 2)


def _peak(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# Every sentence length where the pieces change shape: one token (a piece is all draws, each a
# single cell), two (the most draws a piece holds), the book's six, 26 (issue 25's crowd) and 32.
@pytest.mark.parametrize("generator", ["torch", "numpy"])
@pytest.mark.parametrize("n", [1, 2, 6, 26, 32])
def test_the_declared_cost_bounds_the_measured_peak_at_the_most_and_fewest_draws(n, generator):
    x = _x(n)
    view.monte_carlo(0.5, True, 1, 1_000, generator, x)  # first-call allocations outside the count
    for draws in (view.draw_choices(n)[0], view.draw_choices(n)[-1]):
        for p, scale in ((0.5, True), (0.9, False), (0.0, True)):
            peak = _peak(lambda: view.monte_carlo(p, scale, 7, draws, generator, x))  # noqa: B023
            declared = sampling.working_set(n, draws, generator)
            assert peak <= declared, (n, generator, draws, p, peak, declared)
            # A bound, not a guess far above: within 3× of what it bounds when masks are drawn
            # (at p = 0 PyTorch draws none; the bound keeps the generator's case).
            tight = declared <= 3 * peak + sampling.FIXED_BYTES
            assert p == 0.0 or tight, (n, generator, draws, p, peak, declared)


def test_issue_25s_reader_declares_a_few_megabytes_not_the_whole_draw():
    # 26 tokens at 5,000 PyTorch draws: the whole mask would be 3.4M cells (162 MB as two words
    # a cell); one piece is bounded whatever the draws.
    declared = sampling.working_set(26, 5_000, "torch")
    assert declared == sampling.working_set(26, 1_000, "torch") < 12 * cache.MB
    assert declared < 20 * cache.MB


def test_the_cached_study_takes_a_turn_for_its_working_set(monkeypatch):
    asked: list[int] = []

    @contextlib.contextmanager
    def heavy(cost: int):
        asked.append(cost)
        yield

    monkeypatch.setattr(study.budget, "heavy", heavy)
    plain = cache.REGISTRY["topics.dropout.study.run"].plain
    x = _x(26)
    stats = plain(0.5, True, 5, 5_000, "torch", x)
    assert asked == [sampling.working_set(26, 5_000, "torch")]
    assert stats.draws == 5_000


def test_a_bad_generator_has_no_cost():
    with pytest.raises(ValueError, match="generator"):
        sampling.working_set(6, 1_000, "python")  # type: ignore[arg-type]
