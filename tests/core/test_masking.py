"""Masking the future (figure 03): the post's numbers, the book's prints, properties, PyTorch."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import attention, book, masking, tokens, weights
from ui import format as fmt


def _book_scores():
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    return tr.scores, tr.divisor


def _rows(m):
    return tuple(fmt.vec(r) for r in m)


# --- the post's numbers (SPEC, figure 03) ---------------------------------------------------


def test_softmax_counterexample():
    probs = attention.softmax(masking.parse_numbers("1.0, 2.0, 3.0, 0.0, 0.0"))
    assert fmt.vec(probs) == book.FIGURE_03["softmax_counterexample"]


def test_the_paths_mask_unrelated_things_half_way():
    scores, d = _book_scores()
    naive, efficient = masking.naive_path(scores, d), masking.efficient_path(scores, d)
    # The naive path masks a post-softmax weight, the efficient one a pre-scale score.
    assert fmt.num(naive[1].matrix[0, 0]) == book.FIGURE_03["naive_first_entry"] == "0.1921"
    assert fmt.num(naive[2].matrix[0, 0]) == "0.1921"
    assert fmt.num(efficient[0].matrix[0, 0]) == book.FIGURE_03["efficient_first_entry"] == "0.2899"
    assert fmt.num(efficient[1].matrix[0, 0]) == "0.2899"


def test_masked_weights_rows_one_to_three_on_both_paths():
    scores, d = _book_scores()
    for path in (masking.naive_path(scores, d), masking.efficient_path(scores, d)):
        w = path[-1].matrix
        assert fmt.num(w[0, 0]) == "1.0000"
        assert fmt.vec(w[1, :2]) == "[0.5517, 0.4483]"
        assert fmt.vec(w[2, :3]) == "[0.3800, 0.3097, 0.3103]"


def test_largest_difference_is_float64_noise():
    scores, d = _book_scores()
    diff = masking.difference(masking.naive_path(scores, d), masking.efficient_path(scores, d))
    assert np.max(np.abs(diff)) < 1e-15  # the post's run: 5.6e-17


def test_zero_fill_leaks_0_8029_of_token_ones_attention():
    scores, d = _book_scores()
    leak = masking.future_share(masking.efficient_path(scores, d, 0.0)[-1].matrix)
    assert fmt.num(leak[0]) == book.FIGURE_03["zero_fill_future"] == "0.8029"
    assert leak[-1] == 0  # the last token has no future
    sealed = masking.future_share(masking.efficient_path(scores, d)[-1].matrix)
    assert (sealed == 0).all()


# --- every stage against what PyTorch prints for the book's section 3.5.1 code --------------


def test_every_printed_matrix_of_section_3_5_1():
    scores, d = _book_scores()
    naive, efficient = masking.naive_path(scores, d), masking.efficient_path(scores, d)
    printed = book.SECTION_3_5_1
    assert _rows(naive[1].matrix) == printed["attn_weights"]
    assert _rows(naive[2].matrix) == printed["masked_simple"]
    assert _rows(naive[3].matrix) == printed["masked_weights"]
    assert _rows(efficient[1].matrix) == printed["masked_scores"]  # "-inf" printed as torch does
    assert _rows(efficient[3].matrix) == printed["masked_weights"]


def test_causal_attention_output_of_section_3_5_3():
    ca = masking.causal_attention(tokens.inputs(), weights.init_weights(123, "linear"))
    assert _rows(ca.context) == book.SECTION_3_5_1["causal_attention_output"]


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


# --- the counterexample box: parsed, never evaluated ---------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.0, 2.0, 3.0, 0.0, 0.0", [1, 2, 3, 0, 0]),
        ("1 2 3", [1, 2, 3]),
        (" -0.5,\t+2e3 ,\n.25, 7. ", [-0.5, 2000, 0.25, 7]),
        ("42", [42]),
        ("1e308, -1e308", [1e308, -1e308]),
        (", ".join(["0"] * 64), [0] * 64),
    ],
)
def test_parse_numbers_reads_plain_numbers(text, expected):
    np.testing.assert_array_equal(masking.parse_numbers(text), expected)


HOSTILE = [
    "",
    "   ,, ",
    "nan1",
    "infinite",
    "--inf",
    "1e999",
    "1, 2, three",
    "0x10",
    "1_000",
    "1/2",
    "__import__('os').system('echo hi')",
    "[1, 2, 3]",
    "🙂",
    "١٢",  # Arabic-Indic digits: float() would accept them, the box does not
    ", ".join(["1"] * 65),
    " ".join(["1.5"] * 10_000),
    "x" * 10_000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:20]))
def test_hostile_text_raises_value_error_with_a_message(text):
    with pytest.raises(ValueError, match=r"\w") as err:
        masking.parse_numbers(text)
    assert len(str(err.value)) < 200  # short enough to show inline, whatever came in


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parse_numbers_on_any_text_returns_logits_whose_softmax_is_drawable_or_value_error(text):
    try:
        x = masking.parse_numbers(text)
    except ValueError:
        return
    assert 1 <= x.size <= masking.MAX_LOGITS
    sm = masking.softmax_extended(x)
    if sm.weights is not None:
        assert np.isfinite(sm.weights).all() and sm.weights.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-inf, 1, 2", [-np.inf, 1, 2]),
        ("INF -Infinity +inf", [np.inf, -np.inf, np.inf]),
        ("−∞, ∞, +∞", [-np.inf, np.inf, np.inf]),  # the Unicode minus and the infinity sign
        ("−1.5 2", [-1.5, 2]),
        ("NaN, 0", [np.nan, 0]),
    ],
)
def test_parse_numbers_reads_infinities_and_nan_in_any_spelling(text, expected):
    np.testing.assert_array_equal(masking.parse_numbers(text), expected)


def test_extended_softmax_defines_every_non_finite_case():
    inf = np.inf
    sm = masking.softmax_extended(np.array([-inf, 1.0, 2.0]))  # −∞: exactly zero, the rest a softmax
    assert sm.weights[0] == 0.0 and sm.weights[1:] == pytest.approx(attention.softmax([1.0, 2.0]))
    assert "exactly 0" in sm.note and sm.torch == "the same weights"
    sm = masking.softmax_extended(np.array([inf, 3.0, inf, -inf]))  # +∞ share the weight equally
    np.testing.assert_array_equal(sm.weights, [0.5, 0.0, 0.5, 0.0])
    assert "1/2 each" in sm.note and "NaN" in sm.torch
    for row in ([-inf, -inf], [np.nan, 1.0], [inf, np.nan]):  # no softmax at all
        sm = masking.softmax_extended(np.array(row))
        assert sm.weights is None and sm.note and "NaN" in sm.torch
    assert "0/0" in masking.softmax_extended(np.array([-inf])).torch
    assert masking.softmax_extended(np.array([1.0, 2.0])).note == ""
    with pytest.raises(ValueError, match="one row"):
        masking.softmax_extended(np.zeros((2, 2)))


@pytest.mark.parametrize(
    "row", [[-np.inf, 1.0, 2.0], [np.inf, 0.0], [np.inf, np.inf, 1.0], [-np.inf, -np.inf], [np.nan, 0.0]]
)
def test_extended_softmax_says_what_torch_gives(row):
    torch = pytest.importorskip("torch")
    theirs = torch.softmax(torch.tensor(row, dtype=torch.float64), dim=-1).numpy()
    sm = masking.softmax_extended(np.array(row))
    if sm.torch == "the same weights":
        np.testing.assert_allclose(sm.weights, theirs, rtol=1e-15, atol=0)  # exact zeros stay exact
    else:
        assert sm.torch.startswith("NaN for every entry") and np.isnan(theirs).all()


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=64))
def test_parse_numbers_round_trips_every_finite_float(values):
    text = ", ".join(repr(v) for v in values)
    np.testing.assert_array_equal(masking.parse_numbers(text), values)


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
