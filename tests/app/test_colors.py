"""Cell text stays legible on every fill (ui/colors.py): WCAG AA's 4.5:1, by construction."""

from __future__ import annotations

import numpy as np
import plotly.colors as pcolors

from ui import colors
from ui.figures import DIVERGING, SEQUENTIAL


def test_wcag_luminance_and_contrast_match_the_standards_examples():
    assert colors.contrast(np.zeros(3), np.ones(3)) == 21.0
    # #767676 on white is the lightest grey that passes 4.5:1 (4.54:1)
    assert round(float(colors.contrast(np.array(colors.parse("#767676")), np.ones(3))), 2) == 4.54


def test_the_fills_are_plotlys_interpolation_of_the_scale():
    z = np.array([0.0, 0.5, 1.0])
    got = colors.fills(z, SEQUENTIAL, 0.0, 1.0)
    want = [colors.parse(c) for c in pcolors.sample_colorscale(SEQUENTIAL, list(z), colortype="rgb")]
    np.testing.assert_allclose(got, want, atol=1 / 255)


def test_every_fill_of_either_scale_dimmed_or_not_gets_text_at_4_5_to_1_or_more():
    z = np.linspace(-1, 1, 2001)
    for scale, lo in ((SEQUENTIAL, 0.0), (DIVERGING, -1.0)):
        for fill in (colors.fills(z, scale, lo, 1.0), colors.dimmed(colors.fills(z, scale, lo, 1.0))):
            text = np.array([colors.parse(c) for c in colors.text_on(fill)])
            assert colors.contrast(fill, text).min() >= 4.5


def test_the_dimmed_scale_is_each_stop_moved_toward_white():
    dim = colors.dim_scale(SEQUENTIAL)
    assert [s[0] for s in dim] == [s[0] for s in SEQUENTIAL]
    first = np.array(colors.parse(dim[-1][1]))
    assert np.all(first > np.array(colors.parse(SEQUENTIAL[-1][1])))
