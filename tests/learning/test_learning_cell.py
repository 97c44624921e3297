"""Learning to attend's cell panel (issue 22): the cell at the step shown, and the loss's pull on it.

The view's panel is read at the page's defaults and at settings its own lines cover (tied, no
matrices, a diverged run, step 0, where it must equal Three matrices' cell); the gradient
``∂L/∂ω_ij = (a_ij − T_ij)/(n√d_k)`` is checked against a central finite difference of the loss and
against PyTorch's autograd (skipped without torch), and its chain to the weights' gradient
against the training's own; the running page is opened with the URL keys and clicked; and a
property test holds the panel's numbers to the page's matrices at random legal settings, the
reader's sentence included (short runs and a cheap search, as ``test_learning_properties.py``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from core import cell, sentence, tokens
from core.attention import log_softmax
from tests.app.conftest import assert_clean, clicked, open_page, panel_text
from tests.learning.test_learning_properties import cheap_limits, legal
from topics.learning import one_cell, training, view
from ui import format as fmt
from ui.cell_text import chosen_key

PAGE = "topics/learning/page.py"
JOURNEY, STARTS, YOUR = 1, 2, 0


def build(**kwargs) -> view.View:
    return view.build(view.Settings(**kwargs), limits=cheap_limits)


def loss_of_scores(omega: np.ndarray, target: np.ndarray, d_k: int) -> float:
    """The page's loss as a function of the unscaled scores alone: −(1/n) Σ T log softmax(Ω/√d_k)."""
    return float(-np.sum(target * log_softmax(omega / np.sqrt(d_k))) / len(omega))


def finite_difference(omega: np.ndarray, target: np.ndarray, d_k: int, i: int, j: int) -> float:
    h = 1e-5 * max(1.0, abs(float(omega[i, j])))  # rounding ~1e-16/h, truncation ~h²
    up, down = omega.copy(), omega.copy()
    up[i, j] += h
    down[i, j] -= h
    return (loss_of_scores(up, target, d_k) - loss_of_scores(down, target, d_k)) / (2 * h)


@pytest.fixture(scope="module")
def default() -> view.View:
    return build(focus=JOURNEY, cell=STARTS)


def test_at_the_defaults_the_panel_is_the_step_shown_with_its_gradient(default):
    v, c = default, default.cell_at_step
    assert v.cell is not None and c is not None and v.step == 5_000 and c.step == 5_000
    a = v.attention[JOURNEY, STARTS]
    assert v.cell.heading == "journey → starts" and v.cell_key == STARTS
    assert f"**{fmt.num(v.scores[JOURNEY, STARTS])}**" in v.cell.score
    assert v.cell.weight[-1].endswith(f"**{fmt.num(a)}**")
    assert v.cell.context == f"z_journey = **{fmt.short_vec(v.focus_context)}**"
    assert "as trained up to step 5000" in v.cell.score_intro
    when, grad, sign = v.cell.notes
    # Previous token: journey should attend to "Your", not "starts" (T = 0), so the pull is a/(6√2) > 0.
    assert c.target == 0.0 and c.gradient == pytest.approx(a / (6 * np.sqrt(2)), rel=1e-12)
    assert f"was {fmt.num(v.runs['three'].attention[0, JOURNEY, STARTS])} at step 0" in when
    assert f"is {fmt.num(a)} at step 5000; the target asks for 0.0000" in when
    assert "section 5.1.2" in grad and "(a − T) / (n · √d_k)" in grad
    assert f"({fmt.num(a)} − 0.0000) / (6 · 1.4142) = **{one_cell.gradient_text(c.gradient)}**" in grad
    assert sign.startswith("Positive: this cell has more weight than the target asks")


def test_at_step_0_the_cell_is_three_matrices_cell_and_the_pull_is_on_the_target():
    # Issue 22's numbers: before any step, the book's section 3.4 weights.
    v = build(focus=JOURNEY, cell=STARTS, step=0)
    assert v.step == 0 and v.cell is not None
    assert v.cell.score == "ω = 0.1878 + 1.6233 = **1.8111**"
    assert v.cell.weight == (
        "Divided by √d_k = √2 = 1.4142: ≈ 1.2806",
        "exp(1.2806) = 3.5990",
        "The row's denominator, Σ exp over its keys: 16.37",
        "a_journey,starts = 3.5990 / 16.37 = **0.2199**",
    )
    assert v.cell.context == "z_journey = **[0.3061, 0.8210]**"
    assert v.cell.notes[0].startswith("At step 0 nothing is trained yet")
    assert "= (0.2199 − 0.0000) / (6 · 1.4142) = **0.0259**" in v.cell.notes[1]
    # journey's target is "Your": its weight 0.1 something is short of 1, so the pull is negative.
    w = build(focus=JOURNEY, cell=YOUR, step=0)
    assert w.cell_at_step is not None and w.cell_at_step.target == 1.0 and w.cell_at_step.gradient < 0
    assert w.cell is not None and w.cell.notes[2].startswith("Negative: this cell has less weight")


def test_tied_no_matrices_and_a_diverged_run_say_what_moves_the_cell():
    tied = build(focus=STARTS, cell=JOURNEY, mode="tied", steps=100, step=100)
    assert tied.cell is not None and tied.cell_at_step is not None
    assert "W_q as trained up to step 100" in tied.cell.score_intro
    assert "W_q (used for the keys too) are where gradient descent has taken them" in tied.cell.notes[0]
    run = tied.runs["tied"]
    k = tokens.inputs() @ run.w_query[run.at(100)]
    np.testing.assert_array_equal(tied.cell_at_step.arithmetic.key, k[JOURNEY])  # keys made with W_q

    none = build(focus=STARTS, cell=JOURNEY, mode="none", steps=100, step=60)
    assert none.cell is not None and none.cell_at_step is not None
    assert none.cell.notes[0].startswith(
        "No matrices: nothing is trained, so this cell is the same at step 60"
    )
    assert "nothing to move" in none.cell.notes[2]
    np.testing.assert_array_equal(none.cell_at_step.arithmetic.query, tokens.inputs()[STARTS])

    wild = build(focus=JOURNEY, cell=STARTS, optimiser="gd", lr=10.0, steps=200, step=200)
    assert wild.runs["three"].diverged_at is not None and wild.step == wild.runs["three"].diverged_at - 1
    c, p = wild.cell_at_step, wild.cell
    assert c is not None and p is not None and c.step == wild.step and f"at step {wild.step}:" in p.notes[0]
    assert c.arithmetic.weight == wild.attention[JOURNEY, STARTS]


def test_the_gradient_is_a_finite_difference_of_the_loss_in_every_cell():
    for s in (
        dict(focus=JOURNEY, steps=100, step=40),
        dict(focus=YOUR, target="uniform", mode="tied", steps=100, step=100, width=3),
        dict(focus=5, target="swaps", optimiser="gd", lr=1.0, steps=200, step=100, width=1),
    ):
        v = build(**s)
        d_k = int(v.ws.w_key.shape[-1])
        for i in range(v.n):
            for j in range(v.n):
                fd = finite_difference(v.scores, v.target, d_k, i, j)
                assert v.gradient[i, j] == pytest.approx(fd, rel=1e-6, abs=1e-9), (s, i, j)
        c = v.cell_at_step
        assert c is not None and c.gradient == v.gradient[c.arithmetic.i, c.arithmetic.j]


def test_the_gradient_equals_pytorch_autograd():
    torch = pytest.importorskip("torch")
    for s in (
        dict(focus=JOURNEY, steps=100, step=100),
        dict(focus=3, mode="tied", target="pair", steps=100, step=100, width=4),
    ):
        v = build(**s)
        d_k = int(v.ws.w_key.shape[-1])
        omega = torch.tensor(v.scores, dtype=torch.float64, requires_grad=True)
        t = torch.tensor(v.target, dtype=torch.float64)
        loss = -(t * torch.log_softmax(omega / d_k**0.5, dim=-1)).sum(dim=-1).mean()
        loss.backward()
        assert loss.item() == pytest.approx(v.loss, rel=1e-12)  # the loss the page shows at this step
        np.testing.assert_allclose(v.gradient, omega.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_the_pull_on_the_scores_is_the_pull_that_moves_the_weights():
    # ∂L/∂W_q = Xᵀ (∂L/∂Ω) K and ∂L/∂W_k = Xᵀ (∂L/∂Ω)ᵀ Q: the training's gradient at the step shown.
    v = build(focus=JOURNEY, steps=100, step=60)
    run, x = v.runs["three"], tokens.inputs()
    wq, wk = run.w_query[run.at(v.step)], run.w_key[run.at(v.step)]
    loss, gq, gk = training.loss_and_grad(x, wq, wk, v.target, "three")
    assert loss == v.loss
    np.testing.assert_allclose(gq, x.T @ v.gradient @ (x @ wk), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(gk, x.T @ v.gradient.T @ (x @ wq), rtol=1e-12, atol=1e-15)


def test_a_row_trained_far_below_zero_is_shifted_not_divided_by_zero():
    # Found by the property test: Adam at rate 10 drives every score of a row below −745·√d_k within
    # a few steps, where every unshifted exp is 0.0 and the weight would be 0/0. core.cell shifts the
    # row by its largest, as it does one that would overflow; the panel says so.
    s = sentence.build("a1 sat", 3)
    v = build(labels=s.labels, embeddings=s.embeddings, lr=10.0, steps=100, step=3, width=4, focus=0)
    c = v.cell_at_step
    assert c is not None and v.cell is not None and c.arithmetic.shift < -cell.EXP_LIMIT
    assert c.arithmetic.denominator >= 1.0 and c.arithmetic.softmax_weight == pytest.approx(v.attention[0, 0])
    assert "exp(-767.0810 + 767.0810) = 1.0000" in v.cell.weight
    assert any("so they do not all round to 0" in line for line in v.cell.weight)


def test_score_gradient_refuses_what_is_not_an_attention_matrix():
    with pytest.raises(ValueError, match=r"\[n, n\]"):
        training.score_gradient(np.ones((2, 3)), np.ones((2, 3)), 2)
    with pytest.raises(ValueError, match="d_k"):
        training.score_gradient(np.eye(2), np.eye(2), 0)


# The running page.


def test_a_cell_link_shows_the_cell_at_the_step_and_its_gradient():
    at = open_page(PAGE, {"learn_focus": "journey", "learn_cell": "starts", "steps": "100", "step": "60"})
    assert_clean(at)
    v = view.build(view.Settings(steps=100, step=60, focus=JOURNEY, cell=STARTS))
    assert v.cell is not None
    panel = panel_text(at)
    for line in (v.cell.heading, v.cell.score, *v.cell.weight, v.cell.context):
        assert line in panel, line
    shown = [m.value for m in at.markdown]
    assert all(note in shown for note in v.cell.notes)


def test_without_a_focus_there_is_no_panel_and_a_focus_alone_takes_its_largest_weight():
    at = open_page(PAGE, {"steps": "100"})
    assert not any(m.value.startswith("**One cell") for m in at.markdown)
    at = open_page(PAGE, {"steps": "100", "learn_focus": "step"})
    v = view.build(view.Settings(steps=100, step=100, focus=5))
    assert v.cell is not None and v.cell_key == int(v.attention[5].argmax())
    assert v.cell.heading in panel_text(at)


def test_a_click_sets_the_focus_and_the_cell():
    at = AppTest.from_function(
        clicked, args=("learn_attention", "learn_focus", "learn_cell", {"customdata": [0, 2, 1]})
    ).run()
    assert at.selectbox(key="learn_focus").value == 2 and at.selectbox(key="learn_cell").value == 1
    at = AppTest.from_function(
        clicked, args=("learn_attention", "learn_focus", "learn_cell", {"x": "journey"})
    ).run()  # a cleared selection
    assert at.selectbox(key="learn_focus").value == -1 and at.selectbox(key="learn_cell").value == -1


# Random legal settings.


@settings(max_examples=40, deadline=None)
@given(legal(), st.data())
def test_the_panels_numbers_are_the_pages_matrices(s: view.Settings, data: st.DataObject) -> None:
    n = len(s.labels)
    i = data.draw(st.integers(0, n - 1))
    s = replace(s, focus=i, cell=data.draw(st.none() | st.integers(0, n - 1)))
    v = view.build(s, limits=cheap_limits)
    c, p = v.cell_at_step, v.cell
    assert c is not None and p is not None and c.step == v.step
    arith, run = c.arithmetic, v.runs[s.mode]
    j = chosen_key(s.cell, v.attention[i])
    assert (arith.i, arith.j) == (i, j) and v.cell_key == j
    # The query and key are the step shown's: that snapshot's W_q and W_k (or the embeddings).
    x, snap = np.asarray(s.embeddings, dtype=np.float64), run.at(v.step)
    q = x if s.mode == "none" else x @ run.w_query[snap]
    k = x if s.mode == "none" else x @ (run.w_query if s.mode == "tied" else run.w_key)[snap]
    np.testing.assert_array_equal(arith.query, q[i])
    np.testing.assert_array_equal(arith.key, k[j])
    # The score, the weight and the context are the heatmaps' and the context note's.
    scale = max(1.0, float(np.abs(arith.products).sum()))
    assert arith.score == pytest.approx(v.scores[i, j], abs=1e-12 * scale)
    np.testing.assert_array_equal(arith.row_weights, v.attention[i])
    assert arith.weight == v.attention[i, j]
    assert arith.softmax_weight == pytest.approx(v.attention[i, j], abs=1e-12)
    assert v.focus_context is not None
    np.testing.assert_allclose(arith.context, v.focus_context, rtol=1e-12, atol=1e-12)
    assert p.heading == f"{fmt.md(s.labels[i])} → {fmt.md(s.labels[j])}"
    assert f"**{fmt.num(arith.score)}**" in p.score
    if np.isfinite(arith.exp) and arith.denominator > 0:
        assert p.weight[-1].endswith(f"**{fmt.num(arith.softmax_weight)}**")
    # The gradient: the closed form at the recorded snapshot, stated with the numbers it uses.
    d_k = s.width
    assert c.gradient == v.gradient[i, j]
    assert c.gradient == pytest.approx((v.attention[i, j] - v.target[i, j]) / (n * np.sqrt(d_k)), rel=1e-12)
    assert c.target == v.target[i, j] and c.start == run.attention[0, i, j]
    when, grad, sign = p.notes
    assert f"step {v.step}" in when and f"({fmt.num(arith.weight)} − {fmt.num(c.target)})" in grad
    assert f"({n} · {fmt.num(np.sqrt(d_k))}) = **{one_cell.gradient_text(c.gradient)}**" in grad
    word = "Negative" if c.gradient < 0 else "Positive" if c.gradient > 0 else "Zero"
    assert sign.startswith(word) and (("nothing to move" in sign) == (s.mode == "none"))
