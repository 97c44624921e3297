"""Every reader on the Multi-head page (issue 23): each chart named with its values as a table, the
weights' scale bound to the URL (``mh_scale``), cell text legible in both themes, head hues and
speed-up lines a dark theme can swap and a reader can tell apart without colour."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.app.conftest import assert_clean, charts, open_page, open_values, widget
from topics.multihead import figures as mf
from topics.multihead import speed, view
from topics.multihead.thinning import thinned
from ui import colors, figures, scale, theme

PAGE = "topics/multihead/page.py"


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in charts(at)]


def _head_maps(at) -> list[dict]:
    """The weights heatmap trace of every head's chart (their titles start "Head" or "▸ Head")."""
    out = []
    for spec in _charts(at):
        title = spec["layout"].get("title", {}).get("text", "")
        if "Head" in title:
            out.append(next(t for t in spec["data"] if t["type"] == "heatmap"))
    return out


def _names(at) -> list[str]:
    return [e.label for e in at.expander if e.label.startswith("Values as a table: ")]


@pytest.mark.parametrize(
    ("value", "bar", "zmax"),
    [("matrix", "the largest", "largest"), ("row", "row's", 1.0), ("fixed", None, 1.0), ("bogus", None, 1.0)],
)
def test_the_scale_in_the_link_reaches_every_heads_heatmap_and_a_bad_one_falls_back(value, bar, zmax):
    link = scale.LABELS.get(value, value)  # a radio's link holds the label it shows
    at = open_page(PAGE, {"mh_scale": link, "heads": "3", "d_out": "6", "preset": "Custom"})
    assert_clean(at)
    assert widget(at, "mh_scale").value == (value if value != "bogus" else "fixed")
    v = view.build(view.Settings(preset="Custom", heads=3, d_out=6))
    assert v.run is not None and v.run.weights is not None
    maps = _head_maps(at)
    assert len(maps) == 3
    for h, trace in enumerate(maps):
        title = trace.get("colorbar", {}).get("title", {}).get("text")
        if bar is None:  # the fixed 0–1 scale: six tokens print their values, no colour bar
            assert title is None and not trace["showscale"] and trace["zmax"] == 1.0
        else:
            assert bar in title and trace["showscale"]
            want = float(v.run.weights[h].max()) if zmax == "largest" else zmax
            assert trace["zmax"] == pytest.approx(want)
            if zmax == "largest":
                assert f"{want:.4f}" in title


def test_every_chart_is_named_and_its_values_are_a_table():
    at = open_values(open_page(PAGE, {"heads": "2", "d_out": "4", "preset": "Custom"}))
    assert_clean(at)
    names = _names(at)
    assert names[0].startswith("Values as a table: W_q, 3 input rows by 4 columns, 2 stripes of 2 columns")
    assert [n.split(": ", 1)[1].split(":")[0] for n in names[1:3]] == ["Head 1 of 2", "Head 2 of 2"]
    assert "6 queries by 6 keys, coloured on the fixed 0 to 1 scale" in names[1]
    assert names[3].startswith("Values as a table: Output of the first batch item, 6 queries by 4 columns")
    v = view.build(view.Settings(preset="Custom", heads=2, d_out=4))
    assert v.run is not None and v.run.weights is not None
    head1 = at.table[1].value  # W_q's table first, then head 1's
    assert list(head1.columns) == list(view.Settings().labels)
    assert head1.to_numpy().tolist() == [[figures.cell_text(x) for x in row] for row in v.run.weights[0]]


def test_a_long_sentence_on_the_fixed_scale_says_why_the_weights_are_pale():
    words = " ".join(f"w{i}" for i in range(12))
    at = open_page(PAGE, {"text": words})
    assert_clean(at)
    assert any("1/12 = 0.0833" in c.value for c in at.caption)
    # On a causal head the largest weight is always 1 (the first query's own): "0 to the largest"
    # is the fixed scale here, so the note stays and points to the row scale; on that one it goes.
    at = open_page(PAGE, {"text": words, "mh_scale": scale.LABELS["matrix"]})
    assert any("each row from 0 to its largest" in c.value for c in at.caption)
    assert all(t["zmax"] == 1.0 for t in _head_maps(at))
    at = open_page(PAGE, {"text": words, "mh_scale": scale.LABELS["row"]})
    assert not any("1/12" in c.value for c in at.caption)


def test_the_stripes_name_their_size_and_say_when_they_are_thinned():
    m = np.random.default_rng(0).uniform(-1, 1, (768, 768))
    name = mf.striped_name("W_q", thinned(m, 64), ("input row", "input rows"))
    assert name.startswith("W_q, 768 input rows by 768 columns, 12 stripes of 64 columns, one per head")
    assert name.endswith("drawn thinned, 96 rows by 96 columns")
    small = thinned(m[:3, :2], 2)
    assert mf.striped_name("Output", small, ("query", "queries")) == (
        "Output, 3 queries by 2 columns; blue negative, red positive"
    )
    table = mf.striped_table(thinned(m[:3, :4], 2), None, row_title="row")
    assert list(table.columns) == ["h1: 1", "h1: 2", "h2: 3", "h2: 4"] and list(table.index) == [
        "1",
        "2",
        "3",
    ]


@pytest.mark.parametrize("palette", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_the_stripes_cell_text_reads_at_4_5_to_1_on_its_cell_in_either_theme(monkeypatch, palette):
    monkeypatch.setattr(theme, "active", lambda: palette)
    m = np.linspace(-1, 1, 24).reshape(4, 6)
    fig = mf.striped_matrix(m, 3)
    want = [list(s) for s in palette.diverging]
    assert all([list(s) for s in t.colorscale] == want for t in fig.data)  # the theme's scale, every head
    cells = [a for a in fig.layout.annotations if not a.text.startswith("h")]
    assert [a.text for a in cells] == [figures.cell_text(x) for x in m.ravel()]
    # Placed by row position: the rows are labelled "1", "2", ..., which Plotly would read as positions.
    assert [(a.x, a.y) for a in cells] == [(j + 1, i) for i in range(4) for j in range(6)]
    fill = colors.fills(m.ravel(), palette.diverging, -1.0, 1.0)
    ink = np.array([colors.parse(a.font.color) for a in cells])
    assert colors.contrast(fill, ink).min() >= 4.5
    assert not any(t.texttemplate for t in fig.data)  # no Plotly-picked text colour


def test_head_hues_pass_as_text_and_have_dark_twins():
    for hue in mf.HEAD_HUES:
        assert hue in theme.SERIES_DARK
        assert colors.contrast(np.array(colors.parse(hue)), np.ones(3)) >= 4.5
        dark = theme.SERIES_DARK[hue]
        assert (
            colors.contrast(np.array(colors.parse(dark)), np.array(colors.parse(theme.DARK.background)))
            >= 4.5
        )


def test_the_speed_up_lines_differ_by_dash_and_the_chart_has_its_points_as_a_table():
    cases = [speed.Case(1, n, 64, h) for n in (16, 32, 64) for h in (1, 2)]
    results = [speed.Paired(c, "forward", (1.1, 1.3, 1.2), 1e-3, 1e-3) for c in cases]
    chart = mf.speedup_chart(results, title="Forward")
    dashes = [t.line.dash for t in chart.figure.data]
    assert len(dashes) == 3 and len(set(dashes)) == 3
    assert "one line per length n (16, 32, 64)" in chart.name
    assert chart.table is not None and len(chart.table) == 6
    assert list(chart.table["tokens n"]) == [16, 16, 32, 32, 64, 64]
