"""The Dropout page's cell panel (issue #22): one cell through the causal softmax and this draw's
dropout, with the numbers the page's heatmaps print.

The view's panel is checked at the defaults and at the book's own draw (PyTorch, seed 123, where
row 2 is the zero vector), at a future cell, with scaling off and at p = 0; the page draws it from
``?drop_focus=..&drop_cell=..``; a click on either heatmap sets both controls; and a property test
holds every number of the panel to the view's matrices at random legal settings.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from core import masking, tokens
from core.sentence import Sentence
from tests.app.conftest import assert_clean, charts, clicked, metrics, open_page, panel_text, widget
from tests.prose import unexplained
from tests.strategies import sentences
from topics.dropout import figures as dfig
from topics.dropout import sampling, text, view
from topics.dropout.sampling import GENERATORS, DropoutStats, Generator
from topics.dropout.view import Settings
from ui import format as fmt
from ui.cell import TOP
from ui.cell_text import Panel

PAGE = "topics/dropout/page.py"
TITLE = "**One cell, step by step"


def softmax_lines(p: Panel) -> tuple[str, ...]:
    """The panel's steps through the causal softmax: the weight before dropout."""
    return p.weight[:-3]


def dropout_lines(p: Panel) -> tuple[str, str, str, str]:
    """Its dropout steps (the mask's bit, the factor, their product), then the context's note."""
    mask, scaled, product = p.weight[-3:]
    context = p.notes[0]  # then, for the default cell, which rule picked it
    return mask, scaled, product, context


def test_the_default_cell_is_the_key_the_focus_note_names_and_says_so():
    """Issue 46: the note ranked the draw's weights while the panel took the largest weight before
    dropout (step → Your, a weight this draw sets to 0.0000). One rule now: this draw's."""
    v = view.build(Settings(focus=5))
    assert v.cell is not None and v.focus is not None and v.cell_key is not None
    drawn = v.first[5]
    assert drawn[v.cell_key] == drawn.max() > 0 and int(np.argmax(v.weights[5])) != v.cell_key
    assert f"*{v.labels[v.cell_key]}*" in v.focus.most.split("(")[0]  # the first key the note names
    assert v.cell.notes[-1] == text.default_cell_note(True)
    picked = view.build(Settings(focus=5, cell=0))
    assert picked.cell_key == 0 and picked.cell is not None and len(picked.cell.notes) == 1  # no rule
    assert view.build(Settings()).cell is None and view.build(Settings(cell=3)).cell is None  # no focus


def test_a_row_the_draw_drops_whole_takes_the_largest_weight_before_dropout():
    s = next(
        Settings(focus=i, p=0.9)
        for i in range(1, 6)
        if not view.build(Settings(focus=i, p=0.9)).first[i].any()
    )
    v = view.build(s)
    assert s.focus is not None and v.cell is not None
    assert v.cell_key == int(np.argmax(v.weights[s.focus])) and v.cell.notes[-1] == text.default_cell_note(
        False
    )


def test_the_books_draw_keeps_starts_to_your_and_doubles_it():
    # The book's printed run: row 3 is [0.7599, 0.6194, 0.6206, 0, 0, 0], its weight 0.3800 doubled.
    v = view.build(Settings(generator="torch", focus=2, cell=0))
    p = v.cell
    assert p is not None and p.heading == "starts → Your"
    assert p.products.rows == (("1", "0.8960", "0.3147", "0.2820"), ("2", "-0.4419", "-0.4016", "0.1775"))
    assert p.score == "ω = 0.2820 + 0.1775 = **0.4594**"
    assert softmax_lines(p) == (
        "Divided by √d_k = √2 = 1.4142: ≈ 0.3249",
        "exp(0.3249) = 1.3839",
        "The row's denominator, Σ exp over its keys: 3.642",
        "a_starts,Your = 1.3839 / 3.642 = **0.3800**",  # the book's masked row 3: [0.3800, 0.3097, 0.3103]
    )
    assert [r[1] for r in p.terms.rows] == ["0.7599", "0.6194", "0.6206", "0.0000", "0.0000", "0.0000"]
    assert p.terms.rows[3][3] == "0 (weight 0)"  # a dropped term, printed plainly
    assert p.context == f"z_starts = **{fmt.short_vec(v.first[2] @ v_values())}**"
    mask, factor, product, context = dropout_lines(p)
    assert "(PyTorch, seed 123): the keep mask is **1** at starts → Your, so this weight is kept" in mask
    assert "1 − p = 0.5" in mask
    assert factor.startswith("Survivors are multiplied by 1/(1 − p) = 1/0.5 = 2,")
    assert (
        product
        == "The weight this draw uses: 0.37997 × 1 × 2 = **0.7599**, the cell of the heatmap after dropout."
    )
    assert context.startswith("The context vector above sums this draw's weights")
    assert fmt.short_vec(v.weights[2] @ v_values()) in context  # before dropout


def v_values() -> np.ndarray:
    """The book's value vectors (sa_v2, seed 789)."""
    return masking.causal_attention(tokens.inputs(), view.build(Settings()).weight_set).values


def test_row_two_of_the_books_draw_is_dropped_whole_and_the_panel_says_how_often():
    v = view.build(Settings(generator="torch", focus=1, cell=0))
    p = v.cell
    assert p is not None and softmax_lines(p)[-1] == "a_journey,Your = 1.3899 / 2.5195 = **0.5517**"
    mask, _, product, context = dropout_lines(p)
    assert "the keep mask is **0** at journey → Your, so this weight is dropped" in mask
    assert product.startswith("The weight this draw uses: 0.5517 × 0 × 2 = **0.0000**")
    assert p.context == "z_journey = **[0.0000, 0.0000] (the zero vector)**"
    measured = v.zero_rate_text[1]
    assert context == (
        "Every weight of row 2 was dropped in this draw, so z_journey is the zero vector: a row of 2 live "
        f"weights dies whole on a share p² = 25% of draws (measured over 10,000 draws: {measured})."
    )
    assert measured.endswith("% ± 0.4%")  # the page's standard-error rule (topics.dropout.uncertainty)


def test_a_future_cell_is_zero_before_dropout_whatever_its_mask_bit():
    v = view.build(Settings(generator="torch", focus=1, cell=3))
    p = v.cell
    assert p is not None and bool(v.first_keep[1, 3])  # the book's mask keeps this future cell
    (masked,) = softmax_lines(p)
    assert "−∞" in masked and "exactly **0**" in masked
    mask, _, product, _ = dropout_lines(p)
    assert "the keep mask is **1** at journey → with. Dropout draws a bit for every cell" in mask
    assert product == (
        "Dropout comes after the softmax, so this future cell is already exactly 0: 0.0000 × 1 × 2 = "
        "**0.0000**, whatever the mask says."
    )


def test_scaling_off_has_no_factor_and_p_zero_keeps_everything():
    v = view.build(Settings(scale=False, focus=2, cell=1))
    p = v.cell
    assert p is not None and v.first_keep[2, 1]
    _, scaled, product, _ = dropout_lines(p)
    assert scaled == (
        "Scaling is off: a survivor keeps its value, with no factor, so over many draws a weight averages "
        "only 1 − p = 0.5 of its value."
    )
    assert product.startswith("The weight this draw uses: 0.3097 × 1 = **0.3097**")
    v = view.build(Settings(p=0.0, focus=3, cell=1))
    assert v.cell is not None and v.first_keep.all()
    assert (
        dropout_lines(v.cell)[0]
        == "Dropout, this draw: at p = 0 nothing is dropped, so the keep mask is **1** at with → journey."
    )
    assert dropout_lines(v.cell)[1] == "Survivors are multiplied by 1/(1 − p) = 1/1 = 1."


# ---- the page ----------------------------------------------------------------------------------


def test_a_cell_link_draws_the_views_panel_and_marks_the_cell_in_both_heatmaps():
    at = open_page(PAGE, {"generator": "PyTorch", "drop_focus": "journey", "drop_cell": "Your"})
    assert_clean(at)
    assert widget(at, "drop_focus").value == 1 and widget(at, "drop_cell").value == 0
    v = view.build(Settings(generator="torch", focus=1, cell=0))
    assert v.cell is not None
    shown = panel_text(at)
    for line in (v.cell.heading, v.cell.score, *v.cell.weight, v.cell.context, *v.cell.notes):
        assert line in shown, line
    assert "| ▸ Your | 0.0000 | [-0.0872, 0.0286] | 0 (weight 0) |" in shown
    before, dropped = (json.loads(c.proto.spec) for c in charts(at)[:2])
    for fig in (before, dropped):
        cells = [s for s in fig["layout"]["shapes"] if s.get("xref", "x") == "x" and s["x1"] - s["x0"] == 1]
        assert {(s["x0"], s["y0"]) for s in cells} == {(-0.5, 0.5)}  # journey → Your, outlined
        assert fig["layout"]["yaxis"]["ticktext"][1] == "▸ journey"


def test_a_focus_alone_takes_its_largest_weight_and_no_focus_shows_no_panel():
    at = open_page(PAGE, {"drop_focus": "step"})
    assert_clean(at)
    v = view.build(Settings(focus=5))
    assert v.cell is not None and v.cell.heading in panel_text(at)
    assert widget(at, "drop_cell").value == TOP
    bare = open_page(PAGE, {"drop_cell": "one"})  # a key without a query: nothing to work out
    assert_clean(bare)
    assert not any(m.value.startswith(TITLE) for m in bare.markdown)


@pytest.mark.parametrize("junk", ["", "nan", "-1", "7", "Your Your", "🙂" * 50, "x" * 10_000])
def test_a_garbage_cell_falls_back_to_the_largest_weight(junk):
    at = open_page(PAGE, {"drop_focus": "starts", "drop_cell": junk})
    assert_clean(at)
    assert widget(at, "drop_cell").value == TOP
    assert metrics(at) == {r.label: r.value for r in view.build(Settings()).readouts}


def _marker_point(i: int, j: int | None) -> dict:
    """The point a click on the dropped figure reports: a weight's marker (``j``), or a row sum's."""
    v = view.build(Settings(draws=1_000))
    fig = dfig.dropped_heatmap(v.first, v.row_sums, v.labels).to_dict()
    weights, sums = (t for t in fig["data"] if t["type"] == "scatter")
    trace, index = (weights, i * len(v.labels) + j) if j is not None else (sums, i)
    return {"customdata": list(trace["customdata"][index])}


def test_a_click_on_a_weight_picks_its_query_and_key():
    at = AppTest.from_function(
        clicked, args=("fig04_dropped", "drop_focus", "drop_cell", _marker_point(4, 3), False, 2)
    ).run()
    assert at.selectbox(key="drop_focus").value == 4 and at.selectbox(key="drop_cell").value == 3


def test_a_click_on_a_row_sum_picks_its_query_and_its_largest_weight():
    at = AppTest.from_function(
        clicked, args=("fig04_dropped", "drop_focus", "drop_cell", _marker_point(3, None), False, 2)
    ).run()
    assert at.selectbox(key="drop_focus").value == 3 and at.selectbox(key="drop_cell").value == TOP


# ---- every legal setting -----------------------------------------------------------------------

_runs: dict[tuple[object, ...], DropoutStats] = {}


def cheap_run(
    p: float, scale: bool, seed: int, draws: int, generator: Generator, x: np.ndarray
) -> DropoutStats:
    """``view.monte_carlo`` at 1,000 draws at most, cached: the panel reads the first draw (the same at
    any draw count) and one row's zero share, whatever the count."""
    key = (p, scale, seed, min(draws, 1_000), generator, x.shape, x.tobytes())
    if key not in _runs:
        _runs[key] = view.monte_carlo(p, scale, seed, min(draws, 1_000), generator, x)
    return _runs[key]


@st.composite
def cell_settings(draw: st.DrawFn) -> Settings:
    s: Sentence = draw(sentences())
    n = len(s.labels)
    return Settings(
        labels=s.labels,
        x=s.embeddings,
        p=draw(st.sampled_from([0.05 * i for i in range(19)])),  # the slider's values, float noise and all
        scale=draw(st.booleans()),
        generator=draw(st.sampled_from(GENERATORS)),
        seed=draw(st.integers(0, view.SEED_MAX)),
        draws=1_000,
        focus=draw(st.integers(0, n - 1)),
        cell=draw(st.none() | st.integers(0, n - 1)),
    )


@settings(max_examples=80, deadline=None)
@given(cell_settings())
def test_the_panels_numbers_are_the_pages_matrices(s):
    v = view.build(s, run=cheap_run)
    p, i, j = v.cell, s.focus, v.cell_key
    assert p is not None and i is not None and j is not None
    if s.cell is not None:
        assert j == s.cell
    elif v.first[i].any():  # this draw's largest weight as printed, the first the focus note names
        top = fmt.num(v.first[i].max())
        assert next(k for k in range(len(s.labels)) if fmt.num(v.first[i, k]) == top) == j
        named = f"*{fmt.md(s.labels[j])}*"
        assert v.focus is not None and ("alike" in v.focus.most or named in v.focus.most)
    else:
        assert j == int(np.argmax(v.weights[i]))
    tr = masking.causal_attention(np.asarray(s.x, dtype=np.float64), v.weight_set)
    np.testing.assert_allclose(tr.weights, v.weights, rtol=0, atol=0)  # the matrix on screen
    # The score, from the page's Q and K
    d = tr.queries.shape[1]
    if d <= 16:
        assert [r[1:3] for r in p.products.rows] == [
            (fmt.num(tr.queries[i, k]), fmt.num(tr.keys[j, k])) for k in range(d)
        ]
    assert f"**{fmt.num(tr.queries[i] @ tr.keys[j])}**" in p.score
    # The weight before dropout: the left heatmap's cell; a future key's is −∞, then exactly 0
    if j > i:
        assert v.weights[i, j] == 0.0 and "−∞" in p.weight[0] and "exactly **0**" in p.weight[0]
    else:
        assert softmax_lines(p)[-1].endswith(
            (f"= **{fmt.num(v.weights[i, j])}**", f"≈ **{fmt.num(v.weights[i, j])}**")
        )
    # This draw: the keep bit and the factor give the right heatmap's cell
    n = len(v.labels)
    np.testing.assert_array_equal(v.first_keep, sampling.keep_masks(s.seed, 1, n, s.p, s.generator)[0])
    kept = bool(v.first_keep[i, j])
    assert v.first[i, j] == pytest.approx(v.weights[i, j] * kept * v.survivor_factor, rel=1e-12, abs=0)
    mask, scaled, product, context = dropout_lines(p)
    assert f"**{int(kept)}**" in mask and (v.p > 0 or kept)
    assert product.split(" = ")[-1].startswith(f"**{fmt.num(v.first[i, j])}**")
    assert product.count(" × ") == (2 if v.scale else 1) and ("Scaling is off" in scaled) == (not v.scale)
    if v.scale:
        assert f" × {v.factor:.4g} = " in product
    # The context vector from the dropped weights, term by term
    after = v.first[i] @ tr.values
    assert p.context.endswith(f"**{fmt.short_vec(after)}**")
    names = [fmt.md(t) for t in v.labels]
    for row in p.terms.rows:  # a repeated word names several keys: its weight is one of theirs
        keys = [k for k, t in enumerate(names) if t == row[0].removeprefix("▸ ")]
        assert row[1] in {fmt.num(v.first[i, k]) for k in keys}
    dead = not v.first[i].any()
    assert ("dropped in this draw, so" in context) == dead
    # Every number the dropout lines state is one of the view's, formatted as the page formats it
    pool = [
        fmt.num(v.weights[i, j]), fmt.num(v.first[i, j]), str(int(kept)), f"{v.keep:g}", f"{v.factor:.4g}",
        text.worked_factor(v.keep, v.factor), str(s.seed), str(i + 1), f"{v.draws:,}",
        v.zero_rate_text[i], v.zero_theory_text[i], fmt.short_vec(v.weights[i] @ tr.values),
    ]  # fmt: skip
    shown_factor = float(f"{v.factor:.4g}") if s.scale else 1.0
    pool.append(view.operand(v.weights[i, j], int(kept) * shown_factor, v.first[i, j]))
    for note in dropout_lines(p):
        assert not unexplained(note, pool, ("0", "1")), (note, unexplained(note, pool, ("0", "1")))


def test_the_product_line_prints_the_softmax_weight_to_the_digits_its_product_needs():
    from topics.dropout.view import operand

    assert operand(0.379953, 2.0, 0.759906) == "0.37995"  # 0.3800 × 2 would read 0.7600
    assert operand(0.25, 2.0, 0.5) == "0.2500"
    assert operand(0.3, 0.0, 0.0) == "0.3000"
