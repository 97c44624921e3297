"""The math of the Dropout page (``topics.dropout.sampling``): masks, statistics and their bands.

The numbers the page shows are tested on its view (``test_dropout_view.py``); these tests hold the
pieces underneath for any rate, seed and generator. Statistical tests use fixed seeds and a
tolerance of 4 standard errors from ``sampling_band``: the standard deviation of one draw's
statistic is derived exactly (Bernoulli variances, see ``mean_row_sum_std`` and ``zero_row_std``)
and divided by √draws. A correct implementation leaves the band on about 6 seeds in 100,000, so
with fixed seeds a failure means a bug, and a bias of a few standard errors (a wrong scale factor,
an off-by-one row) is caught.
"""

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import book, masking, tokens, torchmath, weights
from core.torchgen import TorchGenerator
from topics.dropout import sampling
from ui import format as fmt

X = tokens.inputs()
W = masking.causal_weights(X, weights.section_3_5())
N = len(X)


def _stats(p, scale, seed, draws, generator="numpy"):
    """The page's path: masks drawn and summarised chunk by chunk, every running mean kept."""
    return sampling.dropout_study(W, seed, draws, p, scale, generator)


def test_causal_weights_are_causal_rows_of_a_softmax():
    assert np.all(W[masking.future_mask(N)] == 0.0)
    assert np.all(W[~masking.future_mask(N)] > 0.0)
    np.testing.assert_allclose(W.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(masking.causal_weights_f32(X, weights.section_3_5()), W, atol=1e-6)


@pytest.mark.parametrize("profile", torchmath.PROFILES)
def test_the_books_dropout_run_to_the_last_digit(profile):
    """The checks show this run (float32, through core.torchmath): it prints the book's digits
    under every kernel profile, so the page does not depend on which one the app uses."""
    with torchmath.use_profile(profile):
        run = sampling.book_dropout_run(X, weights.section_3_5())
    assert run.dtype == np.float32
    for row, quoted in zip(run, book.FIGURE_04["book_dropped"], strict=True):
        assert fmt.vec(row) == quoted
    assert np.all(run[1] == 0.0)  # the second row is the zero vector
    assert run[0, 0] == 2.0  # the first row's one weight, doubled


def test_torch_masks_are_successive_dropout_calls():
    gen = TorchGenerator(7)
    calls = [gen.dropout(np.ones((N, N), np.float32), 0.3) != 0 for _ in range(5)]
    np.testing.assert_array_equal(sampling.keep_masks(7, 5, N, 0.3, "torch"), np.stack(calls))


def test_the_posts_quotes_are_plausible_samples():
    """The post's 49.5% zero rows over 20,000 draws and its mean row sums 0.998 / 0.499 over
    10,000 fall in the bands the page's checks use."""
    lo, hi = sampling.sampling_band(0.5, sampling.zero_row_std(0.5, N)[0], 20_000)
    assert lo <= float(book.FIGURE_04["row1_zero_rate"].rstrip("%")) / 100 <= hi
    for scale, quoted in (
        (True, book.FIGURE_04["mean_row_sum_scaled"]),
        (False, book.FIGURE_04["mean_row_sum_unscaled"]),
    ):
        expectation = sampling.mean_row_sum_expectation(0.5, scale)
        lo, hi = sampling.sampling_band(expectation, sampling.mean_row_sum_std(W, 0.5, scale), 10_000)
        assert lo <= float(quoted) <= hi


# --- statistics for any p ------------------------------------------------------------------------


@pytest.mark.parametrize("generator", ["numpy", "torch"])
@pytest.mark.parametrize(("p", "seed"), [(0.1, 1), (0.2, 2), (0.5, 3), (0.75, 4), (0.9, 5)])
def test_mean_row_sum_within_sampling_error(p, seed, generator):
    draws = 20_000
    for scale in (True, False):
        stats = _stats(p, scale, seed, draws, generator)
        lo, hi = sampling.sampling_band(1.0 if scale else 1.0 - p, stats.std, draws)
        assert lo <= stats.running_mean[-1] <= hi, (scale, stats.running_mean[-1], lo, hi)
        assert stats.running_mean.shape == (draws,)


@pytest.mark.parametrize("generator", ["numpy", "torch"])
@pytest.mark.parametrize(("p", "seed"), [(0.1, 6), (0.3, 7), (0.5, 8), (0.9, 9)])
def test_zero_row_rate_within_sampling_error_of_p_to_the_i(p, seed, generator):
    draws = 20_000
    stats = _stats(p, True, seed, draws, generator)
    np.testing.assert_allclose(stats.zero_theory, p ** np.arange(1, N + 1), rtol=1e-15)
    for i, (rate, theory, sd) in enumerate(
        zip(stats.zero_rate, stats.zero_theory, sampling.zero_row_std(p, N), strict=True)
    ):
        lo, hi = sampling.sampling_band(theory, sd, draws)
        assert lo <= rate <= hi, (i + 1, rate, theory)


def test_the_tolerances_are_tight_enough_to_catch_a_wrong_factor():
    # Scaling by 1/p instead of 1/(1 - p), or dropping with probability 1 - p, must fail the bands.
    stats = _stats(0.3, True, 3, 20_000)
    lo, hi = sampling.sampling_band(1.0, stats.std, 20_000)
    assert not lo <= stats.running_mean[-1] * (1 - 0.3) / 0.3 <= hi
    wrong = _stats(0.7, True, 3, 20_000)
    lo, hi = sampling.sampling_band(0.3, sampling.zero_row_std(0.3, N)[0], 20_000)
    assert not lo <= wrong.zero_rate[0] <= hi


def test_the_std_formula_matches_the_spread_of_the_draws():
    # The sample std of 50,000 near-normal draws has a relative standard error of about
    # 1/sqrt(2 * 50,000) = 0.3%; 3% is ten of those.
    keep = sampling.keep_masks(99, 50_000, N, 0.4)
    per_draw = sampling.apply_dropout(W, keep, 0.4).sum(axis=-1).mean(axis=-1)
    assert per_draw.std() == pytest.approx(sampling.mean_row_sum_std(W, 0.4), rel=0.03)


def test_first_draw_and_row_sum_means_are_consistent():
    keep = sampling.keep_masks(5, 1_000, N, 0.5)
    stats = _stats(0.5, True, 5, 1_000)
    np.testing.assert_array_equal(stats.first, sampling.apply_dropout(W, keep[0], 0.5))
    assert stats.running_mean[-1] == pytest.approx(stats.row_sum_mean.mean(), rel=1e-12)
    assert stats.running_mean[0] == pytest.approx(stats.first.sum() / N, rel=1e-12)


def test_p_zero_is_the_identity_and_consumes_no_torch_words():
    for generator in ("numpy", "torch"):
        stats = _stats(0.0, True, 1, 100, generator)
        np.testing.assert_array_equal(stats.first, W)
        np.testing.assert_allclose(stats.running_mean, 1.0, atol=1e-15)
        assert np.all(stats.zero_rate == 0.0) and stats.std == 0.0


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    p=st.floats(0.0, 0.95),
    scale=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    draws=st.integers(1, 50),
)
def test_every_entry_is_zero_or_the_weight_times_the_factor(p, scale, seed, draws):
    keep = sampling.keep_masks(seed, draws, N, p)
    dropped = sampling.apply_dropout(W, keep, p, scale)  # [draws, n, n]
    factor = sampling.scale_factor(p, scale)
    assert dropped.shape == (draws, N, N)
    np.testing.assert_array_equal(dropped, np.where(keep, W * factor, 0.0))
    assert np.all(np.isfinite(dropped))
    assert np.all(dropped[:, masking.future_mask(N)] == 0.0)  # dropout never un-masks the future


@settings(max_examples=40, deadline=None)
@given(p=st.floats(0.0, 0.95), scale=st.booleans())
def test_the_expectation_is_exact_over_both_outcomes(p, scale):
    # E[b·c·α] with b ∈ {0, 1}: (1 - p)·c·α, which is α with scaling and (1 - p)·α without.
    factor = sampling.scale_factor(p, scale)
    expected = W * ((1 - p) * factor)
    np.testing.assert_allclose(expected, W if scale else (1 - p) * W, rtol=1e-12, atol=1e-15)
    assert sampling.mean_row_sum_expectation(p, scale) == pytest.approx(expected.sum(axis=1).mean())


@settings(max_examples=40, deadline=None)
@given(p=st.floats(0.0, 0.95, exclude_max=False))
def test_zero_row_theory_falls_with_the_row(p):
    t = sampling.zero_row_theory(p, N)
    assert t[0] == pytest.approx(p)
    assert np.all(np.diff(t) <= 0) and np.all((t >= 0) & (t <= 1))


# --- bad arguments -------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [-0.1, 1.0, 1.5, float("nan")])
def test_bad_rates_raise(p):
    with pytest.raises(ValueError, match="p must be in"):
        sampling.scale_factor(p)
    with pytest.raises(ValueError, match="p must be in"):
        sampling.keep_masks(0, 10, N, p)


@pytest.mark.parametrize("draws", [0, -5, sampling.MAX_DRAWS + 1])
def test_bad_draw_counts_raise(draws):
    with pytest.raises(ValueError, match="draws must be"):
        sampling.keep_masks(0, draws, N, 0.5)


def test_bad_generator_shape_and_size_raise():
    mt: Any = "mt"  # not a Generator: what a caller outside the type checker could pass
    with pytest.raises(ValueError, match="generator must be"):
        sampling.keep_masks(0, 10, N, 0.5, mt)
    with pytest.raises(ValueError, match="generator must be"):
        next(sampling.keep_mask_chunks(0, 10, N, 0.5, mt))
    with pytest.raises(ValueError, match="keep must be"):
        sampling.summarise(W, [np.ones((10, 5, 5), bool)], 0.5)
    with pytest.raises(ValueError, match="at least one draw"):
        sampling.summarise(W, [], 0.5)
    with pytest.raises(ValueError, match="at least one token"):
        masking.future_mask(0)


# --- chunked draws: the page's study never holds every draw -------------------------------------


@pytest.mark.parametrize("generator", ["numpy", "torch"])
@pytest.mark.parametrize("p", [0.0, 0.5])
def test_mask_chunks_are_the_one_array_in_pieces(generator, p):
    whole = sampling.keep_masks(17, 100, N, p, generator)
    pieces = list(sampling.keep_mask_chunks(17, 100, N, p, generator, chunk=7))
    assert [len(c) for c in pieces] == [7] * 14 + [2]
    np.testing.assert_array_equal(np.concatenate(pieces), whole)


@pytest.mark.parametrize("generator", ["numpy", "torch"])
def test_the_chunked_study_gives_the_numbers_of_the_whole_array(generator):
    # The reference is the one-array computation the page used before: every draw at once.
    keep = sampling.keep_masks(3, 10_000, N, 0.4, generator)
    dropped = sampling.apply_dropout(W, keep, 0.4)  # [draws, n, n]
    row_sums = dropped.sum(axis=-1)
    chunked = sampling.dropout_study(W, 3, 10_000, 0.4, True, generator)
    np.testing.assert_array_equal(chunked.first, dropped[0])
    np.testing.assert_array_equal(
        chunked.running_mean, np.cumsum(row_sums.mean(axis=-1)) / np.arange(1, 10_001)
    )
    np.testing.assert_array_equal(chunked.running_at, np.arange(1, 10_001))
    np.testing.assert_array_equal(chunked.zero_rate, np.mean(~np.any(dropped != 0.0, axis=-1), axis=0))
    np.testing.assert_allclose(chunked.row_sum_mean, row_sums.mean(axis=0), rtol=1e-12)
    assert chunked.draws == 10_000


def test_a_recorded_study_keeps_the_running_mean_only_where_asked():
    record = sampling.log_spaced_counts(50_000, 600, always=(10_000,))
    full = sampling.dropout_study(W, 8, 50_000, 0.5)
    kept = sampling.dropout_study(W, 8, 50_000, 0.5, record=record)
    np.testing.assert_array_equal(kept.running_at, record)
    np.testing.assert_array_equal(kept.running_mean, full.running_mean[record - 1])
    assert kept.mean_after(10_000) == full.running_mean[9_999]
    assert kept.mean_after(50_000) == full.running_mean[-1]
    with pytest.raises(ValueError, match="not recorded after 10,001"):
        kept.mean_after(10_001)


def test_the_first_draw_is_its_own_array_not_a_view_of_the_draws():
    # A view keeps its base alive: a cached first matrix held every draw (28.8 MB at 100,000).
    stats = sampling.dropout_study(W, 1, 5_000, 0.5)
    assert stats.first.base is None and stats.first.shape == (N, N)


def test_log_spaced_counts_run_from_one_to_the_last_draw():
    counts = sampling.log_spaced_counts(100_000, 600, always=(10_000, 200_000))
    assert counts[0] == 1 and counts[-1] == 100_000 and 10_000 in counts and 200_000 not in counts
    assert np.all(np.diff(counts) > 0) and len(counts) <= 602
    np.testing.assert_array_equal(sampling.log_spaced_counts(300, 600), np.arange(1, 301))
