"""The light and the dark theme, as the figures need them.

Streamlit themes its own elements from ``.streamlit/config.toml`` (``[theme.light]`` and
``[theme.dark]``); a reader's browser picks one (its ``prefers-color-scheme``, or Streamlit's
settings menu). Plotly figures are drawn from a spec the server writes, so the server must know
which one is on screen: ``st.context.theme.type`` says so on every rerun (:func:`active`).

Every colour here is chosen for WCAG 2.2 AA against its theme's background: text at least 4.5:1
(success criterion 1.4.3), lines and marks at least 3:1 (1.4.11). ``tests/app/test_theme.py``
measures each pair. Heatmap cells are their own background: their text is picked per cell
(``ui.colors.text_on``), in either theme, and each scale skips the mid-tones on which neither
black nor white text reaches 5:1 (``ui.colors.legible``), so the pixels keep 4.5:1.

A figure built for the light theme becomes a dark one through :func:`themed`, which swaps each
series colour for its dark counterpart (``SERIES_DARK``) and sets the chart's chrome (titles,
ticks, legends, colour bars) in the theme's text colours. Heatmap fills are not swapped: the cells'
scales and their text are chosen at build time from :func:`active` (``ui.figures.grid``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import plotly.colors as pcolors
import streamlit as st

from ui.colors import legible

Mode = Literal["light", "dark"]


def _scale(colors: Sequence[str]) -> list[list[Any]]:
    """Evenly spaced stops, less the mid-tones on which no text reaches 5:1 (``ui.colors.legible``)."""
    return legible([[i / (len(colors) - 1), c] for i, c in enumerate(colors)])


@dataclass(frozen=True)
class Palette:
    """One theme's colours for the figures."""

    mode: Mode
    background: str  # the page's background, as config.toml sets it
    text: str  # chart titles and axis titles
    chrome: str  # tick labels, colour-bar ticks, legends
    grid: str  # grid lines
    focus: str  # a focused row's outline (outside)
    focus_inner: str  # ... and its inner line, so it shows on a pale cell and on a dark one
    sequential: list[list[Any]]  # 0 (background-like) to the most
    diverging: list[list[Any]]  # negative, 0 (background-like), positive


# Explicit scales: a name such as "Blues" means light-to-dark to plotly.py but dark-to-grey to
# plotly.js, and the spec reaches the browser as written.
LIGHT = Palette(
    mode="light",
    background="#ffffff",
    text="#1a202c",  # 16.3:1 on white
    chrome="#4a5568",  # 7.5:1 (Streamlit's own #808495 was 3.72:1)
    grid="#e2e8f0",
    focus="#1a202c",
    focus_inner="#ffffff",
    sequential=_scale(pcolors.sequential.Blues),  # white (0) to dark blue (most)
    diverging=_scale(pcolors.diverging.RdBu[::-1]),  # blue (negative), white (0), red (positive)
)
DARK = Palette(
    mode="dark",
    background="#0e1117",
    text="#fafafa",  # 18.4:1 on #0e1117
    chrome="#cbd5e0",  # 12.7:1
    grid="#2d3748",
    focus="#f7fafc",
    focus_inner="#0e1117",
    # Dark (0) to bright (most): on a dark page the most weight is the brightest cell.
    sequential=_scale(["#161b26", "#1c3050", "#1f4e89", "#2b6cb0", "#4a90d9", "#90cdf4", "#e6f4ff"]),
    diverging=_scale(["#9ecbf5", "#3b7bbf", "#1d3357", "#1b1f2a", "#5c2222", "#c0504d", "#f8b4a6"]),
)

# Each light series colour and its dark counterpart: the same hue, lighter, at least 3:1 on
# #0e1117 as a line (most pass 4.5:1 as text too). The light ones pass 3:1 on white as lines and,
# where a figure writes text in them (annotations), 4.5:1.
SERIES_DARK: dict[str, str] = {
    "#2b6cb0": "#63b3ed",  # blue: the app's accent
    "#c05621": "#f6ad55",  # orange
    "#2f855a": "#68d391",  # green
    "#805ad5": "#b794f4",  # purple
    "#c53030": "#fc8181",  # red
    "#2c7a7b": "#4fd1c5",  # teal
    "#975a16": "#f6e05e",  # ochre
    "#b83280": "#f687b3",  # pink
    "#718096": "#a0aec0",  # muted: reference lines, the other curves
    "#4a5568": "#cbd5e0",  # a mark (the scrubbed step)
    "#1a202c": "#f7fafc",  # near-black ink: outlines, labels
}


def active() -> Palette:
    """The palette of the theme on the reader's screen; the light one outside a script run (tests,
    the Reproduce scripts) and when the browser has not said (``st.context.theme.type`` is None)."""
    try:
        kind = st.context.theme.type
    except Exception:  # no script run context: a test or a script building a figure
        kind = None
    return DARK if kind == "dark" else LIGHT


_AXES = ("xaxis", "yaxis", "zaxis")
_CARTESIAN = {"scatter", "bar", "heatmap", "histogram", "box"}


def _chrome_axis(axis: dict[str, Any], p: Palette) -> None:
    axis.setdefault("tickfont", {}).setdefault("color", p.chrome)
    title = axis.get("title")
    if isinstance(title, str):
        axis["title"] = {"text": title}
    if isinstance(axis.get("title"), dict):
        axis["title"].setdefault("font", {}).setdefault("color", p.text)
    axis.setdefault("gridcolor", p.grid)
    axis.setdefault("linecolor", p.grid)
    axis.setdefault("zerolinecolor", p.grid)


def _swap(value: Any) -> Any:
    """Every series colour in ``value`` (a spec, walked) as its dark counterpart. A colour scale is
    left as built: the dark sequential scale holds #2b6cb0, a series key, and swapping it made the
    cells near its stop brighter than the fill their text was picked for (2.56:1)."""
    if isinstance(value, str):
        return SERIES_DARK.get(value.lower(), value)
    if isinstance(value, dict):
        return {k: v if k == "colorscale" else _swap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v) for v in value]
    return value


def themed(spec: dict[str, Any], p: Palette) -> dict[str, Any]:
    """``spec`` (a figure's ``{"data", "layout"}``) in ``p``'s colours: series colours swapped in
    the dark theme, and the chrome (font, titles, ticks, legend, colour bars) set in the theme's
    text colours wherever the figure left them to Streamlit, whose own grey fails 4.5:1."""
    out = _swap(spec) if p.mode == "dark" else spec
    layout = out.setdefault("layout", {})
    layout.setdefault("font", {}).setdefault("color", p.text)
    if isinstance(layout.get("title"), dict):
        layout["title"].setdefault("font", {}).setdefault("color", p.text)
    layout.setdefault("legend", {}).setdefault("font", {}).setdefault("color", p.chrome)
    kinds = {t.get("type", "scatter") for t in out.get("data", []) if isinstance(t, dict)}
    if kinds & _CARTESIAN:  # axes a figure leaves implicit are drawn too, in Streamlit's grey
        layout.setdefault("xaxis", {})
        layout.setdefault("yaxis", {})
    for key, axis in list(layout.items()):
        if key.startswith(_AXES) and isinstance(axis, dict):
            _chrome_axis(axis, p)
        if key.startswith("scene") and isinstance(axis, dict):
            for name in _AXES:
                _chrome_axis(axis.setdefault(name, {}), p)
    for trace in out.get("data", []):
        bar = trace.get("colorbar") if isinstance(trace, dict) else None
        if isinstance(bar, dict):
            bar.setdefault("tickfont", {}).setdefault("color", p.chrome)
            if isinstance(bar.get("title"), dict):
                bar["title"].setdefault("font", {}).setdefault("color", p.text)
    return out
