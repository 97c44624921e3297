"""One cell of one head, step by step (issue #22): the Multi-head page's panel, its three URL keys
(``mh_focus``, ``mh_cell``, ``mh_head``), the click that sets them, and the per-head heatmaps.

The panel's numbers are held to the page's own matrices: the weights its heatmaps draw (the view's
run) and, for the context vector, the forward pass of ``core.multihead`` (the split class's
context before ``out_proj``; the wrapper's output columns).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core import multihead as mh
from core import sentence as sent
from tests.app.conftest import assert_clean, charts, open_page, panel_text, widget
from topics.multihead import figures as mf
from topics.multihead import view
from ui import figures
from ui import format as fmt

PAGE = "topics/multihead/page.py"
KEYS = ("mh_focus", "mh_cell", "mh_head")


def cell_of(
    focus: int | None, cell: int | None = None, head: int = 0, **settings: object
) -> tuple[view.Settings, view.View, view.Focused]:
    """The view of ``view.Settings(**settings)`` and what the focus, the cell and the head add."""
    s = view.Settings(**settings)  # type: ignore[arg-type]
    v = view.build(s)
    return s, v, view.focused(s, v, focus, cell, head)


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def _vector(text: str) -> np.ndarray:
    return np.array(_numbers(text.split("=", 1)[1]))


def _heads_output(s: view.Settings) -> np.ndarray:
    """The first batch item's heads before out_proj [n, H·head width], from core's forward."""
    cfg = s.config
    params = mh.init_params(s.kind, cfg, s.seed)
    return mh.forward(sent.example_batch(s.x, s.d_in), params).heads_output[0]


def test_the_default_settings_work_out_a_cell_of_head_1_with_the_heatmaps_numbers():
    s, v, f = cell_of(3)  # "with", its largest weight, head 1 of the book's toy split class
    assert v.run is not None and v.run.weights is not None and f.cell is not None and f.key is not None
    row = v.run.weights[0, 3]
    assert f.head == 0 and f.key == int(np.argmax(row))
    p = f.cell
    assert p.heading == f"head 1, with → {s.labels[f.key]}"
    assert p.weight[-1].endswith((f"= **{fmt.num(row[f.key])}**", f"≈ **{fmt.num(row[f.key])}**"))
    assert [r[1] for r in p.terms.rows] == [fmt.num(w) for w in row]  # the heatmap's row, key by key
    np.testing.assert_allclose(_vector(p.context), _heads_output(s)[3, 0:1], atol=5e-5)
    assert "Divided by √head_dim = √1 = 1.0000" in p.weight[0]
    stripe, divisor, mask, context = p.notes
    assert "Head 1 of 2" in stripe and "column 1 of W_q and W_k (3 × 2; `[:, 0:1]` in code)" in stripe
    assert "√head_dim = √1" in divisor and "not d_out = 2" in divisor
    assert "Query 4, *with*, sees keys 1 to 4 of 6" in mask
    assert "before `out_proj`" in context and "column 1 of the merged `context_vec`" in context


def test_a_future_key_is_masked_to_exactly_zero():
    _, v, f = cell_of(1, 2)  # journey → starts: starts comes later
    assert f.cell is not None and v.run is not None and v.run.weights is not None
    assert v.run.weights[0, 1, 2] == 0.0
    (line,) = f.cell.weight
    assert "causal mask sets this score to −∞" in line and "exactly **0**" in line
    assert f.cell.terms.rows[2][:2] == ("▸ starts", "0.0000")
    assert "Query 2, *journey*, sees keys 1 to 2 of 6" in f.cell.notes[2]


def test_the_first_query_sees_only_itself():
    _, _, f = cell_of(0)
    assert f.cell is not None and "sees only key 1, itself" in f.cell.notes[2]


def test_head_2_of_the_split_class_reads_columns_5_to_8_and_divides_by_the_root_of_head_dim():
    s, v, f = cell_of(3, 1, 1, preset="Custom", d_out=8)
    assert f.cell is not None and v.run is not None and v.run.weights is not None
    p = f.cell
    assert p.heading == "head 2, with → journey"
    assert "x_with W_q[:, 4:8]" in p.score_intro and "x_journey W_k[:, 4:8]" in p.score_intro
    assert "Divided by √head_dim = √4 = 2.0000" in p.weight[0]
    assert p.weight[-1].endswith(f"**{fmt.num(v.run.weights[1, 3, 1])}**")
    # q is the stripe of the W_q the page draws: x_with · W_q[:, 4:8]
    assert v.run.w_query is not None
    q = s.x[3] @ v.run.w_query.cells[:, 4:8].astype(np.float64)
    assert [r[1] for r in p.products.rows] == [fmt.num(x) for x in q]
    np.testing.assert_allclose(_vector(p.context), _heads_output(s)[3, 4:8], atol=5e-5)
    stripe, divisor, _, context = p.notes
    assert "Head 2 of 2" in stripe and "columns 5–8 of W_q and W_k (3 × 8; `[:, 4:8]` in code)" in stripe
    assert "`.view(b, num_tokens, 2, 4)`" in stripe and "`.transpose(1, 2)`" in stripe
    assert "√head_dim = √4" in divisor and "not d_out = 8" in divisor
    assert "columns 5–8 of the merged `context_vec`" in context and "every head's columns" in context


def test_the_wrappers_head_is_its_own_module_and_its_z_is_its_output_columns():
    _, v, f = cell_of(5, 2, 2, preset="Custom", kind="wrapper", heads=3, d_out=4)
    assert f.cell is not None and v.run is not None and v.run.output is not None
    p = f.cell
    assert p.heading == "head 3, step → starts"
    assert "Divided by √d_out = √4 = 2.0000" in p.weight[0]
    np.testing.assert_allclose(_vector(p.context), v.run.output.cells[5, 8:12], atol=5e-5)
    stripe, divisor, _, context = p.notes
    assert "`CausalAttention` number 3" in stripe and "its columns 9–12" in stripe
    assert "√d_out = √4" in divisor
    assert "no `out_proj`" in context and "columns 9–12 of the output's row for *step*" in context


@pytest.mark.parametrize("kind", mh.KINDS)
def test_one_head_has_no_stripes_to_pick_from(kind):
    _, _, f = cell_of(2, preset="Custom", kind=kind, heads=1, d_out=4)
    assert f.cell is not None
    assert f.cell.notes[0].startswith("One head")
    assert "Head 1 of" not in " ".join(f.cell.notes)


def test_a_head_the_class_lacks_means_head_1_and_no_focus_means_no_panel():
    assert cell_of(2, head=5)[2].head == 0
    f = cell_of(None)[2]
    assert f.cell is None and f.key is None and f.context is None
    assert cell_of(2, preset="Custom", d_out=3)[2].cell is None  # cannot split


def test_a_link_with_the_three_cell_keys_shows_that_heads_cell():
    at = open_page(
        PAGE, {"preset": "Custom", "d_out": "8", "mh_focus": "with", "mh_cell": "journey", "mh_head": "2"}
    )
    assert_clean(at)
    assert (widget(at, "mh_focus").value, widget(at, "mh_cell").value, widget(at, "mh_head").value) == (
        3,
        1,
        1,
    )
    f = cell_of(3, 1, 1, preset="Custom", d_out=8)[2]
    assert f.cell is not None
    shown = panel_text(at)
    for line in (
        f"**One cell, step by step: {f.cell.heading}**",
        f.cell.score,
        *f.cell.weight,
        f.cell.context,
    ):
        assert line in shown, line
    for note in f.cell.notes:
        assert note in shown, note
    # Every head's heatmap is clickable; W_q's stripes and the output are not token heatmaps.
    drawn = charts(at)
    assert [c.proto.head["pick"] for c in drawn] == [False, True, True, False]
    tiles = [
        {d[0] for t in json.loads(c.proto.spec)["data"] if "customdata" in t for d in t["customdata"]}
        for c in drawn[1:3]
    ]
    assert tiles == [{0}, {1}]


GARBAGE = ["", "nan", "-1", "0", "99", "1e999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_the_cell_keys_renders_the_default_view(junk):
    at = open_page(PAGE, dict.fromkeys(KEYS, junk))
    assert_clean(at)
    assert widget(at, "mh_focus").value == -1 and widget(at, "mh_cell").value == -1
    assert widget(at, "mh_head").value == 0
    assert not any(m.value.startswith("**One cell") for m in at.markdown)


def test_a_head_the_class_lacks_in_a_link_falls_back_to_head_1():
    at = open_page(PAGE, {"mh_focus": "with", "mh_head": "5"})  # two heads
    assert_clean(at)
    assert widget(at, "mh_head").value == 0
    assert "**One cell, step by step: head 1, with →" in panel_text(at)


def _clicked(head: int, point: dict) -> None:
    """The page's cell controls under a head heatmap that reports ``point`` as clicked."""
    import streamlit as st

    from topics.multihead import pick
    from ui import cell as cell_ui
    from ui.focus import focus_control

    labels = ("Your", "journey", "starts", "with")
    st.session_state[pick.chart_key(head)] = {"click": point.get("customdata")}
    if not st.session_state.get("done"):
        st.session_state["done"] = True
        pick.picker(head)()
    focus_control(labels, key=pick.FOCUS)
    cell_ui.cell_control(labels, key=pick.CELL)
    pick.head_control(3)


def test_a_click_on_a_heads_cell_sets_the_query_the_key_and_the_head():
    at = AppTest.from_function(_clicked, args=(2, {"customdata": [2, 3, 1]})).run()
    assert_clean(at)
    assert (widget(at, "mh_focus").value, widget(at, "mh_cell").value, widget(at, "mh_head").value) == (
        3,
        1,
        2,
    )
    at = AppTest.from_function(_clicked, args=(1, {"x": "journey"})).run()  # a click that cleared it
    assert (widget(at, "mh_focus").value, widget(at, "mh_cell").value, widget(at, "mh_head").value) == (
        -1,
        -1,
        0,
    )


def _texts(fig) -> list[str]:
    return [a["text"] for a in figures.cell_notes(fig.to_dict())]


def test_every_heads_heatmap_is_legible_and_only_the_chosen_head_outlines_the_cell():
    w = view.build(view.Settings(preset="Custom", heads=4, d_out=8)).run
    assert w is not None and w.weights is not None
    labels = view.Settings().labels
    maps = mf.head_heatmaps(w.weights, labels, focus=3, cell=1, head=2)
    assert len(maps) == 4
    for h, fig in enumerate(maps):
        marks = {d[0] for t in fig.data if t.customdata is not None for d in t.customdata}
        assert marks == {h}  # a click says which head
        assert _texts(fig) == [fmt.num(x) for x in w.weights[h].ravel()]  # every cell printed, 4 decimals
        cells = [s for s in fig.layout.shapes if s.x1 - s.x0 == 1]
        assert len(cells) == (2 if h == 2 else 0)  # the cell's outline, dark and white
        assert len(fig.layout.shapes) - len(cells) == 2  # the focused row, in every head
        assert fig.layout.title.text.startswith("▸ Head 3") == (h == 2)


def test_past_eight_tokens_a_heads_heatmap_prints_no_values_and_keeps_a_colour_bar():
    labels = tuple(f"t{i}" for i in range(9))
    w = np.full((2, 9, 9), 1 / 9)
    for fig in mf.head_heatmaps(w, labels, focus=None, cell=None, head=0):
        assert not figures.cell_notes(fig.to_dict())
        assert any(t.type == "heatmap" and t.showscale for t in fig.data)
