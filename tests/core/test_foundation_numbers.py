"""Figure 01's numbers and what the book prints for sections 3.4 and 3.5, computed by core.

The Recap's numbers (section 3.3) are tested on its view: tests/recap/test_recap_view.py.
"""

import numpy as np
import pytest

from core import attention, tokens, weights

X = tokens.inputs()
J, S = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")


def r4(x):
    return np.round(np.asarray(x, dtype=np.float64), 4)


@pytest.mark.parametrize(
    "ws", [weights.section_3_4(), weights.section_3_5(), weights.init_weights(7, "rand")]
)
def test_figure01_score_error_is_exactly_zero_without_two_matrices(ws):
    for mode in ("none", "tied"):
        assert attention.asymmetry_error(attention.attention_in_mode(X, ws, mode).scores) == 0.0
    assert attention.asymmetry_error(attention.attention_in_mode(X, ws, "three").scores) > 0.01


def test_figure01_row_sums_and_weight_error_without_matrices():
    tr = attention.attention_in_mode(X, weights.section_3_4(), "none")
    np.testing.assert_array_equal(r4(tr.scores.sum(axis=1)), [4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730])
    assert round(attention.asymmetry_error(tr.weights), 4) == 0.0634
    assert round(tr.weights[J, S], 4) == 0.2134
    assert round(tr.weights[S, J], 4) == 0.2157
    assert tr.divisor == pytest.approx(np.sqrt(2))


def test_section_3_4_what_the_book_prints():
    tr = attention.self_attention(X, weights.section_3_4())
    np.testing.assert_array_equal(r4(tr.queries[1]), [0.4306, 1.4551])
    assert round(tr.scores[1, 1], 4) == 1.8524
    np.testing.assert_array_equal(r4(tr.weights[1]), [0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820])
    np.testing.assert_array_equal(r4(tr.context[1]), [0.3061, 0.8210])
    np.testing.assert_array_equal(
        r4(tr.context),
        [
            [0.2996, 0.8053],
            [0.3061, 0.8210],
            [0.3058, 0.8203],
            [0.2948, 0.7939],
            [0.2927, 0.7891],
            [0.2990, 0.8040],
        ],
    )


def test_section_3_5_sa_v2_output():
    tr = attention.self_attention(X, weights.section_3_5())
    np.testing.assert_array_equal(
        r4(tr.context),
        [
            [-0.0739, 0.0713],
            [-0.0748, 0.0703],
            [-0.0749, 0.0702],
            [-0.0760, 0.0685],
            [-0.0763, 0.0679],
            [-0.0754, 0.0693],
        ],
    )


def test_the_two_weight_sets_differ():
    a, b = weights.section_3_4(), weights.section_3_5()
    assert (a.seed, a.init) == (123, "rand") and (b.seed, b.init) == (789, "linear")
    assert not np.allclose(a.w_query, b.w_query)
    assert (a.w_query >= 0).all() and (np.abs(b.w_query) <= 1 / np.sqrt(3)).all()


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError):
        weights.init_weights(1, "xavier")
    with pytest.raises(ValueError):
        attention.attention_in_mode(X, weights.section_3_4(), "four")


# --- issue #13, item 3: the weight error comes from softmax's denominators ----------------------


def test_softmax_denominators_with_no_matrices_are_the_audits_not_the_row_sums_the_post_cites():
    none = attention.attention_in_mode(X, weights.section_3_4(), "none")
    dens = attention.softmax_denominators(none.scores, none.divisor)
    np.testing.assert_array_equal(np.round(dens, 2), [10.28, 13.30, 13.16, 9.30, 8.80, 10.61])
    np.testing.assert_array_equal(
        r4(none.scores.sum(axis=1)), [4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]
    )
    # the weights are the exponentials over those denominators, row by row
    np.testing.assert_allclose(none.weights, np.exp(none.scores / none.divisor) / dens[:, None], rtol=1e-14)


# --- issue #13, item 10: "five matrix multiplications and a transpose", counted as they run ----


@pytest.mark.parametrize(("mode", "matmuls"), [("none", 2), ("tied", 4), ("three", 5)])
def test_the_forward_pass_records_its_matrix_operations(mode, matmuls):
    tr = attention.attention_in_mode(X, weights.section_3_4(), mode)
    assert tr.count("matmul") == matmuls and tr.count("transpose") == 1
    n, d = X.shape[0], tr.values.shape[1]
    assert tr.ops[-1].code.startswith("Z = A") and tr.ops[-1].shape == (n, d)
    assert tr.ops[-1].macs == n * n * d  # [n, n] @ [n, d]
    assert sum(op.macs for op in tr.ops if op.kind == "transpose") == 0


def test_three_matrices_runs_exactly_the_posts_five_products_and_a_transpose():
    tr = attention.attention_in_mode(X, weights.section_3_4(), "three")
    assert [op.code for op in tr.ops] == ["Q = X W_q", "K = X W_k", "V = X W_v", "Kᵀ", "Ω = Q Kᵀ", "Z = A V"]
    assert [op.macs for op in tr.ops] == [6 * 3 * 2] * 3 + [0, 6 * 2 * 6, 6 * 6 * 2]
    # the recorded forward is the one the figures show: same numbers as the book's class
    np.testing.assert_allclose(
        tr.context, attention.self_attention(X, weights.section_3_4()).context, rtol=1e-15
    )


def test_mix_is_the_context_step_of_attend():
    """Z = AV from weights alone: the same context vectors the forward pass returned."""
    tr = attention.self_attention(tokens.inputs(), weights.section_3_4())
    np.testing.assert_allclose(attention.mix(tr.weights, tr.values), tr.context, rtol=0, atol=1e-15)
    # A dropped-out row of zeros gives the zero vector.
    assert not attention.mix(np.zeros((1, 6)), tr.values).any()
