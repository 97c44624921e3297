"""The two themes' figure colours pass WCAG 2.2 AA on their own background (ui/theme.py), and a
figure built for the light theme becomes a dark one with every series colour swapped."""

from __future__ import annotations

import numpy as np
import pytest

from ui import colors, figures, theme


def _ratio(a: str, b: str) -> float:
    return float(colors.contrast(np.array(colors.parse(a)), np.array(colors.parse(b))))


@pytest.mark.parametrize("p", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_chart_text_reads_at_4_5_to_1_and_outlines_at_3_to_1_on_the_background(p):
    assert _ratio(p.text, p.background) >= 4.5
    assert _ratio(p.chrome, p.background) >= 4.5
    assert _ratio(p.focus, p.background) >= 3


@pytest.mark.parametrize("light", sorted(theme.SERIES_DARK))
def test_every_series_colour_and_its_dark_twin_stand_out_as_lines(light):
    assert _ratio(light, theme.LIGHT.background) >= 3, light
    assert _ratio(theme.SERIES_DARK[light], theme.DARK.background) >= 3, theme.SERIES_DARK[light]


def test_the_app_palette_is_all_swappable_and_annotations_in_it_read_as_text_on_white():
    for c in (*figures.PALETTE, figures.MUTED):
        assert c in theme.SERIES_DARK, c
    for c in (figures.ACCENT, figures.SECOND, figures.THIRD):  # the colours figures write text in
        assert _ratio(c, theme.LIGHT.background) >= 4.5, c


def test_every_cell_of_the_dark_scales_faded_or_not_gets_text_at_the_margin():
    z = np.linspace(0, 1, 201)
    for scale, lo in ((theme.DARK.sequential, 0.0), (theme.DARK.diverging, -1.0)):
        for s in (scale, colors.dim_scale(scale, toward=theme.DARK.background)):
            fill = colors.fills(z, s, lo, 1.0)
            ink = np.array([colors.parse(c) for c in colors.text_on(fill)])
            assert colors.contrast(fill, ink).min() >= colors.MARGIN


def test_a_dark_figure_swaps_its_series_and_sets_its_chrome_but_keeps_cell_ink():
    spec = {
        "data": [{"type": "scatter", "line": {"color": figures.ACCENT}}, {"type": "heatmap", "colorbar": {}}],
        "layout": {"xaxis": {"title": {"text": "d_k"}}, "annotations": [{"font": {"color": "#000000"}}]},
    }
    dark = theme.themed(spec, theme.DARK)
    assert dark["data"][0]["line"]["color"] == theme.SERIES_DARK[figures.ACCENT]
    assert dark["layout"]["xaxis"]["tickfont"]["color"] == theme.DARK.chrome
    assert dark["layout"]["xaxis"]["title"]["font"]["color"] == theme.DARK.text
    assert dark["data"][1]["colorbar"]["tickfont"]["color"] == theme.DARK.chrome
    assert dark["layout"]["annotations"][0]["font"]["color"] == "#000000"  # picked per cell, kept
    light = theme.themed(spec, theme.LIGHT)
    assert light["data"][0]["line"]["color"] == figures.ACCENT


def test_outside_a_script_run_the_palette_is_the_light_one():
    assert theme.active() is theme.LIGHT


def test_a_relative_scale_ends_at_the_largest_weight_or_each_rows_largest():
    m = np.array([[0.2, 0.8], [0.05, 0.1], [0.0, 0.0]])
    shade, lo, hi, title = figures.relative_colours(m, "matrix")
    assert (lo, hi) == (0.0, 0.8) and np.array_equal(shade, m) and "0.8000" in title
    shade, lo, hi, _ = figures.relative_colours(m, "row")
    assert (lo, hi) == (0.0, 1.0)
    np.testing.assert_array_equal(shade, [[0.25, 1.0], [0.5, 1.0], [0.0, 0.0]])  # an all-zero row stays 0


def test_the_pale_hint_points_a_causal_page_to_the_row_scale_and_goes_once_a_scale_helps():
    from ui.scale import pale_hint

    assert pale_hint(8, None) is None  # 8 tokens print their values
    plain, causal = pale_hint(12, None), pale_hint(12, None, causal=True)
    assert plain is not None and "1/12 = 0.0833" in plain and "largest weight" in plain
    assert causal is not None and "each row from 0 to its largest" in causal
    assert pale_hint(12, "matrix") is None and pale_hint(12, "row", causal=True) is None
    assert pale_hint(12, "matrix", causal=True) == causal  # on a causal page the largest weight is 1
