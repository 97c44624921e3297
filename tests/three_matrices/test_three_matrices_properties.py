"""The page's claims as properties, over generated inputs (hypothesis): tied weights give exactly
symmetric scores, and with symmetric scores the weights are symmetric exactly when every row's
softmax denominator is the same (issue #13, item 3: "never symmetric" holds for the book's inputs,
not in general).

And the page's prose at any legal setting (issue #24): the reader's sentence (one token, repeated
words, any width), every mode, every weight source, any focus. Every number a sentence states is
one of the view's values as the page formats it, and every claim is written only where the view's
raw arrays say it holds.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import attention, book, sentence, weights
from core.attention import MODES
from core.sentence import Sentence
from tests.prose import unexplained
from tests.strategies import sentences, small, weight_set
from topics.three_matrices import checks, readouts
from topics.three_matrices.view import Settings, View, build
from ui import format as fmt


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


# Every weight source the control offers: section 3.4, section 3.5, or any seed with either init.
sources = st.one_of(
    st.builds(weights.section_3_4),
    st.builds(weights.section_3_5),
    st.builds(weights.init_weights, st.integers(0, 2**31 - 1), st.sampled_from(["rand", "linear"])),
)
# Structural numbers the text may state: the book's ``**0.5`` and ``dim=-1``, its section numbers,
# and the seeds of the book's two weight sets (the checks note names the settings the checks run at).
CONSTANTS = (
    "0.5",
    "-1",
    "3.3",
    "3.4",
    "3.5",
    "1",
    "0",
    str(weights.SECTION_3_4_SEED),
    str(weights.SECTION_3_5_SEED),
)


def prose(v: View) -> dict[str, str]:
    """Every text the page writes from the view, by where it stands."""
    table = readouts.modes_table(v)
    return {
        "lead": readouts.lead(v),
        "weight error help": readouts.when_symmetric(v),
        "divisor help": readouts.divisor_help(v),
        "modes table": " ".join([*table.columns, *table.index, *table.to_numpy().ravel()]),
        "denominators": readouts.denominators_paragraph(v),
        "latex": readouts.forward_latex(v),
        "code": readouts.forward_code(v),
        "caption": readouts.forward_caption(v),
        "ops": readouts.ops_paragraph(v),
        "focus": readouts.focus_sentence(v),
        "checks note": checks.NOTE,
    }


def stated(v: View) -> list[str]:
    """The view's values, formatted as the page formats them."""
    out = [fmt.num(x) for x in (v.score_error, v.weight_error, v.trace.divisor, v.recap_forward)]
    for r in v.modes:
        out += [fmt.num(x) for x in (r.score_error, r.weight_error, r.forward, r.backward)]
        out.append(readouts.dens_text(r.log_denominators))
    out += [readouts.dens_text(v.log_denominators), fmt.vec(v.row_sums), fmt.vec(v.trace.weights.ravel())]
    if v.focus is not None:
        out.append(fmt.vec(v.focus.weights))
    out += [f"{v.n:,}", str(v.weight_set.seed), str(v.d_k), *(str(d) for d in v.weight_set.w_query.shape)]
    return out


def claims_hold(v: View, s: Sentence) -> None:
    """Each claim the prose makes, against the view's raw arrays and the sentence's embeddings."""
    text = prose(v)
    none, three, x = v.row("none"), v.row("three"), np.asarray(s.embeddings)
    tr, ws = v.trace, v.weight_set
    assert none.score_error == 0 and v.row("tied").score_error == 0  # "exactly 0 until they differ"
    assert ("stays 0 even then" in text["lead"]) == (three.score_error == 0)
    if "every token has the same embedding" in text["lead"] + text["denominators"]:
        assert np.all(x == x[0])

    helptext = text["weight error help"]
    assert helptext.startswith("With one token") == (v.n == 1)
    if helptext.startswith("With asymmetric scores"):
        assert v.score_error > 0
    if helptext.startswith("With symmetric scores"):
        assert v.score_error == 0

    d = text["denominators"]
    dens = none.log_denominators
    if "still not symmetric" in d:
        assert none.weight_error > 0
    if "symmetric too" in d:
        assert none.weight_error == 0
    if ", all equal, " in d:
        assert np.all(dens == dens[0])
    if ", all different, " in d:
        assert len(np.unique(dens)) == len(dens)
    if ", not all equal, " in d:
        assert 1 < len(np.unique(dens)) < len(dens)
    if "is a fact about these" in d:
        assert all(r.weight_error > 0 for r in v.modes)
    if "the right conclusion from the wrong quantity" in d:
        assert none.weight_error > 0 and not np.all(v.row_sums == v.row_sums[0])
    if "the post's numbers" in d:
        assert v.is_book
    here_but = " here but " in d
    assert here_but == (fmt.num(none.forward) != fmt.num(v.recap_forward))
    assert ("gives itself" in d) == (v.pair[0] == v.pair[1])
    if "narrows the gaps" in d:
        assert tr.divisor > 1

    j, k = v.pair
    columns = list(readouts.modes_table(v).columns)
    assert len(set(columns)) == len(columns) == (4 if j == k else 5)

    code = text["code"]
    v1 = ws.init == "rand"
    assert ("class SelfAttention_v1" in code) == v1 and ("class SelfAttention_v2" in code) == (not v1)
    assert f"(d_in={x.shape[1]}, d_out={ws.w_query.shape[1]})" in code
    assert ("# changed" in code) == (v.mode != "three")
    # the projections the code runs are the ones the view ran: W is used exactly when its product is
    forward = code.split("def forward", 1)[1].split("\n\n\n", 1)[0]
    for w, name, got in (
        ("W_query", "W_q", tr.queries),
        ("W_key", "W_k", tr.keys),
        ("W_value", "W_v", tr.values),
    ):
        product = x @ getattr(ws, w.lower()).astype(np.float64)
        runs = np.array_equal(got, product)
        call = f"x @ self.{w}" if v1 else f"self.{w}(x)"
        assert (call in forward) == runs, (w, v.mode)
        assert (name in readouts.unused(v)) == (not runs)

    if "which is what the three-matrix mode runs" in text["ops"] or "That is the count" in text["ops"]:
        assert readouts.count_text(three.matmuls, three.transposes) == book.FIGURE_01["five_ops"]
    assert sum(op.kind == "matmul" for op in v.ops) == v.matmuls

    f = text["focus"]
    if v.focus is not None:
        row = v.focus.weights
        printed = [fmt.num(w) for w in row]
        if "alike" in f:
            assert len(set(printed)) == 1
        if "gives most weight to" in f:
            assert printed.count(max(printed, key=float)) == 1
            assert f"*{v.labels[int(np.argmax(row))]}*" in f
        if "shares its most weight" in f:
            assert 1 < printed.count(max(printed, key=float)) < len(row)


@settings(max_examples=50, deadline=None)
@given(sentences(), st.sampled_from(MODES), sources, st.data())
def test_every_number_in_the_prose_is_the_views_and_every_claim_holds(s, mode, ws, data):
    focus = data.draw(st.none() | st.integers(0, s.n - 1))
    v = build(Settings(s.labels, s.embeddings, s.is_book, ws, mode, focus))
    numbers = stated(v)
    for where, text in prose(v).items():
        assert not unexplained(text, numbers, CONSTANTS), (where, text)
        assert "audit" not in text.lower() and "figure 0" not in text.lower(), (where, text)
    claims_hold(v, s)
