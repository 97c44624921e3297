"""Colours a reader can read: each heatmap cell's fill, and the text colour that stays legible on it.

Plotly picks a heatmap's text colour itself, and its choice went down to 3.13:1 on mid-blue cells;
a veil laid over unfocused rows took most cells below 3:1. Here the app computes each cell's fill
from the colour scale, dims a row through its fill (never over its text), and picks black or
white text by WCAG 2.2 relative luminance, whichever contrasts more. Against any fill one of the
two reaches at least 4.58:1 (the worst fill has luminance 0.179, where both give the same), so
every cell's text passes WCAG AA's 4.5:1 (success criterion 1.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

BLACK, WHITE = "#000000", "#ffffff"
DIM_MIX = 0.6  # how far an unfocused row's fill moves toward white


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


def dimmed(rgb: np.ndarray, mix: float = DIM_MIX, toward: str = WHITE) -> np.ndarray:
    """A fill moved ``mix`` of the way to ``toward``, the page's background (white in the light
    theme, near-black in the dark one): how an unfocused row recedes."""
    return np.asarray(rgb, dtype=np.float64) * (1 - mix) + mix * np.array(parse(toward))


def dim_scale(scale: Sequence[Sequence[Any]], mix: float = DIM_MIX, toward: str = WHITE) -> list[list[Any]]:
    """``scale`` with every stop dimmed (:func:`dimmed`): the unfocused rows' colour scale."""
    return [[float(s[0]), hex_of(dimmed(np.array(parse(str(s[1]))), mix, toward))] for s in scale]


def text_on(rgb: np.ndarray) -> np.ndarray:
    """Black or white text for each fill, whichever contrasts more (always at least 4.58:1)."""
    fill = np.asarray(rgb, dtype=np.float64)
    black = contrast(fill, np.zeros(3))
    white = contrast(fill, np.ones(3))
    return np.where(black >= white, BLACK, WHITE)
