"""Plotly figure builders with one look for the whole app.

Heatmaps carry token labels and 4-decimal cell text, as the book prints tensors. Sequential
quantities (scores, weights) use ``SEQUENTIAL``; signed differences (Ω − Ωᵀ, the two masking
paths) use ``DIVERGING`` centred on zero, so white always means "no difference".

Builders write the figure as a plain Plotly spec and wrap it without validating it
(``figure``): ``st.plotly_chart`` validates every figure once anyway, and building through
graph_objects' ``update_*`` calls cost tens of milliseconds a figure, most of a page's rerun.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.colors as pcolors
import plotly.graph_objects as go
import streamlit as st


def _scale(colors: Sequence[str]) -> list[list[Any]]:
    return [[i / (len(colors) - 1), c] for i, c in enumerate(colors)]


# Explicit scales: a name such as "Blues" means light-to-dark to plotly.py but dark-to-grey to
# plotly.js, and the spec reaches the browser as written.
SEQUENTIAL = _scale(pcolors.sequential.Blues)  # light (low) to dark (high)
DIVERGING = _scale(pcolors.diverging.RdBu[::-1])  # blue (negative), white (0), red (positive)
ACCENT = "#2b6cb0"
SECOND = "#dd6b20"
THIRD = "#2f855a"
MUTED = "#a0aec0"
PALETTE = (ACCENT, SECOND, THIRD, "#805ad5", "#c53030", "#319795")
FONT = dict(family="Inter, system-ui, sans-serif", size=13)

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}
TEXT_CELLS_MAX = 12  # tokens a side past which cells lose their printed values (hover keeps them)


def plain(label: str) -> str:
    """A label as Plotly text that shows exactly what it says: Plotly reads a subset of HTML
    (``<b>``, ``<a href>``) in every label, and a reader's token is text, never markup."""
    return html.escape(str(label), quote=False)


def heatmap_axes(rows: int, cols: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """``HEATMAP_X`` and ``HEATMAP_Y`` fitted to a matrix of ``rows`` × ``cols`` tokens: smaller
    labels past a dozen, column labels free to turn when they would overlap. Category axes, so
    tokens such as ``1`` or ``2024-01-01`` are never read as numbers or dates."""

    def size(count: int, big: int) -> int:
        return big if count <= TEXT_CELLS_MAX else big - 2 if count <= 20 else big - 3

    x = {**HEATMAP_X, "type": "category", "tickfont": {"size": size(cols, 11)}}
    if cols > 8:
        x.pop("tickangle")
    y = {**HEATMAP_Y, "type": "category", "tickfont": {"size": size(rows, 12)}}
    return x, y


def heatmap_height(rows: int, height: int) -> int:
    """``height``, or taller when the rows would be squeezed below a readable 15 px each."""
    return max(height, 120 + 15 * rows)


def layout(title: str | None, height: int, **extra: Any) -> dict[str, Any]:
    """The app's layout: left-aligned title, tight margins, one font. No named template:
    Streamlit's own theme is what ``st.plotly_chart`` renders with."""
    base: dict[str, Any] = {
        "font": FONT,
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
    }
    if title:
        base["title"] = {"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}}
    base.update(extra)
    return base


def figure(data: list[dict[str, Any]], layout_spec: dict[str, Any]) -> go.Figure:
    """Wrap a spec as a Figure without validating it here (``st.plotly_chart`` validates it)."""
    return go.Figure({"data": data, "layout": layout_spec}, _validate=False)


def cell_text(v: float, decimals: int = 4) -> str:
    """One heatmap cell as the book prints it; ``−∞`` for a mask fill, blank for NaN."""
    if np.isnan(v):
        return ""
    if np.isinf(v):
        return "−∞" if v < 0 else "∞"
    s = f"{v:.{decimals}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def heatmap_trace(
    matrix: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    diverging: bool = False,
    decimals: int = 4,
    zmin: float | None = None,
    zmax: float | None = None,
    text: Sequence[Sequence[str]] | None = None,
    colorbar: bool = False,
) -> dict[str, Any]:
    """The trace of :func:`heatmap`, for figures that place several heatmaps or change a key.

    Labels are plain text (:func:`plain`). Past ``TEXT_CELLS_MAX`` tokens a side the values are
    left to the hover, as 32 × 32 printed cells would be unreadable. Non-finite cells (a ``-inf``
    mask fill) are shown blank with their text kept, never as a colour, so no NaN or inf reaches
    the colour scale. A diverging scale is centred on zero, ``±`` the largest finite magnitude
    unless ``zmin``/``zmax`` say otherwise.
    """
    m = np.asarray(matrix, dtype=np.float64)
    finite = np.isfinite(m)
    printed = max(len(rows), len(cols)) <= TEXT_CELLS_MAX
    # Unprinted and all finite: the hover formats z itself, and no 32 × 32 text array is built,
    # copied twice by Plotly and shipped.
    hover_z = text is None and not printed and bool(finite.all())
    if text is None and not hover_z:
        text = [[cell_text(v, decimals) for v in row] for row in m]
    if diverging and zmin is None and zmax is None:
        bound = float(np.max(np.abs(m[finite]))) if finite.any() else 1.0
        bound = bound if bound > 0 else 1.0
        zmin, zmax = -bound, bound
    trace: dict[str, Any] = {
        "type": "heatmap",
        "z": np.where(finite, m, None).tolist(),
        "x": [plain(c) for c in cols],
        "y": [plain(r) for r in rows],
        "hovertemplate": f"%{{y}} → %{{x}}: %{{z:.{decimals}f}}<extra></extra>"
        if hover_z
        else "%{y} → %{x}: %{text}<extra></extra>",
        "colorscale": DIVERGING if diverging else SEQUENTIAL,
        "showscale": colorbar,
        "xgap": 1,
        "ygap": 1,
    }
    if text is not None:
        trace["text"] = [list(r) for r in text]
        trace["texttemplate"] = "%{text}" if printed else ""
    if zmin is not None:
        trace["zmin"] = zmin
    if zmax is not None:
        trace["zmax"] = zmax
    return trace


# A heatmap's axes: rows top to bottom as the matrix prints, level column labels.
HEATMAP_Y = {"autorange": "reversed", "tickfont": {"size": 12}}
HEATMAP_X = {"side": "bottom", "tickangle": 0, "tickfont": {"size": 11}}


def heatmap(
    matrix: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str | None = None,
    diverging: bool = False,
    decimals: int = 4,
    zmin: float | None = None,
    zmax: float | None = None,
    height: int = 340,
    text: Sequence[Sequence[str]] | None = None,
    colorbar: bool = False,
) -> go.Figure:
    """A token-labelled heatmap, rows top to bottom as the matrix prints (see :func:`heatmap_trace`)."""
    trace = heatmap_trace(
        matrix,
        rows,
        cols,
        diverging=diverging,
        decimals=decimals,
        zmin=zmin,
        zmax=zmax,
        text=text,
        colorbar=colorbar,
    )
    x, y = heatmap_axes(len(rows), len(cols))
    return figure([trace], layout(title, heatmap_height(len(rows), height), yaxis=y, xaxis=x))


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str | None = None,
    color: str = ACCENT,
    decimals: int = 4,
    height: int = 300,
    y_range: tuple[float, float] | None = (0.0, 1.0),
    values_shown: bool = True,
) -> go.Figure:
    """A labelled bar chart (attention weights of one row, a softmax); ``values_shown=False``
    leaves the values to the hover, for bars too many to label."""
    v = np.asarray(values, dtype=np.float64)
    trace = {
        "type": "bar",
        "x": list(labels),
        "y": v.tolist(),
        "marker": {"color": color},
        "text": [cell_text(x, decimals) for x in v],
        "textposition": "outside" if values_shown else "none",
        "cliponaxis": False,
        "hovertemplate": "%{x}: %{y:.6f}<extra></extra>",
    }
    spec = layout(title, height)
    if y_range is not None:
        spec["yaxis"] = {"range": list(y_range)}
    return figure([trace], spec)


def scatter3d_tokens(
    sets: Sequence[tuple[str, np.ndarray]],
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 460,
) -> go.Figure:
    """Several sets of 3-d points (inputs, outputs), each point labelled with its token (past
    ``TEXT_CELLS_MAX`` tokens, on hover only). Wider points are drawn by their first three numbers."""
    data = []
    for (name, pts), color in zip(sets, PALETTE, strict=False):
        p = np.asarray(pts, dtype=np.float64)
        data.append(
            {
                "type": "scatter3d",
                "x": p[:, 0].tolist(),
                "y": p[:, 1].tolist(),
                "z": p[:, 2].tolist(),
                "mode": "markers+text" if len(labels) <= TEXT_CELLS_MAX else "markers",
                "name": name,
                "text": [plain(t) for t in labels],
                "textposition": "top center",
                "marker": {"size": 6, "color": color},
                "hovertemplate": "%{text}<br>(%{x:.4f}, %{y:.4f}, %{z:.4f})<extra>" + name + "</extra>",
            }
        )
    spec = layout(
        title,
        height,
        scene={
            "xaxis": {"title": {"text": "dim 1"}},
            "yaxis": {"title": {"text": "dim 2"}},
            "zaxis": {"title": {"text": "dim 3"}},
            "aspectmode": "cube",
        },
        legend={"orientation": "h", "y": 1.02, "x": 0},
    )
    return figure(data, spec)


def show(fig: go.Figure | dict[str, Any], key: str | None = None) -> None:
    """Draw a figure at full width with the app's toolbar settings."""
    st.plotly_chart(fig, width="stretch", config=PLOTLY_CONFIG, key=key)
