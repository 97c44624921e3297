"""Masking's cell panel (issue #22): one cell worked out the book's way (−∞ on the future, one
softmax), with what the 0 fill and the naive path give the same cell, every number the view's.

The view's panel at the book's defaults and at the settings its lines cover (a future cell, a
visible one, the 0 fill, the stage control, a row the naive path divides 0 by 0); a property test
over the reader's sentences; the page with the URL keys; the click that picks a cell.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from core import weights
from core.cell import EXP_LIMIT
from core.rounding import round_up
from tests.app.conftest import assert_clean, charts, clicked, open_page, widget
from tests.masking.test_masking_properties import settings_
from tests.prose import unexplained
from topics.masking import text, view
from topics.masking.view import Settings, build
from ui import format as fmt
from ui.cell_text import exp_error, exp_text, held, row_errors, sum_text

PAGE = "topics/masking/page.py"
JOURNEY, STARTS = 1, 2
FILL_ZERO = view.FILL_LABELS["zero"]


def _notes(v: view.View) -> str:
    assert v.cell is not None
    return "\n".join(v.cell.notes)


def _panel(v: view.View) -> str:
    """Everything the panel says, in reading order."""
    p = v.cell
    assert p is not None
    table = " ".join(" ".join(r) for r in (*p.products.rows, *p.terms.rows))
    return "\n".join(
        (p.heading, p.score_intro, table, p.score, *p.weight, p.context_intro, p.context, *p.notes)
    )


def test_without_a_focus_there_is_no_panel_and_a_focus_alone_takes_its_largest_weight():
    assert build(Settings()).cell is None and build(Settings(cell=3)).cell is None
    v = build(Settings(focus=JOURNEY))
    assert v.cell_key == 0 and v.cell is not None and v.cell.heading == "journey → Your"  # 0.5517


def test_a_future_cell_is_minus_infinity_then_exactly_zero_and_the_zero_fill_gives_it_a_weight():
    v = build(Settings(focus=JOURNEY, cell=STARTS))
    zero = build(Settings(fill="zero"))
    naive2 = build(Settings(stage=2)).naive.matrix
    assert v.cell is not None and v.cell.heading == "journey → starts"
    assert v.masked[JOURNEY, STARTS] == 0  # exactly
    assert "the weight is exactly **0**" in v.cell.weight[0]
    notes = _notes(v)
    for shown in (
        "Why −∞, then exactly 0: starts is key 3, after journey (query 2)",
        "`masked_fill_` writes −∞ over the score 0.1751",
        "exp(−∞) is exactly 0 in float64",
        "(2.52, summed over the 2 keys journey may see) and its weight is 0 / 2.52 = 0.",
        # The 0 fill: exp(0) = 1 joins the denominator, worked out, not typed.
        "exp(0) = 1.0000. A zero score is not a zero weight: each of the 4 later keys adds 1.0000",
        "the row's denominator goes from 2.52 to 6.52, and this cell gets 1.0000 / 6.52 = **0.1534**",
        # The naive path: the full row's softmax, then tril, then the renormalisation.
        "exp(0.1238) = 1.1318 over 6.81 gives 0.1662 at step 2",
        "Step 3 (tril) sets it to 0, and step 4 divides the row by its visible sum, 0.3700: 0 / 0.3700 = 0.",
        "The difference grid (naive − efficient) reads 0 here: both paths give the same float64 number.",
    ):
        assert shown in notes, shown
    assert fmt.num(zero.masked[JOURNEY, STARTS]) == "0.1534"  # the 0 fill's own matrix
    assert fmt.num(naive2[JOURNEY, STARTS]) == "0.1662"
    assert fmt.num(naive2[JOURNEY, : JOURNEY + 1].sum()) == "0.3700"


def test_the_zero_fills_weights_on_the_first_rows_future_add_up_to_the_posts_0_8029():
    shares = []
    for j in range(1, 6):
        cp = build(Settings(focus=0, cell=j)).cell_paths
        assert cp is not None and cp.future and cp.later == 5
        shares.append(cp.zero_weight)
    assert fmt.num(sum(shares)) == "0.8029" == fmt.num(build(Settings()).future["zero"][0])


def test_a_visible_cell_reads_the_books_weight_on_every_path():
    v = build(Settings(focus=JOURNEY, cell=JOURNEY))  # row 2 is [0.5517, 0.4483]
    assert v.cell is not None
    assert "a_journey,journey = 1.1295 / 2.5195 = **0.4483**" in v.cell.weight
    bound = fmt.sci(round_up(v.limit), 0)
    notes = _notes(v)
    for shown in (
        "journey is key 2, not after journey (query 2), so the mask",
        "the 4 later keys get −∞ and exp(−∞) = 0, so the denominator sums only the 2 keys journey may see",
        "With the 0 fill instead, the 4 later keys each add exp(0) = 1.0000 to the denominator: the row's "
        "denominator goes from 2.5195 to 6.519, and this weight becomes 1.1295 / 6.519 = 0.1733.",
        "0.1659 / 0.3700 ≈ 0.4483, the full-row denominator cancelling",
        f"reads ≈0 here: a difference below {bound}, float64 rounding",
    ):
        assert shown in notes, shown
    assert v.cells[JOURNEY][JOURNEY] == "≈0"
    assert fmt.num(build(Settings(fill="zero")).masked[JOURNEY, JOURNEY]) == "0.1733"


def test_the_stage_and_fill_controls_move_the_panels_lines_with_the_heatmaps():
    v = build(Settings(focus=0, cell=3, stage=2, fill="zero"))
    assert v.cell is not None
    notes = _notes(v)
    assert (
        f"At step 2 of 4 this cell reads {fmt.num(v.naive.matrix[0, 3])} in the naive heatmap "
        "(after “softmax”) and 0.0000 in the efficient one (after “fill the future with 0”)"
    ) in notes
    assert "The efficient heatmap shows the 0 fill, as the controls set it." in notes
    leak = v.cells[0][3]
    assert leak == fmt.num(v.difference[0, 3]) and v.difference[0, 3] < 0
    assert f"(naive − efficient, with the 0 fill) reads {leak} here: the naive path's 0.0000 against" in notes
    assert "At step 2 of 4 this cell reads" in notes and "0.1550" in notes
    sealed = build(Settings(focus=0, cell=3, stage=2))
    assert "and −∞ in the efficient one (after “fill the future with −∞”)" in _notes(sealed)
    last = _notes(build(Settings(focus=5, cell=0)))
    assert "step the last query: nothing comes after it" in last
    assert "With the 0 fill nothing changes in this row: step is the last token" in last


def _extreme(c: float, focus: int, cell: int, fill: view.Fill = "-inf") -> view.View:
    """A 16-wide sentence whose second token outscores the first's own key by hundreds."""
    x = np.array([[c] * 16, [9.99] * 16, [1.0] * 16])
    s = Settings(("a", "b", "c"), x, weights.init_weights(123, "rand"), fill=fill, focus=focus, cell=cell)
    return build(s)


def test_a_row_the_naive_path_divides_zero_by_zero_says_so_and_the_efficient_path_still_works():
    v = _extreme(0.92, 0, 0)
    assert list(v.undefined_rows) == [0] and v.cell_paths is not None
    assert v.cell is not None and "= **1.0000**" in v.cell.weight[-1]
    notes = _notes(v)
    assert "this cell is blank (0/0) in the naive heatmap" in notes
    assert "divides by the row's visible sum, which is 0 here: 0 / 0" in notes
    assert "reads 0/0 here: the naive path divides 0 by 0 in this row." in notes
    shifted = _notes(_extreme(9.99, 0, 1, fill="zero"))  # a visible score of 9002: exp would overflow
    assert (
        "the one key a may see, every exponent shifted by the row's largest, 9002.328, so none overflows"
        in shifted
    )
    assert "the 2 later keys score 0, but here exp(0 − 9002.328) underflows to 0 in float64" in shifted
    assert "this cell's weight is 0 on that path too" in shifted
    thin = _extreme(0.89, 0, 0)  # visible weights subnormal, not 0: the naive path still ends at 1
    assert list(thin.lossy) == [0] and "5.3e-318 / 5.3e-318 = 1.0000" in _notes(thin)
    assert "the row's denominator stays" in _notes(thin)


# --- every number the panel states is the page's, at random legal settings --------------------


@st.composite
def cell_settings(draw: st.DrawFn) -> Settings:
    s = draw(settings_())
    n = len(s.labels)
    return dataclasses.replace(
        s, focus=draw(st.integers(0, n - 1)), cell=draw(st.none() | st.integers(0, n - 1))
    )


def _shift(row: np.ndarray) -> float:
    top = float(np.max(row))
    return top if top > EXP_LIMIT else 0.0


def _same(a: float, b: float) -> bool:
    return bool(np.isclose(a, b, rtol=1e-9, atol=1e-300) or (np.isnan(a) and np.isnan(b)))


CONSTANTS = ("0", "1", "2", "3", "4", "2.2e-308")


@settings(max_examples=40, deadline=None)
@given(cell_settings())
def test_the_panels_numbers_are_the_pages_matrices(s: Settings) -> None:
    v = build(s)
    assert s.focus is not None and v.cell is not None and v.cell_paths is not None
    i, j, cp = s.focus, v.cell_key, v.cell_paths
    assert j is not None and (cp.i, cp.j) == (i, j)
    n = len(s.labels)
    stages = [build(dataclasses.replace(s, stage=k)) for k in range(1, 5)]
    causal = build(dataclasses.replace(s, fill="-inf")).masked
    zero = build(dataclasses.replace(s, fill="zero")).masked
    naive = [b.naive.matrix for b in stages]
    scores = build(dataclasses.replace(s, stage=1, fill="-inf")).efficient.matrix  # Ω
    assert j == (s.cell if s.cell is not None else int(np.argmax(causal[i])))

    # The cell on each path is the cell of the matrix the page draws.
    assert _same(cp.naive_shown, v.naive.matrix[i, j]) and _same(cp.efficient_shown, v.efficient.matrix[i, j])
    assert cp.full_weight == naive[1][i, j] and cp.visible_sum == naive[2][i].sum()
    assert _same(cp.naive_weight, naive[3][i, j]) and cp.zero_weight == zero[i, j]
    assert cp.grid_cell == v.cells[i][j] and _same(cp.difference, v.difference[i, j])
    # The exponentials and denominators it states give those weights.
    assert _same(cp.full_exp / cp.full_denominator, cp.full_weight)
    assert _same(cp.zero_exp / cp.zero_denominator, cp.zero_weight)

    # A future cell is −∞, then exactly 0; the 0 fill's weight is exp(0 − shift) over its denominator.
    future = j > i
    assert cp.future == future and cp.later == n - 1 - i
    assert ("exactly **0**" in v.cell.weight[0]) == future and (not future or causal[i, j] == 0)
    notes = _notes(v)
    assert ("Why −∞, then exactly 0" in notes) == future
    assert ("A zero score is not a zero weight" in notes) == (future and cp.zero_fill_exp > 0)
    if future and cp.zero_fill_exp > 0:
        assert cp.zero_weight > 0 and cp.zero_exp == cp.zero_fill_exp
    assert ("underflows to 0 in float64" in notes) == (cp.later > 0 and cp.zero_fill_exp == 0)
    assert ("which is 0 here: 0 / 0" in notes) == (cp.visible_sum == 0) == bool(np.isnan(naive[3][i]).any())
    assert ("both paths give the same float64 number" in notes) == (v.difference[i, j] == 0)
    assert ("the naive path divides 0 by 0" in notes) == bool(np.isnan(v.difference[i, j]))
    assert ("0 fill, as the controls set it" in notes) == (s.fill == "zero")

    # Every number the panel states is one of these, formatted as the panel formats it.
    scaled = naive[0][i]
    visible = np.arange(n) <= i
    vs = _shift(scaled[visible])
    exps = np.exp(scaled[visible] - vs)
    zero_row = np.where(visible, scaled, 0.0)
    zs, fs = _shift(zero_row), _shift(scaled)
    pool = [fmt.num(x) for x in (scores[i, j], scaled[j], vs, zs, fs, causal[i, j], zero[i, j])]
    pool += [fmt.num(x) for x in (*scores[i], *scaled, *causal[i], *naive[3][i])]
    sums = (exps.sum(), np.exp(zero_row - zs).sum(), np.exp(scaled - fs).sum())
    pool += [sum_text(x) for x in sums]
    # A denominator a printed division needs to more decimals, as many as float32 holds (up to 4).
    pool += [held(x, more, exp_error(x), grouped=True) for x in sums for more in (3, 4)]
    pool += [held(sums[0], more, row_errors(scaled[visible], vs)[1], grouped=True) for more in (3, 4)]
    pool += [exp_text(x) for x in (*exps, np.exp(-zs), *np.exp(zero_row - zs), np.exp(scaled[j] - fs))]
    pool += [text.share_text(x) for x in (zero[i, j], naive[1][i, j], naive[2][i].sum())]
    pool += [text.stage_value(m[i, j]) for m in (v.naive.matrix, v.efficient.matrix)]
    pool += [
        fmt.num(np.sqrt(v.weights.w_key.shape[-1])),
        v.cells[i][j],
        fmt.sci(round_up(v.limit), 0),
        str(n - 1 - i),
        str(i + 1),
        str(j + 1),
        str(s.stage),
    ]
    pool += [fmt.short_vec(v.focus.context)] if v.focus is not None else []
    said = [v.cell.score.split(" = ")[-1], *v.cell.weight, *v.cell.notes, v.cell.context]
    for line in said:
        assert not unexplained(line, pool, CONSTANTS), (line, unexplained(line, pool, CONSTANTS))


# --- the page ------------------------------------------------------------------------------


def _drawn(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def _shapes(at: AppTest, key: str) -> list[dict]:
    (chart,) = [c for c in charts(at) if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)["layout"].get("shapes", [])


def test_a_cell_link_shows_the_views_panel_and_marks_the_cell_on_every_heatmap():
    at = open_page(PAGE, {"mask_focus": "journey", "mask_cell": "starts", "fill": FILL_ZERO})
    assert_clean(at)
    assert widget(at, "mask_focus").value == JOURNEY and widget(at, "mask_cell").value == STARTS
    v = build(Settings(focus=JOURNEY, cell=STARTS, fill="zero"))
    assert v.cell is not None
    drawn = _drawn(at)
    assert "**One cell, step by step: journey → starts**" in drawn
    for line in (v.cell.score, *v.cell.weight, v.cell.context, *v.cell.notes):
        assert line in drawn, line
    for key in ("fig03_naive", "fig03_efficient", "fig03_diff"):
        shapes = _shapes(at, key)
        assert len(shapes) == 4, key  # the row and the cell, each outlined dark and white
        cell = shapes[2]
        assert (cell["x0"], cell["x1"], cell["y0"], cell["y1"]) == (1.5, 2.5, 0.5, 1.5), key


def test_without_a_focus_the_page_says_how_to_pick_a_cell():
    at = open_page(PAGE)
    assert not any(m.value.startswith("**One cell") for m in at.markdown)
    assert any("Click any cell" in c.value for c in at.caption)


@pytest.mark.parametrize("junk", ["", "nan", "-1", "99", "Starts", "🙂" * 50, "x" * 10_000])
def test_a_key_the_sentence_has_not_falls_back_to_the_querys_largest_weight(junk):
    at = open_page(PAGE, {"mask_focus": "journey", "mask_cell": junk})
    assert_clean(at)
    assert widget(at, "mask_cell").value == -1
    assert "**One cell, step by step: journey → Your**" in _drawn(at)


def test_a_click_sets_the_focus_and_the_cell_and_a_cleared_selection_changes_nothing():
    at = AppTest.from_function(
        clicked, args=("fig03_diff", "mask_focus", "mask_cell", {"customdata": [0, 0, 2]})
    ).run()
    assert at.selectbox(key="mask_focus").value == 0 and at.selectbox(key="mask_cell").value == 2
    at = AppTest.from_function(
        clicked, args=("fig03_diff", "mask_focus", "mask_cell", {"x": "journey"})
    ).run()
    assert at.selectbox(key="mask_focus").value == -1 and at.selectbox(key="mask_cell").value == -1
