"""Properties of the attention core, over generated inputs (hypothesis)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import attention, weights
from tests.strategies import small, weight_set

finite = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


@given(arrays(np.float64, st.tuples(st.integers(1, 8), st.integers(1, 64)), elements=finite))
def test_softmax_rows_sum_to_one_without_nan(logits):
    a = attention.softmax(logits)
    assert np.isfinite(a).all()
    assert (a >= 0).all()
    np.testing.assert_allclose(a.sum(axis=-1), 1.0, rtol=1e-12)


@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 32)), elements=finite))
def test_log_softmax_matches_log_of_softmax_where_representable(logits):
    ls = attention.log_softmax(logits)
    assert not np.isnan(ls).any()
    a = attention.softmax(logits)
    ok = a > 1e-300
    np.testing.assert_allclose(ls[ok], np.log(a[ok]), rtol=1e-9, atol=1e-12)


@settings(max_examples=60)
@given(st.data(), st.integers(1, 8), st.integers(1, 5), st.integers(1, 4))
def test_trainable_attention_is_permutation_equivariant(data, n, d_in, d_out):
    x = data.draw(arrays(np.float64, (n, d_in), elements=small))
    perm = np.array(data.draw(st.permutations(range(n))))
    ws = weight_set(data, d_in, d_out)
    z = attention.self_attention(x, ws).context
    zp = attention.self_attention(x[perm], ws).context
    np.testing.assert_allclose(zp, z[perm], rtol=1e-10, atol=1e-12)


@given(st.integers(0, 2**32 - 1), st.sampled_from(["rand", "linear"]))
def test_any_seed_gives_float32_weights_in_the_initialisers_range(seed, init):
    ws = weights.init_weights(seed, init)
    for w in (ws.w_query, ws.w_key, ws.w_value):
        assert w.dtype == np.float32 and w.shape == (3, 2)
        if init == "rand":
            assert ((w >= 0) & (w < 1)).all()
        else:
            assert (np.abs(w) <= np.float32(1 / np.sqrt(3))).all()
