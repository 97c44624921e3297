"""Cell text stays legible on every fill (ui/colors.py): WCAG AA's 4.5:1, by construction, with a
margin for the pixels; and a faded row keeps its ranking (issue 35)."""

from __future__ import annotations

import itertools

import numpy as np
import plotly.colors as pcolors
import pytest

from ui import colors, theme
from ui.figures import DIVERGING, SEQUENTIAL

SCALES = [
    pytest.param(p, kind, id=f"{p.mode}-{kind}")
    for p in (theme.LIGHT, theme.DARK)
    for kind in ("sequential", "diverging")
]


def _chroma(rgb: np.ndarray) -> np.ndarray:
    """CIELAB chroma (D65) of sRGB colours in 0–1: how far from grey a colour looks."""
    c = np.asarray(rgb, dtype=np.float64)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.hypot(500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2]))


def _values(kind: str) -> tuple[np.ndarray, float]:
    """Values from the scale's background end outward, and the scale's lower end."""
    return (np.linspace(0, 1, 2001), 0.0) if kind == "sequential" else (np.linspace(-1, 1, 4001), -1.0)


def test_wcag_luminance_and_contrast_match_the_standards_examples():
    assert colors.contrast(np.zeros(3), np.ones(3)) == 21.0
    # #767676 on white is the lightest grey that passes 4.5:1 (4.54:1)
    assert round(float(colors.contrast(np.array(colors.parse("#767676")), np.ones(3))), 2) == 4.54


def test_the_fills_are_plotlys_interpolation_of_the_scale():
    z = np.array([0.0, 0.5, 1.0])
    blues = [[i / 8, c] for i, c in enumerate(pcolors.sequential.Blues)]
    got = colors.fills(z, blues, 0.0, 1.0)
    want = [colors.parse(c) for c in pcolors.sample_colorscale(blues, list(z), colortype="rgb")]
    np.testing.assert_allclose(got, want, atol=1 / 255)


@pytest.mark.parametrize(("p", "kind"), SCALES)
def test_every_fill_focused_or_faded_gets_text_at_the_margin_so_the_pixels_keep_4_5_to_1(p, kind):
    z, lo = _values(kind)
    scale = getattr(p, kind)
    for s in (scale, colors.dim_scale(scale, toward=p.background)):
        fill = colors.fills(z, s, lo, 1.0)
        text = np.array([colors.parse(c) for c in colors.text_on(fill)])
        assert colors.contrast(fill, text).min() >= colors.MARGIN


def test_a_scale_made_legible_jumps_over_the_mid_tones_and_keeps_the_rest():
    blues = [[i / 8, c] for i, c in enumerate(pcolors.sequential.Blues)]
    fixed = colors.legible(blues)
    dark, light = 1.05 / colors.MARGIN - 0.05, 0.05 * colors.MARGIN - 0.05
    lum = colors.luminance(colors.fills(np.linspace(0, 1, 20001), fixed, 0.0, 1.0))
    assert not np.any((lum > dark) & (lum < light))
    before = colors.luminance(colors.fills(np.linspace(0, 1, 20001), blues, 0.0, 1.0))
    assert np.any((before > dark) & (before < light))  # the band was there to cut
    steps = [a for a, b in itertools.pairwise(fixed) if a[0] == b[0]]
    assert len(steps) == 1  # one step, where the scale crosses the band
    kept = [
        [float(t), colors.hex_of(np.array(colors.parse(c)))]
        for t, c in blues
        if not dark < colors.luminance(np.array(colors.parse(c))) < light
    ]
    assert [s for s in fixed if s in kept] == kept  # every stop outside the band stays where it was


@pytest.mark.parametrize(("p", "kind"), SCALES)
def test_a_faded_cell_stays_further_from_the_background_the_larger_its_value_and_keeps_its_hue(p, kind):
    """The focus fade keeps each row's ranking visible (issue 35): on the faded scale, a fill's
    distance from the background's luminance grows with |value| (a larger weight is darker on
    white, brighter on near-black), its colour does not turn greyer as it grows (a row's largest
    weight read dull when the fade mixed fills toward the background), and every faded fill lies
    nearer the background than the focused fill of the same value, the largest at 40% of its
    lightness distance."""
    z, lo = _values(kind)
    scale = getattr(p, kind)
    faded = colors.dim_scale(scale, toward=p.background)
    back = colors.luminance(np.array(colors.parse(p.background)))
    full, dim = (colors.fills(z, s, lo, 1.0) for s in (scale, faded))
    for side in (z >= 0, z <= 0):
        order = np.argsort(np.abs(z[side]), kind="stable")
        distance = np.abs(colors.luminance(dim[side]) - back)[order]
        assert np.all(np.diff(distance) >= -1e-4), p.mode
        chroma = _chroma(dim[side])[order]
        assert np.all(np.diff(chroma) >= -0.75), p.mode  # hex rounding moves chroma a little
    assert np.all(np.abs(colors.luminance(dim) - back) <= np.abs(colors.luminance(full) - back) + 1e-4)
    strongest = np.abs(z) == 1
    lightness = float(colors.lightness(np.array(colors.parse(p.background))))
    reach = np.abs(colors.lightness(dim[strongest]) - lightness) / np.abs(
        colors.lightness(full[strongest]) - lightness
    )
    np.testing.assert_allclose(reach, colors.FADE_SHARE, atol=0.02)  # recedes, and still reads as the largest


def test_the_faded_scale_is_the_scale_squeezed_toward_its_background_end():
    for scale, c in ((SEQUENTIAL, 0.0), (DIVERGING, 0.5)):
        faded = colors.dim_scale(scale)
        assert [s[0] for s in faded] == sorted(s[0] for s in faded) and faded[0][0] == 0 and faded[-1][0] == 1
        s = np.linspace(c, 1, 101)
        end = colors.fills(np.array(1.0), faded, 0.0, 1.0)  # where the squeezed side ends on the scale
        t = np.linspace(c, 1, 100001)
        k = (t[np.argmin(np.abs(colors.fills(t, scale, 0.0, 1.0) - end).sum(axis=1))] - c) / (1 - c)
        np.testing.assert_allclose(
            colors.fills(s, faded, 0.0, 1.0), colors.fills(c + (s - c) * k, scale, 0.0, 1.0), atol=1.5 / 255
        )
