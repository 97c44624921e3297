"""Every heatmap on every page, read from the Plotly specs the page sends: both axes titled; values in
[0, 1] drawn on the fixed 0–1 scale; signed values centred on 0; a colour bar wherever the cells print
no values. Then the focus control: one query's row picked out in every token heatmap of its page.

The checks are generic over ``ui.pages.PAGES``, so a heatmap added later is held to them too.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core import tokens
from tests.app.conftest import assert_clean, charts, open_page
from tests.app.test_sentence import chart_strings
from topics import PAGES
from ui import colors, figures

IDS = [p.url_path for p in PAGES]
FAST = {"steps": "100"}  # Learning trains three modes on every first run; 100 steps keep it short


def _fast(info) -> dict[str, str]:
    return {k: v for k, v in FAST.items() if k in info.keys}


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in charts(at)]


def values(trace: dict) -> np.ndarray:
    """A heatmap's finite z values, whether Plotly shipped them as a list or a typed array."""
    z = trace["z"]
    if isinstance(z, dict):
        a = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).astype(np.float64)
    else:
        a = np.array([[np.nan if v is None else v for v in row] for row in z], dtype=np.float64)
    return a[np.isfinite(a)]


def heatmaps(at):
    """``(chart title, trace, layout)`` for every heatmap trace on the page."""
    for spec in specs(at):
        lay = spec.get("layout", {})
        title = (lay.get("title") or {}).get("text", "untitled")
        for trace in spec.get("data", []):
            if trace.get("type") == "heatmap":
                yield title, trace, lay


def axis_title(lay: dict, ref: str | None, letter: str) -> str:
    """The title text of the axis a trace is drawn on (``"x2"`` -> ``layout.xaxis2``)."""
    name = f"{letter}axis" + (ref or letter)[1:]
    return ((lay.get(name) or {}).get("title") or {}).get("text", "")


def diverging(trace: dict) -> bool:
    return trace.get("colorscale") == figures.DIVERGING


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_every_heatmap_titles_both_axes_and_uses_an_honest_scale(info):
    at = open_page(info.path, _fast(info))
    assert_clean(at)
    for title, trace, lay in heatmaps(at):
        where = f"{info.url_path}: {title}"
        assert axis_title(lay, trace.get("xaxis"), "x").strip(), f"{where}: x axis untitled"
        assert axis_title(lay, trace.get("yaxis"), "y").strip(), f"{where}: y axis untitled"
        v = values(trace)
        if diverging(trace):
            assert trace["zmin"] == -trace["zmax"] < 0, f"{where}: diverging scale not centred on 0"
            assert np.all(np.abs(v) <= trace["zmax"] + 1e-12), f"{where}: values past the scale"
        else:
            assert v.size == 0 or v.min() >= 0, f"{where}: signed values on a sequential scale"
            if v.size and v.max() <= 1:
                assert (trace.get("zmin"), trace.get("zmax")) == (0, 1), f"{where}: [0, 1] values not on 0–1"


def prints_values(trace: dict, spec: dict) -> bool:
    """Whether a heatmap's cells print their values: as its own text, as the text of a scatter
    trace over it on the same axes (``figures.grid``) or as annotations on its axes."""
    ref = trace.get("xaxis") or "x"
    layers = [
        t for t in spec["data"]
        if "text" in t.get("mode", "").split("+") and any(t.get("text") or [])
        and (t.get("xaxis") or "x") == ref
    ]  # fmt: skip
    notes = spec["layout"].get("annotations", [])
    return "texttemplate" in trace or bool(layers) or any((a.get("xref") or "x") == ref for a in notes)


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_a_heatmap_whose_cells_print_no_values_has_a_colour_bar(info):
    at = open_page(info.path, _fast(info))
    for spec in specs(at):
        maps = [t for t in spec["data"] if t.get("type") == "heatmap"]
        if any(not prints_values(t, spec) for t in maps):
            assert any(t.get("showscale") for t in maps), (spec["layout"].get("title") or {}).get("text")


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_no_chart_shows_the_plotly_toolbar_and_each_is_named_with_its_image_files(info):
    """The toolbar sat over titles and cells (and never hides on a touch screen). Every chart, a
    3-D scene too, gets its PNG and SVG from its own element's buttons (``ui.chart``), named after
    the chart; a scene is named as a figure, the rest as images."""
    at = open_page(info.path, _fast(info))
    for chart in charts(at):
        head = chart.proto.head
        assert head["config"].get("displayModeBar") is False
        assert chart.proto.alt.strip() and head["file"] == figures.slug(chart.proto.alt)
        scene = any(t.get("type") == "scatter3d" for t in json.loads(chart.proto.spec)["data"])
        assert head["scene"] is scene
        assert head["height"] == json.loads(chart.proto.spec)["layout"]["height"]


# The focus control of each page: "focus" on Three matrices, page-prefixed keys elsewhere, and on
# Recap the query control it already had.
FOCUS = {p.url_path: k for p in PAGES for k in p.keys if k == "focus" or k.endswith("_focus")}
FOCUS["recap"] = "query"


def row_labels(trace: dict, lay: dict) -> list[str]:
    """A heatmap's row labels: its categories, or the tick text of a tiled figure (focus mark removed)."""
    if "y" in trace:
        return [str(y).replace("\u200b", "") for y in trace["y"]]
    ticks = (lay.get(f"yaxis{(trace.get('yaxis') or 'y')[1:]}") or {}).get("ticktext", [])
    return [str(t).removeprefix("▸ ") for t in ticks]


def token_heatmaps(at):
    """``(labels, layout)`` for every heatmap whose rows are the six tokens, in any order."""
    for spec in specs(at):
        for trace in spec["data"]:
            labels = row_labels(trace, spec["layout"])
            if trace.get("type") == "heatmap" and set(labels) == set(tokens.TOKENS):
                yield labels, spec["layout"]
                break


# The Overview's heatmap is a preview of Three matrices' weights, whose focus it links to: the start
# page has no controls but the sentence (and a focus key of its own would be one more to share).
# Read along's steps each outline the row their question is about and link to the topic's page,
# where the focus is a control: a focus of the reader's own would move the outline off the question.
PREVIEWS = {"overview", "read-along"}


def test_every_page_with_token_heatmaps_declares_a_focus_control():
    pages = {info.url_path for info in PAGES if any(token_heatmaps(open_page(info.path, _fast(info))))}
    assert pages >= PREVIEWS, "a preview that draws no token heatmap needs no exemption"
    assert pages - PREVIEWS <= set(FOCUS), pages - PREVIEWS - set(FOCUS)


def outlined_rows(lay: dict) -> list[tuple[float, float]]:
    """The y extent of every focus outline in a layout."""
    return [
        (s["y0"], s["y1"])
        for s in lay.get("shapes", [])
        if s.get("type") == "rect" and (s.get("line") or {}).get("color") == figures.FOCUS
    ]


@pytest.mark.parametrize("url_path", sorted(FOCUS), ids=sorted(FOCUS))
def test_focus_picks_out_one_query_row_in_every_token_heatmap_and_names_its_context_vector(url_path):
    info = next(p for p in PAGES if p.url_path == url_path)
    at = open_page(info.path, {**_fast(info), FOCUS[url_path]: "starts"})
    assert_clean(at)
    maps = list(token_heatmaps(at))
    assert maps
    for labels, lay in maps:
        n, row = len(set(labels)), labels.index("starts")  # tiled figures repeat the labels per tile
        outlines = outlined_rows(lay)
        assert outlines, f"{url_path}: {(lay.get('title') or {}).get('text')} has no focus outline"
        assert all(y1 - y0 == 1 and (y0 + 0.5) % (n + 1) == row for y0, y1 in outlines), outlines
    text = " ".join(m.value for m in at.markdown) + " ".join(m.label for m in at.metric)
    assert "starts" in text and "context vector" in text.lower()


@pytest.mark.parametrize("url_path", sorted(set(FOCUS) - {"recap"}))
def test_no_focus_by_default_and_a_junk_focus_is_no_focus(url_path):
    info = next(p for p in PAGES if p.url_path == url_path)
    for query in ({}, {FOCUS[url_path]: "no such token"}):
        at = open_page(info.path, {**_fast(info), **query})
        assert_clean(at)
        assert all(not outlined_rows(spec["layout"]) for spec in specs(at)), query
        assert not any(m.value.startswith("**Focus:") for m in at.markdown)


@pytest.mark.parametrize("url_path", sorted(set(FOCUS) - {"recap"}))
def test_focus_follows_the_readers_sentence_and_keeps_its_tokens_as_text(url_path):
    """The focus names a token of the reader's sentence, markup included, and never renders it."""
    info = next(p for p in PAGES if p.url_path == url_path)
    hostile = "<b>x</b>"
    at = open_page(
        info.path, {**_fast(info), "text": f"{hostile} cat sat on the mat", FOCUS[url_path]: hostile}
    )
    assert_clean(at)
    assert any(outlined_rows(spec["layout"]) for spec in specs(at)), "no heatmap picks out the focus"
    notes = [m.value for m in at.markdown if m.value.startswith("**Focus:")]
    assert notes and all("\\<b\\>x" in n for n in notes), notes  # escaped: shown as typed
    shown = chart_strings(at)
    assert any("&lt;b&gt;x" in s for s in shown) and not any("<b>" in s for s in shown)


# --- The builders themselves, for any token labels and any n up to 32 ---------------------------

SENTENCE = [f"w{i}" for i in range(30)] + ["the", "the"]  # 32 tokens, two labels alike


@pytest.mark.parametrize("n", [1, 6, 8, 9, 16, 32])
def test_a_heatmap_of_any_size_stays_readable(n):
    labels = SENTENCE[-n:]
    w = np.full((n, n), 1.0 / n)
    spec = figures.heatmap(w, labels, labels, focus=n - 1).to_plotly_json()
    trace, *others = spec["data"]
    lay = spec["layout"]
    assert len(set(trace["y"])) == n, "two equal labels merged into one row"
    assert (trace["zmin"], trace["zmax"]) == (0, 1)
    assert prints_values(trace, spec) == (n <= figures.TEXT_MAX)
    assert len(figures.cell_notes(spec)) == (n * n if n <= figures.TEXT_MAX else 0)
    assert trace["showscale"] == (n > figures.TEXT_MAX)
    assert lay["height"] >= 15 * n
    assert lay["xaxis"]["tickfont"]["size"] >= 9 and lay["yaxis"]["tickfont"]["size"] >= 9
    assert outlined_rows(lay) == [(n - 1.5, n - 0.5)]
    (picker,) = [t for t in others if t["type"] == "scatter"]
    assert len(picker["customdata"]) == n * n and picker["customdata"][-1] == [0, n - 1, n - 1]


def test_the_scale_never_stretches_to_the_data():
    near_uniform = np.array([[0.10, 0.24], [0.16, 0.18]])
    assert figures.value_range(near_uniform)[:2] == (0.0, 1.0)
    signed = np.array([[-0.2, 0.5], [0.1, 0.0]])
    assert figures.value_range(signed) == (-0.5, 0.5, True)
    big = np.array([[0.3, 1.5], [0.9, 1.0]])
    assert figures.value_range(big) == (0.0, 1.5, False)


def test_log_ticks_write_one_format():
    # Two decades: 1, 2, 3 and 5 of each, plainly (ticks past the axis range are left out by Plotly).
    assert figures.log_ticks(0.2, 2)["ticktext"] == ["0.1", "0.2", "0.3", "0.5", "1", "2", "3"]
    wide = figures.log_ticks(1e-12, 2)
    assert all(t == "1" or t.startswith("10") for t in wide["ticktext"])
    assert figures.log_ticks(1, 1e6, counts=True)["ticktext"][-1] == "1M"
    # A range inside one gap (a loss from 2.37 to 2.63 lies between the ticks 2 and 3) still gets
    # at least two labels inside it, written to the digits that tell them apart.
    assert figures.log_ticks(2.37, 2.63)["ticktext"] == ["2.4", "2.5", "2.6"]
    assert figures.log_ticks(0.0098, 0.0102)["ticktext"] == ["0.0098", "0.0100", "0.0102"]
    for low, high in ((2.37, 2.63), (1.001, 1.002), (0.31, 0.39), (7e-5, 9e-5)):
        ticks = figures.log_ticks(low, high)
        assert sum(low <= v <= high for v in ticks["tickvals"]) >= 2, (low, high, ticks)
        assert len(set(ticks["ticktext"])) == len(ticks["ticktext"])


def test_focus_fades_the_other_rows_through_their_fills_and_every_cells_text_reads_at_the_margin():
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(6, 6)) * 2
    for matrix, div in ((np.abs(scores) / np.abs(scores).max(), False), (scores, True)):
        spec = figures.heatmap(matrix, tokens.TOKENS, tokens.TOKENS, diverging=div, focus=2, cell=4)
        spec = spec.to_plotly_json()
        main, dim = spec["data"][:2]
        assert [row is not None and any(v is not None for v in row) for row in main["z"]] == [
            i == 2 for i in range(6)
        ]
        assert dim["colorscale"] == colors.dim_scale(main["colorscale"])
        assert not any(s.get("fillcolor") for s in spec["layout"]["shapes"])  # no veil over text
        lo, hi = main["zmin"], main["zmax"]
        for note in figures.cell_notes(spec):
            i, j = int(note["y"]), int(note["x"])  # placed by position
            fill = colors.fills(matrix[i, j], main["colorscale"] if i == 2 else dim["colorscale"], lo, hi)
            assert colors.contrast(fill, np.array(colors.parse(note["color"]))) >= colors.MARGIN
        cell = [s for s in spec["layout"]["shapes"] if s["x1"] - s["x0"] == 1]
        assert {(s["x0"], s["y0"]) for s in cell} == {(3.5, 1.5)}  # the chosen cell, outlined


def test_a_click_on_a_cell_reads_back_as_its_tile_row_and_column():
    """What the chart element keeps in ``st.session_state[key]`` after a click (``ui.chart``)."""
    assert figures.picked({"click": [0, 2, 4]}) == (0, 2, 4)
    assert figures.picked({"click": None}) is None  # no click since the last rerun
    assert figures.picked({}) is None and figures.picked(None) is None


def test_a_cell_prints_its_value_at_its_own_position_when_tokens_are_numbers():
    """A heatmap of tokens "3 1 2": on a category axis an annotation at x = "1" could be read as the
    second position rather than the category "1", so cells are placed by position."""
    m = np.arange(9, dtype=np.float64).reshape(3, 3) / 10
    fig = figures.heatmap(m, ["3", "1", "2"], ["3", "1", "2"])
    notes = {(a["y"], a["x"]): a["text"] for a in figures.cell_notes(fig.to_dict())}
    assert notes == {(i, j): figures.cell_text(m[i, j]) for i in range(3) for j in range(3)}


def test_a_spec_is_what_plotly_itself_would_give_in_the_theme():
    """``spec_of`` copies only the dicts and packs the arrays itself: the JSON drawn is Plotly's
    own (``to_dict``, which deep-copies and packs every array), themed, for every kind of figure."""
    import plotly.graph_objects as go
    import plotly.io as pio

    from ui import theme

    m = np.arange(36, dtype=np.float64).reshape(6, 6) / 35
    labels = [f"t{i}" for i in range(6)]
    built = [
        figures.heatmap(m, labels, labels, title="A", focus=2, cell=3),
        figures.heatmap(m - 0.5, labels, labels, title="Ω", diverging=True),
        go.Figure(go.Scatter(x=np.arange(5), y=np.linspace(0, 1, 5), customdata=np.eye(5))),
        go.Figure(go.Bar(x=labels, y=[1, 2, 3, 4, 5, 6]), layout={"xaxis": {"range": [0, 1]}}),
    ]
    for fig in built:
        want = json.loads(pio.to_json(theme.themed(fig.to_dict(), theme.active()), validate=False))
        assert json.loads(pio.to_json(figures.spec_of(fig), validate=False)) == want


def _one_chart_with_values() -> None:
    """A script for ``AppTest.from_function``: one bar chart with its values."""
    import pandas as pd

    from ui import figures

    table = pd.DataFrame({"weight": ["0.5000", "0.5000"]}, index=["a", "b"])
    figures.show(figures.Chart(figures.bars([0.5, 0.5], ["a", "b"]), "Two bars", table), key="bars")


def test_a_values_table_is_drawn_only_once_its_expander_is_opened():
    """Streamlit draws a closed expander's content on every rerun, and a 32 × 32 ``st.table``
    cost the browser half a second a change: the table waits for a reader to open it."""
    at = AppTest.from_function(_one_chart_with_values).run()
    (box,) = at.expander
    assert box.label == "Values as a table: Two bars"
    assert not at.table and not at.get("download_button")
    at.session_state[figures.values_key("Two bars", "bars")] = True  # the reader opens it
    at.run()
    (shown,) = at.table
    assert shown.value["weight"].tolist() == ["0.5000", "0.5000"]
    (csv,) = at.get("download_button")
    assert csv.proto.label == "Download as CSV"
