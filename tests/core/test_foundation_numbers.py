"""What the book prints for sections 3.4 and 3.5, computed by core.

The Recap's numbers (section 3.3) and Three matrices' are tested on their views: tests/recap and
tests/three_matrices.
"""

import numpy as np
import pytest

from core import attention, tokens, weights

X = tokens.inputs()
J, S = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")


def r4(x):
    return np.round(np.asarray(x, dtype=np.float64), 4)


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
    """A value outside the Literal a caller might still pass (a URL, an untyped caller)."""
    init: str = "xavier"
    mode: str = "four"
    with pytest.raises(ValueError):
        weights.init_weights(1, init)  # type: ignore[arg-type]  # the wrong value on purpose
    with pytest.raises(ValueError):
        attention.attention_in_mode(X, weights.section_3_4(), mode)  # type: ignore[arg-type]


def test_mix_is_the_context_step_of_attend():
    """Z = AV from weights alone: the same context vectors the forward pass returned."""
    tr = attention.self_attention(tokens.inputs(), weights.section_3_4())
    np.testing.assert_allclose(attention.mix(tr.weights, tr.values), tr.context, rtol=0, atol=1e-15)
    # A dropped-out row of zeros gives the zero vector.
    assert not attention.mix(np.zeros((1, 6)), tr.values).any()
