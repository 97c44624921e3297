"""The Multi-head page's stopwatch (``topics.multihead.speed``): it must time the right arithmetic,
alternate fairly, keep to its budget, and say only what its intervals support."""

import dataclasses

import numpy as np
import pytest

from core import multihead as mh
from core.config import AttentionConfig
from topics.multihead import speed


@pytest.mark.parametrize("mode", speed.MODES)
@pytest.mark.parametrize("heads", [1, 2, 4])
def test_the_two_timed_functions_compute_the_same_thing(mode, heads):
    case = speed.Case(batch=2, n=9, d=16, heads=heads)
    inp = speed.make_inputs(case, np.random.default_rng(0))
    w, s = speed.wrapper_numpy(inp, mode), speed.split_numpy(inp, heads, mode)
    assert w.shape == s.shape == (2, 9, 16)
    assert s.flags.c_contiguous
    np.testing.assert_allclose(w, s, rtol=1e-5, atol=1e-6)  # float32, different summation blocks


def test_the_timed_split_is_the_books_split_class_without_out_proj():
    cfg = AttentionConfig(d_in=8, d_out=8, num_heads=4, context_length=6)
    params = mh.init_split(cfg, 3)
    x = mh.example_batch(8)
    ref = mh.forward(x, params).heads_output  # [2, 6, 8], before out_proj
    case = speed.Case(batch=2, n=6, d=8, heads=4)
    inp = speed.make_inputs(case, np.random.default_rng(0))
    q, k, v = (lin.weight.T.copy() for lin in (params.qkv.query, params.qkv.key, params.qkv.value))
    inp = dataclasses.replace(inp, x=x, w=(q, k, v))
    np.testing.assert_allclose(speed.split_numpy(inp, 4), ref, rtol=1e-5, atol=1e-6)


def test_measure_skips_what_would_not_fit_and_reports_progress():
    cases = [speed.Case(1, 8, 8, 2), speed.Case(1, 64, 8, 2)]
    seen = []
    out = speed.measure(
        cases, "forward", repeat=1, max_score_bytes=4 * 2 * 8 * 8, progress=lambda i, n: seen.append((i, n))
    )
    assert seen == [(1, 2), (2, 2)]
    assert out[0].speedup is not None and out[0].speedup > 0
    assert out[1].wrapper_s is None and out[1].speedup is None
    # The projections-only mode has no n² tensor, so nothing is skipped.
    out = speed.measure(cases, "projections", repeat=1, max_score_bytes=1)
    assert all(t.speedup is not None for t in out)


def test_paired_times_alternate_and_keep_each_functions_fastest_run():
    calls = []

    def f():
        calls.append("f")

    def g():
        calls.append("g")
        sum(range(20_000))  # g does strictly more work than f

    tf, tg = speed.paired_times(f, g, repeat=4, budget_s=0.0)
    assert calls == ["f", "g", "g", "f", "f", "g", "g", "f"]  # ABBA: drift cancels
    assert 0 < tf < tg


def _paired(h, n, ratios, mode="forward"):
    return speed.Paired(speed.Case(1, n, 12, h), mode, tuple(ratios), 1e-3, 1e-3)


def _around(centre, spread, k=12):
    """``k`` synthetic block ratios, log-symmetric around ``centre``."""
    return [centre * spread ** ((-1) ** i * (i % 3) / 2) for i in range(k)]


def test_verdict_says_faster_slower_or_cannot_tell_from_synthetic_timings():
    control = [_paired(1, 64, _around(1.0, 1.05)), _paired(1, 256, _around(1.0, 1.05))]
    faster = [*control, _paired(12, 64, _around(1.6, 1.05)), _paired(12, 256, _around(1.4, 1.05))]
    text = speed.verdict(faster)
    assert text.startswith(
        "At H = 12 the split class (one big projection per role) is faster on this machine"
    )
    assert "n = 64: 1.60× (95% interval" in text and "12 rounds" in text
    assert "includes 1 at every n" in text
    slower = [*control, _paired(12, 64, _around(0.6, 1.05)), _paired(12, 256, _around(0.7, 1.05))]
    assert "is slower on this machine" in speed.verdict(slower)
    unsure = [*control, _paired(12, 64, _around(1.1, 3.0)), _paired(12, 256, _around(0.9, 3.0))]
    assert speed.verdict(unsure).startswith("At H = 12 this machine cannot tell the two classes apart")
    mixed = [*control, _paired(12, 64, _around(1.6, 1.05)), _paired(12, 256, _around(0.6, 1.05))]
    assert speed.verdict(mixed).startswith("At H = 12 the answer depends on the sequence length")


def test_a_control_outside_one_means_cannot_tell_on_this_machine():
    # Issue 13, item 8: the one-head column, where both classes do identical work, spanned
    # 0.52–5.30× on a busy machine; then no other cell may be believed.
    noisy = [_paired(1, 64, _around(2.0, 1.05)), _paired(1, 256, _around(1.0, 1.05))]
    cells = [*noisy, _paired(12, 64, _around(1.66, 1.05)), _paired(12, 256, _around(1.6, 1.05))]
    text = speed.verdict(cells)
    assert text.startswith("Cannot tell on this machine: with one head both classes do identical work")
    assert "n = 64: 2.00×" in text and "faster" in text and "is faster on this machine" not in text


def test_too_few_rounds_cannot_tell():
    cells = [_paired(1, 64, [1.1]), _paired(12, 64, [])]
    text = speed.verdict(cells)
    assert text.startswith("Cannot tell on this machine") and "at most 1 round per setting" in text
    assert speed.verdict([]) == "Nothing was measured."
    assert speed.interval([1.2]) is None and speed.interval([1.0, -1.0]) is None


def test_interval_is_a_t_interval_on_log_ratios():
    r = [1.5, 1.7, 1.6, 1.55, 1.8]
    iv = speed.interval(r)
    assert iv is not None
    logs = np.log(r)
    assert iv.ratio == pytest.approx(np.exp(logs.mean()))
    half = 2.7764 * logs.std(ddof=1) / np.sqrt(5)
    assert (iv.lo, iv.hi) == pytest.approx((np.exp(logs.mean() - half), np.exp(logs.mean() + half)))
    assert iv.verdict == "faster" and iv.rounds == 5


@pytest.mark.parametrize("df", [1, 2, 5, 10, 11, 15, 30, 60, 200, 10_000])
def test_t975_matches_scipy(df):
    stats = pytest.importorskip("scipy.stats")
    assert speed.t975(df) == pytest.approx(stats.t.ppf(0.975, df), abs=1e-3)


def test_measure_interleaved_runs_abba_rounds_and_keeps_to_its_budget():
    # A fake clock that advances 0.1 s a read: the budget bounds the number of calls exactly.
    now = [0.0]

    def clock():
        now[0] += 0.1
        return now[0]

    cells: list[tuple[speed.Case, speed.Mode]] = [
        (speed.Case(1, 8, 8, 1), "forward"),
        (speed.Case(1, 8, 8, 2), "projections"),
    ]
    seen = []
    out = speed.measure_interleaved(cells, 10.0, clock=clock, progress=lambda i, r, e: seen.append((i, r)))
    assert now[0] < 10.0 + 0.5  # the budget plus one call's reads
    assert seen[:4] == [(0, 0), (1, 0), (0, 1), (1, 1)]  # round-robin over the cells
    rounds = [len(p.ratios) for p in out]
    assert rounds[0] >= rounds[1] >= rounds[0] - 1 and rounds[1] >= 2  # blocks cut short are dropped
    assert len(seen) == sum(rounds)
    assert all(p.wrapper_s is not None and p.split_s is not None for p in out)
    # A budget of 0 returns every cell, with no rounds, rather than hanging or raising.
    out = speed.measure_interleaved(cells, 0.0)
    assert [p.ratios for p in out] == [(), ()]


def test_grid_and_case_validation():
    cases = speed.grid([64, 128], [1, 5, 12], [1, 8], d=768)
    assert {c.heads for c in cases} == {1, 12}  # 5 does not divide 768
    assert len(cases) == 2 * 2 * 2
    with pytest.raises(ValueError, match="not divisible"):
        speed.Case(1, 8, 10, 3)
    with pytest.raises(ValueError, match="at least 1"):
        speed.Case(0, 8, 8, 1)
    assert speed.Case(8, 4096, 768, 16).score_bytes == 4 * 8 * 16 * 4096**2


def test_blas_info_names_the_library():
    name, threads = speed.blas_info()
    assert name and threads


def test_the_measured_times_table_has_a_row_per_cell_with_its_interval():
    timed = _paired(12, 64, _around(1.6, 1.05))
    few = speed.Paired(speed.Case(1, 64, 12, 1), "projections", (1.1,), None, 2e-3)
    one, two = speed.rows([timed, few])
    iv = timed.interval
    assert iv is not None
    assert one == {
        "mode": "forward",
        "H": 12,
        "n": 64,
        "rounds": 12,
        "wrapper (ms, median)": 1.0,
        "split (ms, median)": 1.0,
        "speed-up": round(iv.ratio, 2),
        "95% interval": f"{iv.lo:.2f}–{iv.hi:.2f}×",
        "verdict": "faster",
    }
    assert (two["wrapper (ms, median)"], two["split (ms, median)"]) == (None, 2.0)
    assert (two["speed-up"], two["95% interval"], two["verdict"]) == (None, "", "too few rounds")


def _two_rounds(cells: list[tuple[speed.Case, speed.Mode]]) -> list[speed.Paired]:
    """Two whole rounds of every cell whatever the machine: a clock that moves 1 ms a read."""
    ticks = iter(range(10**9))
    return speed.measure_interleaved(cells, 10**6, max_rounds=2, clock=lambda: next(ticks) * 1e-3)


@pytest.mark.parametrize(
    "grid",
    [
        (speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D),  # the page's Measure
        ((64, 512), (1, 4, 16), 256),
    ],
    ids=["page", "other"],
)
def test_the_declared_working_set_covers_what_the_measurement_holds_at_its_peak(grid):
    """What Measure declares to the heavy-work budget (``speed.working_set``) bounds the peak of
    memory tracemalloc sees NumPy allocate while it runs, and is not a wild overestimate."""
    import gc
    import tracemalloc

    cells = speed.page_cells(*grid)
    gc.collect()
    tracemalloc.start()
    try:
        out = _two_rounds(cells)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(len(p.ratios) == 2 for p in out)
    declared = speed.working_set(cells)
    assert peak <= declared <= 2 * peak, (peak, declared)


def test_the_cases_of_one_width_and_head_count_share_their_weights():
    cells = speed.page_cells((8, 16), (1, 2), 8)
    a, b = speed.Case(1, 8, 8, 2), speed.Case(1, 16, 8, 2)
    rng = np.random.default_rng(0)
    first = speed.make_inputs(a, rng)
    again = speed.make_inputs(b, rng, like=first)
    assert again.w is first.w and again.w_heads is first.w_heads and again.x.shape == (1, 16, 8)
    other = speed.make_inputs(speed.Case(1, 8, 8, 1), rng, like=first)  # another head count: new weights
    assert other.w is not first.w and len(other.w_heads) == 1
    assert len(cells) == 2 * 2 * 2
