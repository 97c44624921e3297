"""The two causal paths of section 3.5.1 (core.masking): their stages, properties, and PyTorch.

The page's numbers (the post's figure 03, the book's prints) are tested on the page's view in
tests/masking/test_masking_view.py; the counterexample box in tests/masking/test_masking_box.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import attention, masking, tokens, weights


def _book_scores():
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    return tr.scores, tr.divisor


# --- the two paths -------------------------------------------------------------------------


def test_stages_are_what_their_names_say():
    scores, d = _book_scores()
    naive, efficient = masking.naive_path(scores, d), masking.efficient_path(scores, d)
    assert len(naive) == len(efficient) == masking.STAGES
    np.testing.assert_array_equal(naive[0].matrix, scores / d)
    np.testing.assert_array_equal(efficient[0].matrix, scores)
    future = masking.future_mask(6)
    assert (naive[2].matrix[future] == 0).all()
    assert np.isneginf(efficient[1].matrix[future]).all() and np.isneginf(efficient[2].matrix[future]).all()
    assert not np.isnan(np.stack([s.matrix for s in (*naive, *efficient)])).any()
    np.testing.assert_allclose(naive[3].matrix.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_future_mask_is_torch_triu_diagonal_one():
    np.testing.assert_array_equal(masking.future_mask(3), [[0, 1, 1], [0, 0, 1], [0, 0, 0]])
    assert masking.future_mask(1).tolist() == [[False]]


@pytest.mark.parametrize(
    ("scores", "divisor", "fill"),
    [
        (np.zeros((2, 3)), 1.0, -np.inf),
        (np.zeros((0, 0)), 1.0, -np.inf),
        (np.array([[np.nan]]), 1.0, -np.inf),
        (np.eye(2), 0.0, -np.inf),
        (np.eye(2), np.nan, -np.inf),
        (np.eye(2), 1.0, np.nan),
        (np.eye(2), 1.0, np.inf),
    ],
)
def test_bad_arguments_raise_value_error(scores, divisor, fill):
    with pytest.raises(ValueError):
        masking.efficient_path(scores, divisor, fill)
    if not (np.isnan(fill) or fill == np.inf):
        with pytest.raises(ValueError):
            masking.naive_path(scores, divisor)


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 64), st.integers(0, 2**32 - 1), st.floats(0.01, 8.0), st.floats(0.1, 64.0))
def test_the_two_paths_agree_within_1e_15(n, seed, spread, divisor):
    # Scaled scores with a standard deviation up to 8: real attention sits near 1 (that is what
    # the divisor is for, figure 02), so this is eight times past it. Each weight's rounding
    # error is a few ulps times |ω - max| (the subtraction before exp), which stays below 1e-15
    # here; the next test covers wider rows with the bound that grows with the row's range.
    scores = np.random.default_rng(seed).standard_normal((n, n)) * spread * divisor
    naive, efficient = masking.naive_path(scores, divisor), masking.efficient_path(scores, divisor)
    assert np.max(np.abs(masking.difference(naive, efficient))) <= 1e-15
    w = efficient[-1].matrix
    assert (w[masking.future_mask(n)] == 0).all()
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-14)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 64), st.integers(0, 2**32 - 1), st.floats(8.0, 40.0))
def test_wide_rows_agree_within_ulps_times_the_row_range(n, seed, spread):
    # Rounding ω - max costs up to |ω - max| * eps / 2 in the exponent, so the weights carry a
    # relative error of order eps * range; 4 * eps * (1 + range) bounds it with room to spare.
    # Spreads below 40 keep every row's range under ~350, far from exp's underflow at 745.
    scaled = np.random.default_rng(seed).standard_normal((n, n)) * spread
    naive, efficient = masking.naive_path(scaled, 1.0), masking.efficient_path(scaled, 1.0)
    row_range = np.ptp(scaled, axis=1, keepdims=True)
    bound = 4 * np.finfo(np.float64).eps * (1 + row_range)
    assert (np.abs(masking.difference(naive, efficient)) <= bound).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 32), st.integers(0, 2**32 - 1), st.floats(-50, 50))
def test_any_finite_fill_leaks_into_every_row_but_the_last(n, seed, fill):
    scores = np.random.default_rng(seed).standard_normal((n, n))
    leak = masking.future_share(masking.efficient_path(scores, 1.0, fill)[-1].matrix)
    assert (leak[:-1] > 0).all() and leak[-1] == 0


# --- PyTorch oracle --------------------------------------------------------------------------


def _torch_causal_attention(torch, seed, x, dropout=0.0):
    """The book's CausalAttention (section 3.5.3), built after torch.manual_seed(seed)."""
    from core.reproduce.book_classes import CausalAttention

    torch.manual_seed(seed)
    module = CausalAttention(x.shape[-1], 2, x.shape[1], dropout)
    with torch.no_grad():
        out = module(x)
    return module.attn_weights[0].numpy(), out[0].numpy()


@pytest.mark.parametrize("seed", [123, 789, *range(20)])
def test_efficient_path_equals_the_books_causal_attention(seed):
    torch = pytest.importorskip("torch")
    batch = torch.from_numpy(tokens.batch(np.float32))
    ref_weights, ref_out = _torch_causal_attention(torch, seed, batch)
    ca = masking.causal_attention(tokens.inputs(), weights.init_weights(seed, "linear"))
    # float32 (torch) against float64 (ours) on entries below 1: a few float32 ulps.
    np.testing.assert_allclose(ca.weights, ref_weights, rtol=0, atol=2e-7)
    np.testing.assert_allclose(ca.context, ref_out, rtol=0, atol=2e-7)
    assert (ref_weights[masking.future_mask(6)] == 0).all()


def test_naive_path_equals_the_books_section_3_5_1_code():
    torch = pytest.importorskip("torch")
    inputs = torch.from_numpy(tokens.inputs(np.float32))
    torch.manual_seed(789)
    w_query, w_key = (torch.nn.Linear(3, 2, bias=False) for _ in range(2))
    with torch.no_grad():
        queries, keys = w_query(inputs), w_key(inputs)
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        masked_simple = attn_weights * torch.tril(torch.ones(6, 6))
        masked_simple_norm = masked_simple / masked_simple.sum(dim=-1, keepdim=True)
        zero_filled = torch.softmax(
            attn_scores.masked_fill(torch.triu(torch.ones(6, 6), 1).bool(), 0.0) / 2**0.5, 1
        )
    scores, d = _book_scores()
    naive = masking.naive_path(scores, d)
    for ours, theirs in zip(naive[1:], (attn_weights, masked_simple, masked_simple_norm), strict=True):
        np.testing.assert_allclose(ours.matrix, theirs.numpy(), rtol=0, atol=2e-7)
    leaky = masking.efficient_path(scores, d, 0.0)[-1].matrix
    np.testing.assert_allclose(leaky, zero_filled.numpy(), rtol=0, atol=2e-7)


def test_a_row_whose_visible_weights_all_underflow_is_reported_not_raised():
    scores = np.array([[0.0, 2_000.0], [0.0, 0.0]])  # the future beats the visible score by 2,000
    naive = masking.naive_path(scores, 1.0)
    assert masking.undefined_rows(naive[-1].matrix).tolist() == [0]
    assert np.allclose(masking.efficient_path(scores, 1.0)[-1].matrix[0], [1.0, 0.0])
    assert masking.undefined_rows(masking.naive_path(scores / 100, 1.0)[-1].matrix).size == 0
