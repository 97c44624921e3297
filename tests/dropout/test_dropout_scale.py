"""Dropout's weights scale (issue 23): the "Colour the weights" choice reaches both weights heatmaps
from the URL (``drop_scale``), never the signed row sums, and a value it does not know falls back
to the fixed 0–1 scale. Each chart is named and has its values as a table."""

from __future__ import annotations

import json

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.app.conftest import assert_clean, charts, open_page, widget
from topics.dropout import figures as dfig
from topics.dropout import study, view
from topics.dropout.view import Settings
from ui import colors, figures, theme
from ui.scale import LABELS, pale_hint

PAGE = "topics/dropout/page.py"
TWELVE = tuple(f"w{i}" for i in range(12))


def heatmaps(at: AppTest) -> tuple[dict, dict]:
    """The first trace (the weights' colours) of the weights heatmap and of the dropped one."""
    weights, dropped, *_ = (json.loads(c.proto.spec) for c in charts(at))
    return weights["data"][0], dropped["data"][0]


def captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


def test_the_row_scale_from_the_url_colours_both_weights_heatmaps_and_says_so():
    at = open_page(PAGE, {"drop_scale": LABELS["row"], "text": " ".join(TWELVE)})
    assert_clean(at)
    assert widget(at, "drop_scale").value == "row"
    for trace in heatmaps(at):
        assert trace["showscale"] is True
        assert trace["colorbar"]["title"]["text"] == "÷ its row's<br>largest"
        assert (trace["zmin"], trace["zmax"]) == (0.0, 1.0)
    dropped = json.loads(charts(at)[1].proto.spec)
    sums = [t for t in dropped["data"] if t.get("type") == "heatmap" and t["xaxis"] == "x2"]
    assert sums and all("title" not in t["colorbar"] for t in sums)  # the signed sums keep their scale
    assert "Each row is coloured from 0 to its own largest weight" in captions(at)
    assert pale_hint(12, "row") is None and "pale on the fixed 0–1 scale" not in captions(at)


def test_the_matrix_scale_ends_each_heatmap_at_its_own_largest_weight():
    at = open_page(PAGE, {"drop_scale": LABELS["matrix"]})
    assert_clean(at)
    v = view.build(Settings(), run=study.study)
    weights, dropped = heatmaps(at)
    assert weights["zmax"] == float(np.max(v.weights)) and weights["colorbar"]["title"]["text"].startswith(
        "0 to"
    )
    assert dropped["zmax"] == float(np.max(v.first)) == 2.0  # the book's draw: a survivor of 1 doubled


def test_an_unknown_scale_falls_back_to_the_fixed_one_with_the_hint():
    at = open_page(PAGE, {"drop_scale": "loud", "text": " ".join(TWELVE)})
    assert_clean(at)
    assert widget(at, "drop_scale").value == "fixed"
    for trace in heatmaps(at):
        assert (trace["zmin"], trace["zmax"]) == (0.0, 1.0) and "title" not in trace["colorbar"]
    hint = pale_hint(12, None, causal=True)  # causal weights: the row scale is the way out
    assert hint is not None and hint in captions(at)
    assert "Both matrices share the 0–1 scale" in captions(at)


def test_every_chart_is_named_and_has_its_values_as_a_table():
    at = open_page(PAGE)
    assert_clean(at)
    boxes = [e.label for e in at.expander if e.label.startswith("Values as a table: ")]
    assert len(boxes) == len(charts(at)) == 4
    assert boxes[0] == "Values as a table: Causal attention weights before dropout, 6 queries by 6 keys"
    assert "p = 0.5, survivors scaled by 1/0.5 = 2" in boxes[1]
    assert "10,000 draws" in boxes[2] and "10,000 draws" in boxes[3]


def test_in_the_dark_theme_each_cell_text_reads_on_the_fill_the_browser_draws(monkeypatch):
    """Built in the dark theme and themed as ``figures.show`` sends it, each printed weight is at least
    4.5:1 on its cell's fill as the spec's own colour scale gives it. (The dark scale's middle stop is
    also the light accent, #2b6cb0, which the theme's series swap once turned pale under white text.)"""
    monkeypatch.setattr(theme, "active", lambda: theme.DARK)
    v = view.build(Settings(), run=study.study)
    spec = figures.spec_of(dfig.charts(v)["fig04_weights"].figure)
    cells = spec["data"][0]
    assert cells["colorscale"] == theme.DARK.sequential
    for note in figures.cell_notes(spec):
        i, j = int(note["y"]), int(note["x"])  # placed by position
        fill = colors.fills(np.array(v.weights[i, j]), cells["colorscale"], cells["zmin"], cells["zmax"])
        ink = np.array(colors.parse(note["color"]))
        assert colors.contrast(fill, ink) >= 4.5, note["text"]
