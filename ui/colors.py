"""Colours a reader can read: each heatmap cell's fill, and the text colour that stays legible on it.

Plotly picks a heatmap's text colour itself, and its choice went down to 3.13:1 on mid-blue cells;
a veil laid over unfocused rows took most cells below 3:1. Here the app computes each cell's fill
from the colour scale, fades a row through its fill (never over its text), and picks black or
white text by WCAG 2.2 relative luminance, whichever contrasts more.

Against any fill one of the two reaches at least 4.58:1, but only just: at luminance 0.179 both
give 4.58:1, and an audit measured cells printed there at 4.15-4.47:1 from the browser's pixels
(issue 38, item 6; a glyph's anti-aliased edge is lighter than its colour). So every scale skips the
luminances where neither black nor white reaches :data:`MARGIN` (:func:`legible`): it jumps
over that narrow band of mid-tones, and every cell's text is computed at 5:1 or more, leaving room
for the pixels to stay above WCAG AA's 4.5:1 (success criterion 1.4.3).

A focused row stands out because the others fade (:func:`dim_scale`): they are drawn on the part
of the same scale nearest the page's background. A faded cell keeps its hue and stays further
from the background the larger its value, so each row's ranking still reads (issue 35); mixing
the fills toward the background instead turned the strongest cells grey, duller than the middle ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

BLACK, WHITE = "#000000", "#ffffff"
MARGIN = 5.0  # the least contrast a cell's text is computed at: 4.5:1 and room for the pixels
FADE_SHARE = 0.4  # a faded row's strongest fill: this share of the scale end's distance from the background


def parse(color: str) -> tuple[float, float, float]:
    """``"#3182bd"`` or ``"rgb(49, 130, 189)"`` as RGB in 0–1."""
    c = color.strip()
    if c.startswith("#"):
        h = c[1:]
        return tuple(int(h[k : k + 2], 16) / 255 for k in (0, 2, 4))  # type: ignore[return-value]
    parts = c[c.index("(") + 1 : c.index(")")].split(",")
    return tuple(float(p) / 255 for p in parts[:3])  # type: ignore[return-value]


def hex_of(rgb: np.ndarray) -> str:
    """RGB in 0–1 as ``#rrggbb``."""
    r, g, b = (round(float(v) * 255) for v in np.clip(rgb, 0, 1))
    return f"#{r:02x}{g:02x}{b:02x}"


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2.2 relative luminance of RGB in 0–1 (any leading shape, last axis 3)."""
    c = np.asarray(rgb, dtype=np.float64)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """WCAG contrast ratio between two colours (RGB in 0–1), 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def fills(values: np.ndarray, scale: Sequence[Sequence[Any]], zmin: float, zmax: float) -> np.ndarray:
    """The RGB fill (0–1) Plotly gives each value on ``scale`` from ``zmin`` to ``zmax``:
    linear between the scale's stops, as plotly.js interpolates. Non-finite values get white."""
    stops = np.array([float(s[0]) for s in scale])
    rgb = np.array([parse(str(s[1])) for s in scale])
    v = np.asarray(values, dtype=np.float64)
    span = zmax - zmin if zmax > zmin else 1.0
    t = np.clip((np.nan_to_num(v, nan=zmin, posinf=zmax, neginf=zmin) - zmin) / span, 0.0, 1.0)
    out = np.stack([np.interp(t, stops, rgb[:, k]) for k in range(3)], axis=-1)
    return np.where(np.isfinite(v)[..., None], out, 1.0)


def _stops(scale: Sequence[Sequence[Any]]) -> tuple[np.ndarray, np.ndarray]:
    """A scale's positions and its RGB stops (0–1)."""
    return np.array([float(x[0]) for x in scale]), np.array([parse(str(x[1])) for x in scale])


def background_end(scale: Sequence[Sequence[Any]], toward: str = WHITE) -> float:
    """The position on ``scale`` of its stop nearest ``toward`` in luminance: 0 for a sequential
    scale that starts at the background, 0.5 for a diverging one whose middle is the background."""
    at, rgb = _stops(scale)
    return float(at[int(np.argmin(np.abs(luminance(rgb) - luminance(np.array(parse(toward))))))])


def lightness(rgb: np.ndarray) -> np.ndarray:
    """CIE L* (0 black to 100 white) of RGB in 0–1: lightness as the eye spaces it."""
    y = luminance(rgb)
    return np.where(y > 216 / 24389, 116 * np.cbrt(y) - 16, 24389 / 27 * y)


def _kept(scale: Sequence[Sequence[Any]], c: float, end: float, share: float, back: float) -> float:
    """The share of the way from ``c`` to ``end`` on ``scale`` at which a fill's lightness lies
    ``share`` as far from the background's (``back``) as the fill at ``end`` does."""

    def distance(t: float) -> float:
        return abs(float(lightness(fills(np.array(t), scale, 0.0, 1.0))) - back)

    goal = share * distance(end)
    lo, hi = 0.0, 1.0
    for _ in range(40):  # the scales grow apart from the background monotonically from c outward
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if distance(c + (end - c) * mid) < goal else (lo, mid)
    return (lo + hi) / 2


def dim_scale(
    scale: Sequence[Sequence[Any]], share: float = FADE_SHARE, toward: str = WHITE
) -> list[list[Any]]:
    """The scale an unfocused row is drawn on: ``scale`` squeezed toward its background end.

    ``c`` is the scale's stop nearest the background ``toward`` (:func:`background_end`). On each
    side of it the squeeze keeps the part of the scale from ``c`` to the fill whose lightness (CIE
    L*) lies ``share`` as far from the background's as the scale's end does, and stretches that
    part over the whole side: a value at position ``s`` gets the colour the scale gives position
    ``c + (s − c) · k``. So a faded row recedes toward the background, while each cell keeps the
    hue the focused rows give it and stands further from the background the larger its value, as
    on the full scale; its fills are the scale's own, so :func:`text_on` reads on them as on any
    other cell. The stops are placed where the squeezed scale bends, so Plotly's linear
    interpolation between them draws exactly this.
    """
    at, rgb = _stops(scale)
    c = background_end(scale, toward)
    back = float(lightness(np.array(parse(toward))))
    low = _kept(scale, c, 0.0, share, back) if c > 0 else 1.0
    high = _kept(scale, c, 1.0, share, back) if c < 1 else 1.0

    def squeezed(s: float) -> float:
        return c + (s - c) * (high if s >= c else low)

    inner = [(c + (t - c) / (high if t >= c else low), hex_of(col)) for t, col in zip(at, rgb, strict=True)]
    ends = [(s, hex_of(fills(np.array(squeezed(s)), scale, 0.0, 1.0))) for s in (0.0, 1.0)]
    stops = [ends[0], *[(p, col) for p, col in inner if 0.0 < p < 1.0], ends[1]]
    return [[p, col] for p, col in stops]


def _band(margin: float) -> tuple[float, float]:
    """The luminances between which neither white text (above the first) nor black text (below
    the second) reaches ``margin``: ``(1.05 / margin − 0.05, 0.05 · margin − 0.05)``."""
    return 1.05 / margin - 0.05, 0.05 * margin - 0.05


def _crossing(c0: np.ndarray, c1: np.ndarray, target: float) -> float:
    """The fraction of the segment ``c0`` → ``c1`` where its luminance is ``target`` (monotone
    along a straight segment of RGB), by bisection."""
    rising = float(luminance(c1)) > float(luminance(c0))
    lo, hi = 0.0, 1.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if (float(luminance(c0 + (c1 - c0) * mid)) < target) == rising:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _outside(c0: np.ndarray, c1: np.ndarray, f: float, step: float, band: tuple[float, float]) -> str:
    """The hex colour at fraction ``f`` of ``c0`` → ``c1``, moved by ``step`` at a time until its
    rounding to a hex colour lies outside ``band`` (so a stop's rounding never lands inside)."""
    while 0.0 <= f <= 1.0:
        color = hex_of(c0 + (c1 - c0) * f)
        if not band[0] < float(luminance(np.array(parse(color)))) < band[1]:
            return color
        f += step
    raise ValueError("no colour outside the band on this segment")


def legible(scale: Sequence[Sequence[Any]], margin: float = MARGIN) -> list[list[Any]]:
    """``scale`` with the mid-tones where neither black nor white text reaches ``margin`` cut out.

    White text reaches ``margin`` on a fill of luminance at most ``1.05 / margin − 0.05`` and
    black text on one of at least ``0.05 · margin − 0.05``; between the two (0.16 to 0.20 at 5:1)
    neither does. Where the scale crosses that band it keeps its colours up to the band's edges
    and jumps from one edge to the other halfway (two stops at one position, which Plotly draws as
    a step), so no fill falls inside. Elsewhere the scale is unchanged. The scales here cross the
    band monotonically, once per side of their middle.
    """
    band = _band(margin)
    at, rgb = _stops(scale)
    # Every stop, and every point where a segment crosses an edge of the band, in order: each as
    # (position, hex colour, luminance); stops inside the band are left out.
    points: list[tuple[float, str, float]] = []
    for k in range(len(at)):
        if k:
            t0, t1, c0, c1 = float(at[k - 1]), float(at[k]), rgb[k - 1], rgb[k]
            l0, l1 = float(luminance(c0)), float(luminance(c1))
            crossings = sorted(
                (_crossing(c0, c1, edge), edge) for edge in band if min(l0, l1) < edge < max(l0, l1)
            )
            for f, edge in crossings:
                # Round toward the side of the band this crossing's own stop lies on.
                inside_after = band[0] < float(luminance(c0 + (c1 - c0) * min(f + 1e-6, 1.0))) < band[1]
                color = _outside(c0, c1, f, -1 / 4096 if inside_after else 1 / 4096, band)
                points.append((t0 + (t1 - t0) * f, color, edge))
        lk = float(luminance(rgb[k]))
        if not band[0] < lk < band[1]:
            points.append((float(at[k]), hex_of(rgb[k]), lk))
    out: list[list[Any]] = []
    for k, (t, color, lum) in enumerate(points):
        if k and (out[-1][2] <= band[0]) != (lum <= band[0]):  # the band lies between: a step
            middle = (out[-1][0] + t) / 2
            out[-1][0] = t = middle
        out.append([t, color, lum])
    return [[t, color] for t, color, _ in out]


def text_on(rgb: np.ndarray) -> np.ndarray:
    """Black or white text for each fill, whichever contrasts more: at least 4.58:1 on any fill,
    and at least :data:`MARGIN` on every fill of a :func:`legible` scale."""
    fill = np.asarray(rgb, dtype=np.float64)
    black = contrast(fill, np.zeros(3))
    white = contrast(fill, np.ones(3))
    return np.where(black >= white, BLACK, WHITE)
