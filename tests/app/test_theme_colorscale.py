"""A heatmap keeps, in the dark theme, the fills its cells' text was picked against: ``themed``
swaps series colours, never a colorscale's stops (the dark sequential scale's middle stop is a
series colour, #2b6cb0, and was lit to #63b3ed under text picked for the darker fill)."""

from __future__ import annotations

import numpy as np

from ui import figures, theme


def test_the_dark_theme_keeps_a_heatmaps_colorscale_and_swaps_its_series_colours():
    assert any(str(stop[1]).lower() in theme.SERIES_DARK for stop in theme.DARK.sequential)  # the trap
    spec = {
        "data": [
            {"type": "heatmap", "z": [[0.0, 1.0]], "colorscale": theme.DARK.sequential},
            {"type": "scatter", "line": {"color": figures.ACCENT}},
        ],
        "layout": {},
    }
    out = theme.themed(spec, theme.DARK)
    assert out["data"][0]["colorscale"] == theme.DARK.sequential
    assert out["data"][1]["line"]["color"] == theme.SERIES_DARK[figures.ACCENT]


def test_a_mid_scale_cell_keeps_the_fill_its_text_was_picked_for():
    """The fill ``ui.colors.fills`` computes for the scale as shipped is the one drawn."""
    from ui import colors

    scale = theme.themed({"data": [{"colorscale": theme.DARK.sequential}]}, theme.DARK)["data"][0][
        "colorscale"
    ]
    mid = colors.fills(np.array([0.5]), scale, 0.0, 1.0)
    assert colors.hex_of(mid[0]) == "#2b6cb0"


def test_a_covered_cells_question_mark_reads_on_the_page_in_either_theme(monkeypatch):
    """A cell left unfilled (NaN, as the tour covers an answer) shows the page through it, so its
    "?" is inked against the page's background: black on the dark page measured 1.1:1."""
    from ui import colors

    m = np.array([[0.2, np.nan], [0.7, 0.9]])
    text = [["0.2000", "?"], ["0.7000", "0.9000"]]
    for palette in (theme.LIGHT, theme.DARK):
        monkeypatch.setattr(theme, "active", lambda p=palette: p)
        notes = figures.cell_notes(figures.heatmap(m, ["a", "b"], ["a", "b"], text=text).to_dict())
        (mark,) = [n for n in notes if n["text"] == "?"]
        ink = np.array(colors.parse(mark["color"]))
        assert colors.contrast(np.array(colors.parse(palette.background)), ink) >= 4.5, palette.background
