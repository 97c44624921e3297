"""Properties of the attention core, over generated inputs (hypothesis)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import attention, weights
from core.weights import WeightSet

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


small = st.floats(min_value=-3, max_value=3, allow_nan=False)


def _ws(data, d_in, d_out):
    mats = [data.draw(arrays(np.float32, (d_in, d_out), elements=small)) for _ in range(3)]
    return WeightSet("generated", 0, "rand", *mats)


@settings(max_examples=60)
@given(st.data(), st.integers(1, 8), st.integers(1, 5), st.integers(1, 4))
def test_tied_weights_give_an_exactly_symmetric_score_matrix(data, n, d_in, d_out):
    x = data.draw(arrays(np.float64, (n, d_in), elements=small))
    tr = attention.attention_in_mode(x, _ws(data, d_in, d_out), "tied")
    assert attention.asymmetry_error(tr.scores) == 0.0


@settings(max_examples=60)
@given(st.data(), st.integers(1, 8), st.integers(1, 5), st.integers(1, 4))
def test_trainable_attention_is_permutation_equivariant(data, n, d_in, d_out):
    x = data.draw(arrays(np.float64, (n, d_in), elements=small))
    perm = np.array(data.draw(st.permutations(range(n))))
    ws = _ws(data, d_in, d_out)
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


# Issue #13, item 3: "the weights are never symmetric" holds for the book's inputs, not in general.
# With symmetric scores A_ij = e^{ω_ij}/Z_i and A_ji = e^{ω_ij}/Z_j, so A = Aᵀ exactly when all the
# row denominators Z_i are equal.


@settings(max_examples=200)
@given(arrays(np.float64, st.integers(2, 7), elements=st.floats(-5, 5)), st.floats(0.5, 4.0))
def test_symmetric_circulant_scores_give_symmetric_weights(first_row, divisor):
    # A symmetric circulant matrix has the same entries in every row, so every Z_i is equal.
    n = len(first_row)
    half = [first_row[min(k, n - k)] for k in range(n)]  # c_k = c_{n-k}: symmetric
    scores = np.array([[half[(j - i) % n] for j in range(n)] for i in range(n)])
    np.testing.assert_array_equal(scores, scores.T)
    dens = attention.softmax_denominators(scores, divisor)
    np.testing.assert_allclose(dens, dens[0], rtol=1e-12)
    assert attention.asymmetry_error(attention.softmax(scores / divisor)) < 1e-15


@settings(max_examples=200)
@given(arrays(np.float64, (5, 5), elements=st.floats(-4, 4)))
def test_with_symmetric_scores_the_weight_error_follows_the_denominators(m):
    scores = (m + m.T) / 2
    dens = attention.softmax_denominators(scores)
    a = attention.softmax(scores)
    # A_ij − A_ji = e^{ω_ij}(1/Z_i − 1/Z_j), entry by entry
    expected = np.exp(scores) * (1 / dens[:, None] - 1 / dens[None, :])
    np.testing.assert_allclose(attention.asymmetry(a), expected, atol=1e-12)
