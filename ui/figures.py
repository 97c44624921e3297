"""Plotly figure builders with one look for the whole app.

Heatmaps carry token labels and 4-decimal cell text, as the book prints tensors. Sequential
quantities (scores, weights) use ``SEQUENTIAL``; signed differences (Ω − Ωᵀ, the two masking
paths) use ``DIVERGING`` centred on zero, so white always means "no difference".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

SEQUENTIAL = "Blues"
DIVERGING = "RdBu"
ACCENT = "#2b6cb0"
SECOND = "#dd6b20"
THIRD = "#2f855a"
MUTED = "#a0aec0"
PALETTE = (ACCENT, SECOND, THIRD, "#805ad5", "#c53030", "#319795")
FONT = dict(family="Inter, system-ui, sans-serif", size=13)

PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def _layout(fig: go.Figure, title: str | None, height: int) -> go.Figure:
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left", font=dict(size=15)) if title else None,
        template="plotly_white",
        font=FONT,
        height=height,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
    )
    return fig


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
    """A token-labelled heatmap, rows top to bottom as the matrix prints.

    Non-finite cells (a ``-inf`` mask fill) are shown blank with their text kept, never as a
    colour, so no NaN or inf reaches the colour scale.
    """
    m = np.asarray(matrix, dtype=np.float64)
    finite = np.isfinite(m)
    z = np.where(finite, m, np.nan)
    if text is None:
        text = [[_cell(v, decimals) for v in row] for row in m]
    if diverging:
        bound = float(np.nanmax(np.abs(z))) if finite.any() else 1.0
        bound = bound if bound > 0 else 1.0
        zmin, zmax = -bound, bound
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=list(cols),
            y=list(rows),
            text=text,
            texttemplate="%{text}",
            hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
            colorscale=DIVERGING if diverging else SEQUENTIAL,
            reversescale=diverging,
            zmin=zmin,
            zmax=zmax,
            showscale=colorbar,
            xgap=1,
            ygap=1,
        )
    )
    fig.update_yaxes(autorange="reversed", tickfont=dict(size=12))
    fig.update_xaxes(side="bottom", tickangle=0, tickfont=dict(size=11))
    return _layout(fig, title, height)


def _cell(v: float, decimals: int) -> str:
    if np.isnan(v):
        return ""
    if np.isinf(v):
        return "−∞" if v < 0 else "∞"
    s = f"{v:.{decimals}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str | None = None,
    color: str = ACCENT,
    decimals: int = 4,
    height: int = 300,
    y_range: tuple[float, float] | None = (0.0, 1.0),
) -> go.Figure:
    """A labelled bar chart (attention weights of one row, a softmax)."""
    v = np.asarray(values, dtype=np.float64)
    fig = go.Figure(
        go.Bar(
            x=list(labels),
            y=v,
            marker_color=color,
            text=[_cell(x, decimals) for x in v],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.6f}<extra></extra>",
        )
    )
    if y_range is not None:
        fig.update_yaxes(range=list(y_range))
    return _layout(fig, title, height)


def scatter3d_tokens(
    sets: Sequence[tuple[str, np.ndarray]],
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 460,
) -> go.Figure:
    """Several sets of 3-d points (inputs, outputs), each point labelled with its token."""
    fig = go.Figure()
    for (name, pts), color in zip(sets, PALETTE, strict=False):
        p = np.asarray(pts, dtype=np.float64)
        fig.add_trace(
            go.Scatter3d(
                x=p[:, 0],
                y=p[:, 1],
                z=p[:, 2],
                mode="markers+text",
                name=name,
                text=list(labels),
                textposition="top center",
                marker=dict(size=6, color=color),
                hovertemplate="%{text}<br>(%{x:.4f}, %{y:.4f}, %{z:.4f})<extra>" + name + "</extra>",
            )
        )
    fig.update_layout(
        scene=dict(xaxis_title="dim 1", yaxis_title="dim 2", zaxis_title="dim 3", aspectmode="cube"),
        legend=dict(orientation="h", y=1.02, x=0),
    )
    return _layout(fig, title, height)


def show(fig: go.Figure, key: str | None = None) -> None:
    """Draw a figure at full width with the app's toolbar settings."""
    st.plotly_chart(fig, width="stretch", config=PLOTLY_CONFIG, key=key)
