"""Every number "Three matrices" shows, read from its view: the post's figure 01 and the book's
section 3.4 at the default settings, what the prose says about them, and how they follow the
controls."""

import numpy as np
import pytest

from core import attention, tokens, weights
from core.attention import MODES
from topics.three_matrices import checks, readouts
from topics.three_matrices.view import Settings, build
from ui import checks as ui_checks

X = tokens.inputs()
J, S = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")
DEFAULT = build(Settings())
ROW_SUMS = [4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]
DENOMINATORS = [10.28, 13.30, 13.16, 9.30, 8.80, 10.61]


def r4(x):
    return np.round(np.asarray(x, dtype=np.float64), 4)


def test_the_defaults_are_the_books_sentence_section_3_4_and_three_matrices():
    v = DEFAULT
    assert v.labels == tokens.TOKENS and v.is_book and v.mode == "three" and v.focus is None
    assert v.weight_set.label == weights.section_3_4().label and v.d_k == 2
    assert v.pair == (J, S)
    assert v.trace.divisor == pytest.approx(np.sqrt(2))


@pytest.mark.parametrize(
    "ws", [weights.section_3_4(), weights.section_3_5(), weights.init_weights(7, "rand")]
)
def test_the_score_error_is_exactly_zero_until_the_two_matrices_differ(ws):
    v = build(Settings(weights=ws))
    assert v.row("none").score_error == 0.0 and v.row("tied").score_error == 0.0
    assert v.row("three").score_error > 0.01 and v.score_error == v.row("three").score_error


def test_figure_01_without_matrices_gives_the_posts_numbers():
    none = DEFAULT.row("none")
    np.testing.assert_array_equal(r4(DEFAULT.row_sums), ROW_SUMS)
    assert round(none.weight_error, 4) == 0.0634
    assert round(none.forward, 4) == 0.2134 and round(none.backward, 4) == 0.2157
    assert list(readouts.modes_table(DEFAULT).loc["No matrices"]) == [
        "0.0000",
        "0.0634",
        "0.2134",
        "0.2157",
        f"[{', '.join(f'{d:.2f}' for d in DENOMINATORS)}]",
    ]


def test_the_weight_error_comes_from_the_softmax_denominators_not_the_posts_row_sums():
    none = DEFAULT.row("none")
    dens = np.exp(none.log_denominators)
    np.testing.assert_array_equal(np.round(dens, 2), DENOMINATORS)
    # the weights are the exponentials over those denominators, row by row
    tr = attention.attention_in_mode(X, DEFAULT.weight_set, "none")
    np.testing.assert_allclose(tr.weights, np.exp(tr.scores / tr.divisor) / dens[:, None], rtol=1e-14)
    text = readouts.denominators_paragraph(DEFAULT)
    assert "10.28, 13.30, 13.16, 9.30, 8.80, 10.61, all different" in text
    assert "4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730 (the post's numbers" in text
    assert "the right conclusion from the wrong quantity" in text
    assert "Inputs whose denominators were all equal would give a weight error of exactly 0" in text


def test_the_weight_errors_help_says_exactly_when_weights_are_symmetric():
    help_none = readouts.when_symmetric(build(Settings(mode="none")))
    assert "exactly when all six row denominators" in help_none and "8.80 to 13.30" in help_none
    assert "Never 0" not in help_none
    assert "log Zᵢ − log Zⱼ for every pair" in readouts.when_symmetric(DEFAULT)


def test_journey_to_starts_reads_0_2134_here_and_0_2333_on_the_recap():
    """Section 3.4 divides by √d_k; the Recap follows section 3.3, which does not."""
    assert round(DEFAULT.row("none").forward, 4) == 0.2134 and round(DEFAULT.recap_forward, 4) == 0.2333
    text = readouts.denominators_paragraph(DEFAULT)
    assert "journey gives starts **0.2134** here but **0.2333** on the Recap" in text
    assert "√d_k = 1.4142 before the softmax" in text


@pytest.mark.parametrize(
    ("mode", "matmuls", "count"),
    [
        ("none", 2, "two matrix multiplications and a transpose"),
        ("tied", 4, "four matrix multiplications and a transpose"),
        ("three", 5, "five matrix multiplications and a transpose"),
    ],
)
def test_the_forward_pass_counts_the_posts_five_multiplications_as_it_runs(mode, matmuls, count):
    v = build(Settings(mode=mode))
    assert (v.matmuls, v.transposes) == (matmuls, 1)
    assert readouts.count_text(v.matmuls, v.transposes) == count
    n, d = X.shape[0], v.trace.values.shape[1]
    assert v.ops[-1].code.startswith("Z = A") and v.ops[-1].shape == (n, d)
    assert v.ops[-1].macs == n * n * d  # [n, n] @ [n, d]
    assert sum(op.macs for op in v.ops if op.kind == "transpose") == 0
    ops = readouts.ops_table(v)
    assert (ops["kind"] == "matmul").sum() == matmuls and (ops["kind"] == "transpose").sum() == 1


def test_three_matrices_run_exactly_the_posts_five_products_and_a_transpose():
    ops = DEFAULT.ops
    assert [op.code for op in ops] == ["Q = X W_q", "K = X W_k", "V = X W_v", "Kᵀ", "Ω = Q Kᵀ", "Z = A V"]
    assert [op.macs for op in ops] == [6 * 3 * 2] * 3 + [0, 6 * 2 * 6, 6 * 6 * 2]
    # the recorded forward is the one the figures show: the same numbers as the book's class
    np.testing.assert_allclose(
        DEFAULT.trace.context, attention.self_attention(X, weights.section_3_4()).context, rtol=1e-15
    )


def test_every_check_matches_at_the_books_settings_whatever_the_controls_say():
    away = build(Settings(weights=weights.init_weights(5, "linear"), mode="tied"))
    for v in (DEFAULT, away):
        rows = checks.book_checks(v.book)
        assert len(rows) == 24 and all(c.ok for c in rows), [c.label for c in rows if not c.ok]
    b = DEFAULT.book
    np.testing.assert_array_equal(r4(b.query_2), [0.4306, 1.4551])
    assert round(b.omega_22, 4) == 1.8524
    np.testing.assert_array_equal(r4(b.sa_v1_output[1]), r4(b.context_vec_2))


def test_the_focus_picks_the_row_the_page_marks():
    f = build(Settings(focus=S)).focus
    assert f is not None and f.row == S
    np.testing.assert_array_equal(f.weights, DEFAULT.trace.weights[S])
    np.testing.assert_array_equal(f.context, DEFAULT.trace.context[S])
    assert DEFAULT.focus is None and DEFAULT.focus_row is None


def test_another_sentence_keeps_its_own_pair_and_says_the_row_sums_are_its_own():
    labels = ("the", "cat", "sat", "on", "mats")
    x = np.random.default_rng(0).uniform(0, 1, (5, 4))
    v = build(Settings(labels, x, False, weights.section_3_5(), "tied"))
    assert v.pair == (1, 2) and v.weight_set.w_query.shape == (4, 2)
    assert build(Settings(("a",), x[:1], False)).pair == (0, 0)
    assert "here for your sentence" in readouts.denominators_paragraph(v)
    assert readouts.modes_table(v).columns[2] == "cat → sat"


def test_denominators_no_float64_holds_are_written_as_powers_of_e():
    x = np.array([[9.99] * 16, [-9.99] * 16, [5.0] * 16])
    v = build(Settings(("a", "b", "c"), x, False, weights.init_weights(1, "rand"), "none"))
    assert np.isfinite(v.log_denominators).all() and v.log_denominators.max() > 709
    assert "e^" in readouts.when_symmetric(v)


def test_a_mode_the_page_has_not_is_refused():
    with pytest.raises(ValueError, match="mode"):
        build(Settings(mode="four"))  # type: ignore[arg-type]


# Every weight source the control offers: section 3.4, section 3.5, any seed with either init.
SOURCES = {
    "section-3.4": weights.section_3_4(),
    "section-3.5": weights.section_3_5(),
    "seed-7-rand": weights.init_weights(7, "rand"),
    "seed-7-linear": weights.init_weights(7, "linear"),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("source", SOURCES)
def test_the_code_shown_is_the_class_of_the_weights_at_every_source_and_mode(source, mode):
    """Issue 24, item 8: torch.rand weights are SelfAttention_v1's (nn.Parameter, ``x @ self.W_key``),
    nn.Linear ones SelfAttention_v2's (``self.W_key(x)``); the code names the seed that drew them."""
    ws = SOURCES[source]
    v = build(Settings(weights=ws, mode=mode))
    code, caption = readouts.forward_code(v), readouts.forward_caption(v)
    v1 = ws.init == "rand"
    assert ("class SelfAttention_v1(nn.Module)" in code) == v1
    assert ("nn.Parameter(torch.rand(d_in, d_out))" in code) == v1
    assert ("nn.Linear(d_in, d_out, bias=qkv_bias)" in code) == (not v1)
    assert ("`x @ self.W_key`" in caption) == v1 and ("`self.W_key(x)`" in caption) == (not v1)
    assert f"torch.manual_seed({ws.seed})" in code
    # the projections the code runs are the ones the view recorded
    projections = [op for op in v.ops if op.code.startswith(("Q =", "K =", "V ="))]
    call = "x @ self.W_" if v1 else "(x)"
    assert sum(
        call in line for line in code.splitlines() if "= " in line and "self.W_" in line.split("=")[-1]
    ) == len(projections)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("source", SOURCES)
def test_the_code_shown_computes_the_numbers_shown(source, mode):
    """Run in PyTorch, the code on the page gives the page's Z (float32 against float64)."""
    torch = pytest.importorskip("torch")
    ws = SOURCES[source]
    v = build(Settings(weights=ws, mode=mode))
    scope = {"torch": torch, "nn": torch.nn, "inputs": torch.tensor(X, dtype=torch.float32)}
    with torch.no_grad():
        exec(readouts.forward_code(v), scope)
    np.testing.assert_allclose(scope["context_vec"].numpy(), v.trace.context, atol=1e-6)


def test_the_computed_here_row_says_how_it_is_computed():
    (row,) = [c for c in checks.book_checks(DEFAULT.book) if c.source == ui_checks.HERE]
    assert row.note.startswith("Computed here: exp(xᵢ·xⱼ/√2) summed over j for each of the book's six inputs")
    assert "audit" not in row.note.lower()
