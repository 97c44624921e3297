"""Figure 01's claims as properties, over generated inputs (hypothesis): tied weights give exactly
symmetric scores, and with symmetric scores the weights are symmetric exactly when every row's
softmax denominator is the same (issue #13, item 3: "never symmetric" holds for the book's inputs,
not in general)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import attention, sentence, weights
from tests.strategies import small, weight_set
from topics.three_matrices.view import Settings, build


@settings(max_examples=60)
@given(st.data(), st.integers(1, 8), st.integers(1, 5), st.integers(1, 4))
def test_tied_weights_give_an_exactly_symmetric_score_matrix(data, n, d_in, d_out):
    x = data.draw(arrays(np.float64, (n, d_in), elements=small))
    tr = attention.attention_in_mode(x, weight_set(data, d_in, d_out), "tied")
    assert attention.asymmetry_error(tr.scores) == 0.0


words = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(words, min_size=1, max_size=sentence.MAX_TOKENS),
    st.integers(sentence.MIN_WIDTH, sentence.MAX_WIDTH),
    st.integers(0, 2**31 - 1),
    st.sampled_from(["rand", "linear"]),
)
def test_on_any_sentence_and_seed_the_page_shows_a_zero_score_error_without_two_matrices(
    typed, width, seed, init
):
    s = sentence.build(" ".join(typed), width)
    v = build(Settings(s.labels, s.embeddings, s.is_book, weights.init_weights(seed, init)))
    assert v.row("none").score_error == 0.0 and v.row("tied").score_error == 0.0
    assert v.row("three").score_error == v.score_error >= 0.0


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
