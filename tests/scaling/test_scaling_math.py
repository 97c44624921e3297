"""Divide by √d_k's math (topics/scaling/monte_carlo.py): the Jacobian statistic, the samplers, the reference.

Statistical tests use fixed seeds, and every tolerance says where it comes from: a standard
error of the estimate (the study reports one for each readout) or an explicit rounding of the
post's quote. The post's own numbers come from a few hundred draws, so they are not the truth:
:func:`topics.scaling.monte_carlo.reference_at` computes the truth from 10⁶ draws and places each quote among
500-draw runs; the issue's audit (4M draws, PyTorch 2.13) gives the expected values.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.attention import softmax
from topics.scaling import monte_carlo as mc
from topics.scaling import view
from topics.scaling.monte_carlo import StudyConfig

EPS = np.finfo(np.float64).eps


@pytest.fixture(scope="module")
def big():
    """20,000 draws of the post's six keys at every d_k of the grid (exact sampler): about a second."""
    return {r.d_k: r for r in mc.study(StudyConfig(draws=20_000, seed=2024))}


# --- the Jacobian and its largest entry -------------------------------------------------


def test_the_grid_is_every_power_of_two_to_65536_with_768_in_order():
    assert mc.D_K_GRID == (
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        768,
        1024,
        2048,
        4096,
        8192,
        16384,
        32768,
        65536,
    )


def test_softmax_jacobian_matches_torch_autograd():
    torch = pytest.importorskip("torch")
    w = np.random.default_rng(0).normal(size=(5, 7)) * 3
    for row in w:
        expected = torch.autograd.functional.jacobian(
            lambda x: torch.softmax(x, dim=-1), torch.tensor(row, dtype=torch.float64)
        ).numpy()
        np.testing.assert_allclose(mc.softmax_jacobian(softmax(row)), expected, rtol=1e-12, atol=1e-15)


scores_rows = arrays(
    np.float64,
    st.tuples(st.integers(1, 5), st.integers(2, 12)),
    elements=st.floats(-30, 30, allow_nan=False),
)


@settings(deadline=None)  # a shared machine: timing is not what this checks
@given(scores_rows)
def test_jacobian_rows_sum_to_zero_and_the_largest_entry_is_the_top_weights_diagonal(w):
    alpha = softmax(w)
    jac = mc.softmax_jacobian(alpha)  # [rows, n, n]
    np.testing.assert_allclose(jac.sum(axis=-1), 0.0, atol=1e-15)
    np.testing.assert_allclose(jac, np.swapaxes(jac, -1, -2), atol=0)
    brute = np.max(np.abs(jac), axis=(-1, -2))
    top = np.max(alpha, axis=-1)
    np.testing.assert_allclose(brute, top * (1 - top), rtol=1e-9, atol=4 * EPS)
    value, underflow = mc.largest_jacobian_entry(w)
    assert not underflow.any()
    # The matrix forms 1 − α_max as a difference, good to eps absolute only; ours is the accurate one.
    np.testing.assert_allclose(value, brute, rtol=1e-9, atol=4 * EPS)


@settings(max_examples=60, deadline=None)
@given(
    arrays(
        np.float64,
        st.integers(2, 8),
        elements=st.floats(-5000, 5000, allow_nan=False),
    )
)
def test_log_statistic_keeps_relative_accuracy_against_50_digit_arithmetic(w):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    e = [mpmath.exp(mpmath.mpf(float(x))) for x in w]
    total = mpmath.fsum(e)
    a_top = max(e) / total
    exact = mpmath.log(a_top) + mpmath.log(mpmath.fsum(sorted(e)[:-1]) / total)  # log(α_max · Σ others)
    # The scores themselves carry a rounding of eps·|ω|; the log statistic may not lose more than a few.
    tol = 8 * EPS * (1 + float(np.max(np.abs(w))))
    assert abs(float(mc.log_largest_jacobian_entry(w)) - float(exact)) <= tol


@pytest.mark.parametrize("gap", [1.0, 40.0, 700.0, 740.0, 800.0, 5_000.0])
def test_two_keys_far_apart_match_the_closed_form_and_never_read_zero(gap):
    # Two scores (0, −gap): α_2 = e^−gap/(1 + e^−gap), the entry is e^−gap/(1 + e^−gap)².
    log_exact = -gap - 2 * np.log1p(np.exp(-gap))
    log_entry = float(mc.log_largest_jacobian_entry(np.array([0.0, -gap])))
    assert abs(log_entry - log_exact) <= 4 * EPS * gap
    value, underflow = mc.largest_jacobian_entry(np.array([0.0, -gap]))
    if log_exact >= mc.LOG_TINY:  # representable as a normal float64: the value, to full accuracy
        assert not underflow
        assert value == pytest.approx(np.exp(log_exact), rel=1e-12)
    else:  # below 2.2e-308: flagged, and NaN rather than a 0 a chart would draw
        assert underflow and np.isnan(value)
    assert value != 0


def test_the_naive_difference_reads_zero_where_the_log_form_does_not():
    w = np.array([0.0, -40.0])  # α_max = 1 − 4.2e-18 rounds to 1.0
    assert mc.naive_largest_jacobian_entry(w) == 0.0
    value, _ = mc.largest_jacobian_entry(w)
    assert value == pytest.approx(np.exp(-40.0), rel=1e-15)


def test_largest_entry_needs_two_scores():
    with pytest.raises(ValueError, match="two scores"):
        mc.log_largest_jacobian_entry(np.array([[1.0]]))


# --- the samplers ---------------------------------------------------------------------------


@pytest.mark.parametrize("d_k", [1, 2, 64, 768, 4096, 65536])
def test_exact_sampler_std_is_within_3_percent_of_sqrt_dk_at_20000_draws(big, d_k):
    # One draw's mean of ω² has relative variance 2/n + (2/d_k)(1 + 2/n) (≤ 3 at d_k = 1), so at
    # 20,000 draws the std's relative standard error is at most √(3/20000)/2 = 0.6%: 3% is ≥ 5 of them.
    r = big[d_k]
    assert abs(r.std / np.sqrt(d_k) - 1) < 0.03
    assert r.std_se / r.std < 0.03 / 4  # and the measured error agrees the band is not too tight


@pytest.mark.parametrize(("d_k", "draws"), [(2, 20_000), (64, 20_000), (768, 2_000)])
def test_brute_force_std_is_within_3_percent_of_sqrt_dk(d_k, draws):
    # At 2,000 draws of six keys the relative standard error is √(0.375/2000)/2 ≈ 0.7%: 3% is 4 of them.
    w = mc.sample_scores_brute(mc.generator(11, d_k), d_k, draws, 6)
    assert w.shape == (draws, 6)
    assert abs(np.sqrt(np.mean(w * w)) / np.sqrt(d_k) - 1) < 0.03


def test_brute_force_chunks_stay_under_256_mb_at_every_setting():
    for d_k in mc.D_K_GRID:
        for n_keys in (2, 6, 64):
            chunk = mc.brute_chunk(d_k, n_keys)
            assert chunk >= 1
            assert chunk * (n_keys + 1) * d_k * 8 <= 256 * 2**20
    assert mc.BRUTE_MEMORY <= 256 * 2**20


def test_brute_force_chunking_does_not_change_the_draws():
    # The generator fills chunks in order, so one draw at a time gives exactly the one-chunk result.
    whole = mc.sample_scores_brute(mc.generator(3, 64), 64, 40, 5)
    one_by_one = mc.sample_scores_brute(mc.generator(3, 64), 64, 40, 5, memory=1)
    np.testing.assert_array_equal(whole, one_by_one)


def test_exact_scores_are_the_norm_of_q_times_independent_normals():
    rng_a, rng_b = mc.generator(5, 64), mc.generator(5, 64)
    w = mc.sample_scores_exact(rng_a, 64, 3, 4)
    norm_q = np.sqrt(rng_b.chisquare(64, size=3))
    np.testing.assert_array_equal(w, norm_q[:, None] * rng_b.standard_normal((3, 4)))


def _ks(a, b):
    from scipy.stats import ks_2samp

    return ks_2samp(a, b).pvalue


@pytest.mark.parametrize("d_k", [2, 64, 768])
def test_exact_and_brute_force_agree_in_distribution(d_k):
    # Two-sample Kolmogorov–Smirnov, 4,000 draws each, fixed seeds: agreement means p > 0.001.
    n = 4_000
    exact = mc.sample_scores_exact(mc.generator(21, d_k), d_k, n, 6)
    brute = mc.sample_scores_brute(mc.generator(22, d_k), d_k, n, 6)
    assert _ks(exact[:, 0], brute[:, 0]) > 1e-3  # one score per draw: independent across draws
    for root in (1.0, np.sqrt(d_k)):  # the statistic, without and with the divisor
        a = mc.log_largest_jacobian_entry(exact / root)
        b = mc.log_largest_jacobian_entry(brute / root)
        assert _ks(a, b) > 1e-3


def test_the_ks_test_catches_a_sampler_that_forgets_the_norm_of_q():
    # The power check: replacing |q| by its typical size √d_k is the likeliest bug, and it is caught.
    n, d_k = 4_000, 2
    wrong = np.sqrt(d_k) * mc.generator(21, d_k).standard_normal((n, 6))
    brute = mc.sample_scores_brute(mc.generator(22, d_k), d_k, n, 6)
    assert _ks(wrong[:, 0], brute[:, 0]) < 1e-6


# --- the study --------------------------------------------------------------------------------


def test_unscaled_median_is_near_0_22_at_2_and_0_022_at_64(big):
    # At 20,000 draws a median's standard error is about 0.0003 at d_k = 2: 0.22 and 0.022 are
    # far apart in those units, and each is within five of them of the audit's truth.
    assert big[2].raw.median == pytest.approx(0.2246, abs=5 * big[2].raw.median_se + 5e-5)
    assert big[64].raw.median == pytest.approx(0.0235, abs=5 * big[64].raw.median_se + 5e-5)


def test_scaled_median_is_within_0_20_and_0_25_at_every_dk(big):
    # At 20,000 draws a median's standard error is below 0.001 here, so a 0.004 margin at d_k = 1
    # (where the true median is about 0.204) is still four of them.
    for d_k, r in big.items():
        assert 0.20 <= r.scaled.median <= 0.25, d_k
        assert r.scaled.median_se < 0.001


def test_unscaled_medians_peak_at_4_then_fall_monotonically(big):
    medians = [big[d].raw.log10_median for d in mc.D_K_GRID]
    ses = [big[d].raw.log10_median_se for d in mc.D_K_GRID]
    # Below d_k = 4 the scores are too close for one weight to pass 1/2, and α_max(1 − α_max) still
    # rises toward its 0.25 ceiling; from 4 on it falls. Each step is resolved by more than four
    # combined standard errors at 20,000 draws, so the order is not a coin toss.
    peak = mc.D_K_GRID.index(4)
    steps = np.diff(medians)
    combined = np.hypot(ses[:-1], ses[1:])
    assert (steps[:peak] > 4 * combined[:peak]).all()
    assert (-steps[peak:] > 4 * combined[peak:]).all()


def _floats(summary: mc.Summary) -> list[float]:
    out: list[float] = []
    for f in summary.__dataclass_fields__:
        value = getattr(summary, f)
        out += list(value) if isinstance(value, tuple) else [value]
    return out


@pytest.mark.parametrize(("n_keys", "sampler"), [(6, "exact"), (2, "exact"), (64, "exact"), (6, "brute")])
def test_no_zero_and_no_nan_anywhere_in_the_study(n_keys, sampler):
    config = StudyConfig(draws=500, n_keys=n_keys, seed=7, sampler=sampler)
    # Brute force shares the statistic with the exact sampler; four d_k keep it to a second.
    grid = mc.D_K_GRID if sampler == "exact" else mc.TABLE_D_KS
    for r in mc.study(config, grid):
        assert np.isfinite(r.std) and r.std > 0
        for s in (r.raw, r.scaled):
            assert all(np.isfinite(_floats(s))), (r.d_k, s)
            assert s.median > 0 and s.mean > 0, (r.d_k, s)


def test_underflow_at_65536_is_flagged_and_kept_not_zeroed(big):
    raw = big[65536].raw
    # About one draw in 400 falls below 2.2e-308 unscaled at d_k = 65,536 (expect ~50 of 20,000):
    # those are counted, and the readouts stay positive and finite.
    assert 0 < raw.underflow_share < 0.02
    assert raw.naive_zero_share > 0.5  # what 1 − α_max as a difference would have drawn as 0
    assert raw.median > 0 and raw.mean > 0 and np.isfinite(raw.log10_median)
    w = mc.sample_scores_exact(mc.generator(1, 65536), 65536, 20_000, 6)
    log_entries = mc.log_largest_jacobian_entry(w)
    assert np.isfinite(log_entries).all()
    assert (log_entries < mc.LOG_TINY).any()


def test_a_summary_takes_the_median_of_an_even_count_in_the_value_domain():
    s = mc.summarize(np.log([1e-3, 2e-3, 3e-3, 4e-3]), np.ones(4))
    assert s.median == pytest.approx(2.5e-3, rel=1e-12)
    assert s.mean == pytest.approx(2.5e-3, rel=1e-12)
    assert s.live_share == 1.0


def test_same_seed_same_study_and_a_dk_does_not_depend_on_the_grid():
    config = StudyConfig(draws=300, seed=9)
    assert mc.study_at(config, 64) == mc.study(config, (2, 64))[1]
    assert mc.study_at(config, 64) != mc.study_at(StudyConfig(draws=300, seed=10), 64)
    np.testing.assert_array_equal(mc.one_draw(config, 768), mc.one_draw(config, 768))
    assert mc.one_draw(config, 768).shape == (6,)


def test_brute_force_covers_what_its_budget_affords():
    assert mc.study_grid(StudyConfig(draws=500)) == mc.D_K_GRID
    grid = mc.study_grid(StudyConfig(draws=500, sampler="brute"))
    # The post's setting reaches its largest quoted d_k, 4,096 (14.3M normals), and no further.
    assert grid[-1] == 4096 and 768 in grid
    with pytest.raises(ValueError, match="exact sampler"):
        mc.study_at(StudyConfig(draws=500, sampler="brute"), 65536)


@pytest.mark.parametrize(
    "kwargs",
    [dict(draws=0), dict(n_keys=1), dict(seed=-1), dict(sampler="monte carlo")],
)
def test_bad_configs_raise_with_a_message(kwargs):
    with pytest.raises(ValueError, match="must"):
        StudyConfig(**kwargs)


@pytest.mark.parametrize("d_k", [0, -4, 2.5])
def test_bad_dk_raises(d_k):
    with pytest.raises(ValueError, match="d_k"):
        mc.study_at(StudyConfig(draws=10), d_k)


# --- the reference: the truth behind the post's one run (tests/scaling/conftest.py, the page's own) ---


def test_the_reference_has_at_least_a_million_draws_in_runs_of_the_posts_500(refs):
    for r in refs.values():
        assert r.draws >= 10**6
        assert r.runs == r.draws // mc.POST_DRAWS >= 2_000


# The audit's truth (issue #13, from 4,000,000 draws): within 4 combined standard errors (the
# audit's is half ours at four times the draws, so combined is √1.25 = 1.12 of ours) plus the
# audit's printed rounding. Its "0.233 from 64 up" summarises 0.2332 to 0.2337: a 1e-3 band.
AUDIT = [
    (768, "live_raw", 0.286, 5e-4),
    (4096, "mean_raw", 0.0098, 5e-5),
    (2, "median_raw", 0.2246, 5e-5),
    (2, "median_scaled", 0.218, 5e-4),
    (64, "median_scaled", 0.233, 1e-3),
    (768, "median_scaled", 0.233, 1e-3),
    (4096, "median_scaled", 0.233, 1e-3),
]


@pytest.mark.parametrize(("d_k", "stat", "audit", "rounding"), AUDIT)
def test_the_reference_reproduces_the_audits_truth(refs, d_k, stat, audit, rounding):
    ref = refs[d_k][stat]
    se = ref.value * (10**ref.se - 1) if ref.log10 else ref.se
    assert ref.value == pytest.approx(audit, abs=4 * 1.12 * se + rounding)


def test_the_reference_spread_is_exact_and_its_runs_scatter_like_the_studys_own_error(refs):
    assert refs[64]["std"].value == 8.0 and refs[4096]["std"].value == 64.0
    # The delta-method error a 500-draw study reports agrees with the spread measured over runs.
    study = mc.study_at(StudyConfig(draws=500, seed=3), 64)
    assert study.std_se == pytest.approx(refs[64]["std"].run_sd, rel=0.3)


# The audit places the post's values at the 98.8th, 2.2nd and 1.7th percentiles of 500-draw runs.
# 2,000 runs estimate a percentile p with a standard error of √(p(100 − p)/2,000) points: under
# 0.35 here, so the audit's figure is within 1.5 points (over four of them) of ours.
PERCENTILES = [(768, "live_raw", 1 / 3, 98.8), (4096, "mean_raw", 0.0063, 2.2), (2, "median_raw", 0.220, 1.7)]


@pytest.mark.parametrize(("d_k", "stat", "post", "audit"), PERCENTILES)
def test_the_posts_values_sit_where_the_audit_puts_them_among_500_draw_runs(refs, d_k, stat, post, audit):
    assert refs[d_k][stat].percentile(post) == pytest.approx(audit, abs=1.5)


def test_a_tolerance_in_standard_errors_rejects_a_value_ten_of_them_away(refs):
    ref = refs[4096]["median_raw"]  # compared in decades: a 500-draw median scatters widely
    assert ref.log10 and ref.agrees(ref.value)
    off = ref.value * 10 ** (10 * ref.run_sd)
    assert not ref.agrees(off)
    assert not ref.agrees(0.0)  # a median of 0 is a bug, never "close"
    # more draws, a tighter band: the error shrinks as 1/√N
    assert ref.tolerance(2_000) == pytest.approx(ref.tolerance(500) / 2, rel=0.05)


def test_reference_arguments_are_checked():
    with pytest.raises(ValueError, match="at least 1000"):
        mc.reference_at(2, draws=999)
    with pytest.raises(ValueError, match="unknown statistics"):
        mc.reference_at(2, {"mode": 1.0}, draws=1_000)
    with pytest.raises(ValueError, match="not among"):
        mc.reference_at(2, {"std": 1.0}, draws=1_000)["std"].percentile(2.0)


def test_a_reference_is_reproducible_and_chunking_does_not_change_it():
    a = mc.reference_at(64, draws=3_000)
    assert a == mc.reference_at(64, draws=3_000)
    assert a != mc.reference_at(64, draws=3_000, seed=1)


LADDER = view.DRAWS  # the page's Draws control


@pytest.mark.parametrize("n_keys", [2, 5, 6, 7, 64, 4096])
def test_affordable_draws_stay_within_the_score_budget(n_keys):
    for draws in LADDER:
        got = mc.affordable_draws(draws, n_keys, LADDER)
        assert got <= draws
        assert got == draws or got * n_keys <= mc.MAX_SCORES  # fewer only when over it
        assert got in LADDER or got == mc.MAX_SCORES // n_keys
    assert mc.affordable_draws(100_000, 64, LADDER) == 5_000
    assert mc.affordable_draws(100_000, 5, LADDER) == 100_000
    assert mc.affordable_draws(100_000, 64) == mc.MAX_SCORES // 64  # no ladder: the cap
