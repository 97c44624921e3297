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
