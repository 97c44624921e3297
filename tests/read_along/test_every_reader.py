"""The tour for every reader (issue 23): each step's figure is named at its settings and its values
are a table with named headers, as printed; on a long sentence the weights heatmaps colour each row
from 0 to its largest (said on the colour bar, in the name and under the figure), never the scores;
outlines and label boxes follow the reader's theme; and the page draws it all through
``ui.figures.show``."""

from __future__ import annotations

import numpy as np
import pytest

from core import sentence
from tests.app.conftest import assert_clean, chart_names, open_page
from topics.read_along.drawings import draw, drawn
from topics.read_along.steps import STEPS
from ui import figures, theme

LONG = " ".join(f"w{i}" for i in range(32))
WEIGHTS = {"weightless", "context", "tied_limit", "zero_score", "dropout_factor", "dropout_one_draw"}
SIGNED = {"asymmetry", "which_triangle", "two_ways", "shuffle"}  # scores and differences
NUMBER = {d.key: i for i, d in enumerate(STEPS, 1)}
PAGE = "topics/read_along/page.py"


def weights_layers(fig) -> list:
    """The heatmap layers of a figure's first panel (a focused row's, and the dimmed rows')."""
    return [t for t in fig.data if t.type == "heatmap" and (t.xaxis or "x") == "x"]


@pytest.mark.parametrize("text", [sentence.BOOK_TEXT, LONG], ids=["book", "32 tokens"])
def test_every_step_is_named_and_tabled_with_named_headers(text):
    s = sentence.build(text)
    for d in STEPS:
        f = d.make(s).figure
        out = draw(f)
        assert out.name.startswith(f.name.split(",")[0]), d.key  # the step's name, said further
        assert out.table.index.name, d.key  # a screen reader announces the row header
        assert all(str(c).strip() for c in out.table.columns), d.key
        if out.figure is not None and weights_layers(out.figure):
            n_rows = len(weights_layers(out.figure)[0].z)
            assert f"{n_rows} " in out.name and " by " in out.name, (d.key, out.name)


@pytest.mark.parametrize("key", sorted(WEIGHTS))
def test_a_long_sentences_weights_are_coloured_row_by_row_and_said_so(key):
    s = sentence.build(LONG)
    f = STEPS[NUMBER[key] - 1].make(s).figure
    out = draw(f)
    assert out.figure is not None
    layers = weights_layers(out.figure)
    assert [t.showscale for t in layers] == [True] + [False] * (len(layers) - 1)
    assert "row's" in layers[0].colorbar.title.text and layers[0].zmax == 1.0
    shade = np.full((s.n, s.n), np.nan)
    for t in layers:  # each row lives in one layer; together they hold every cell
        z = np.array([[np.nan if v is None else v for v in row] for row in t.z], dtype=np.float64)
        shade = np.where(np.isnan(shade), z, shade)
    rows_max = np.nanmax(shade, axis=1)
    assert np.allclose(rows_max[rows_max > 0], 1.0), key  # each row's largest weight is its darkest cell
    assert out.note is not None and f"1/{s.n} = {1 / s.n:.4f}" in out.note and "each row" in out.note
    assert "each row coloured from 0 to its largest weight" in out.name


@pytest.mark.parametrize("text", [sentence.BOOK_TEXT, LONG], ids=["book", "32 tokens"])
def test_only_a_long_sentences_weights_change_scale(text):
    """At 6 tokens the cells print their values on the fixed scale; scores and differences keep
    their diverging scale centred on 0 at any length."""
    s = sentence.build(text)
    for d in STEPS:
        out = draw(d.make(s).figure)
        relative = out.note is not None
        assert relative == (d.key in WEIGHTS and s.n > figures.TEXT_MAX), d.key
        if d.key in SIGNED and out.figure is not None:
            for t in weights_layers(out.figure):
                title = t.colorbar.title.text if t.colorbar and t.colorbar.title else None
                assert not title or "largest" not in title, d.key


def test_the_dropout_sums_keep_their_own_scale_when_the_weights_are_recoloured():
    s = sentence.build(LONG)
    f = STEPS[NUMBER["dropout_one_draw"] - 1].make(s).figure  # its sums, once revealed
    out = draw(f)
    assert out.figure is not None
    sums = [t for t in out.figure.data if t.type == "heatmap" and t.xaxis == "x2"]
    assert sums and all(t.zmin < 0 < t.zmax for t in sums)  # around a sum of 1, as the page draws them
    assert list(out.table["row sum"]) == [figures.cell_text(x) for x in f.data.view.row_sums]


def test_tables_print_as_the_figures_do():
    s = sentence.book()
    v = STEPS[NUMBER["weightless"] - 1].make(s).figure.data
    out = draw(STEPS[NUMBER["weightless"] - 1].make(s).figure)
    assert out.table.to_numpy().tolist() == [
        [figures.cell_text(x) for x in row] for row in v.collapse.weights
    ]
    assert out.table.index.name == "query ↓, key →"
    masked = draw(STEPS[NUMBER["which_triangle"] - 1].make(s).figure).table
    assert (masked.to_numpy() == "−∞").sum() == s.n * (s.n - 1) // 2  # the future's fill, as printed


@pytest.mark.parametrize(
    ("x", "text"),
    [(0.02, "0.02000"), (1.3921, "1.392"), (1.1e-6, "1.100e-06"), (0.0, "0.000"), (123456.0, "123,456")],
)
def test_curve_values_are_printed_to_four_significant_figures(x, text):
    assert drawn.significant(x) == text


@pytest.mark.parametrize("palette", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_outlines_and_label_boxes_follow_the_theme(monkeypatch, palette):
    monkeypatch.setattr(theme, "active", lambda: palette)
    s = sentence.book()
    bars = draw(STEPS[NUMBER["saturation"] - 1].make(s).figure).figure
    assert bars is not None
    lines = {shape.line.color for shape in bars.layout.shapes}
    assert lines == {palette.focus, palette.focus_inner}
    spread = draw(STEPS[NUMBER["which_width"] - 1].make(s).figure).figure
    assert spread is not None
    r, g, b = (round(c * 255) for c in figures.colors.parse(palette.background))
    assert spread.layout.annotations[-1].bgcolor == f"rgba({r},{g},{b},0.85)"


def test_the_page_names_its_chart_and_tables_its_values_with_the_scale_said():
    at = open_page(PAGE, {"step": str(NUMBER["context"]), "text": LONG})
    assert_clean(at)
    s = sentence.build(LONG)
    out = draw(STEPS[NUMBER["context"] - 1].make(s).figure)
    assert out.note in [c.value for c in at.caption]
    assert out.name in chart_names(at)  # the chart's accessible name (ui.figures.show)
    assert f"Values as a table: {out.table_name}" in [e.label for e in at.expander]
    assert not at.dataframe  # the values: an HTML table (the sentence's editor is closed)


def test_a_step_whose_table_is_the_figure_shows_an_html_table():
    key = "heads_d_out"
    at = open_page(PAGE, {"step": str(NUMBER[key])})
    assert len(at.table) == 1 and "?" in at.table[0].value.to_numpy()  # before the guess, covered
    at.button(key=f"_read_along_show_{key}").click().run()
    assert_clean(at)
    assert len(at.table) == 1 and not at.dataframe and "?" not in at.table[0].value.to_numpy()
    assert at.table[0].value.index.name == "argument"
