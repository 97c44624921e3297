"""Figure builders for the dropout page (figure 04): a dropped matrix with its row sums, the
running mean of the row sums with its sampling band, and the zero-row rates against pᶦ.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.figures import ACCENT, DIVERGING, MUTED, SECOND, SEQUENTIAL, apply_layout, cell_text

MAX_POINTS = 600  # a 100,000-draw running mean is drawn from this many log-spaced points


def dropped_heatmap(
    matrix: np.ndarray,
    row_sums: np.ndarray,
    labels: Sequence[str],
    *,
    title: str | None = None,
    zmax: float | None = None,
    height: int = 360,
) -> go.Figure:
    """One dropped matrix beside a column of its row sums, coloured around 1 (white = sums to 1)."""
    m, s = np.asarray(matrix, dtype=np.float64), np.asarray(row_sums, dtype=np.float64)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.84, 0.16], horizontal_spacing=0.03)
    fig.add_trace(
        go.Heatmap(
            z=m,
            x=list(labels),
            y=list(labels),
            text=[[cell_text(v, 4) for v in row] for row in m],
            texttemplate="%{text}",
            hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
            colorscale=SEQUENTIAL,
            zmin=0.0,
            zmax=zmax if zmax is not None else max(float(m.max()), 1e-12),
            showscale=False,
            xgap=1,
            ygap=1,
        ),
        row=1,
        col=1,
    )
    bound = max(float(np.max(np.abs(s - 1.0))), 1e-12)
    fig.add_trace(
        go.Heatmap(
            z=(s - 1.0)[:, None],
            x=["row sum"],
            y=list(labels),
            text=[[cell_text(v, 4)] for v in s],
            texttemplate="%{text}",
            hovertemplate="%{y}: row sum %{text}<extra></extra>",
            colorscale=DIVERGING,
            reversescale=True,
            zmin=-bound,
            zmax=bound,
            showscale=False,
            xgap=1,
            ygap=1,
        ),
        row=1,
        col=2,
    )
    fig.update_yaxes(autorange="reversed", tickfont=dict(size=12))
    fig.update_yaxes(showticklabels=False, row=1, col=2)
    fig.update_xaxes(side="bottom", tickangle=0, tickfont=dict(size=11))
    return apply_layout(fig, title, height)


def _thin(count: int, points: int = MAX_POINTS) -> np.ndarray:
    """Indices 0..count-1, log-spaced down to about ``points`` (the early wobble keeps its detail)."""
    if count <= points:
        return np.arange(count)
    return np.unique(np.geomspace(1, count, points).astype(int) - 1)


def running_mean_chart(
    running_mean: np.ndarray,
    expectation: float,
    std: float,
    *,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Running mean row sum against the number of draws (log axis), with ``expectation ± 2σ/√k``."""
    r = np.asarray(running_mean, dtype=np.float64)
    idx = _thin(len(r))
    k = idx + 1.0
    band = 2.0 * std / np.sqrt(k)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=np.concatenate([k, k[::-1]]),
            y=np.concatenate([expectation + band, (expectation - band)[::-1]]),
            fill="toself",
            fillcolor="rgba(160, 174, 192, 0.25)",
            line=dict(width=0),
            hoverinfo="skip",
            name="expectation ± 2 standard errors",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[1, len(r)],
            y=[expectation, expectation],
            mode="lines",
            line=dict(color=MUTED, dash="dash"),
            name=f"expectation {expectation:.4g}",
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=k,
            y=r[idx],
            mode="lines",
            line=dict(color=ACCENT, width=2),
            name="running mean row sum",
            hovertemplate="after %{x:,} draws: %{y:.4f}<extra></extra>",
        )
    )
    half = max(1.0, 2.5 * std)  # room for the first draws at high p, where one draw's sum swings widely
    fig.update_xaxes(type="log", title="draws")
    fig.update_yaxes(range=[max(expectation - half, -0.05), expectation + half], title="mean row sum")
    fig.update_layout(legend=dict(orientation="h", y=-0.25, x=0))
    return apply_layout(fig, title, height)


def zero_rate_chart(
    rate: np.ndarray,
    theory: np.ndarray,
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Measured share of draws where each row is the zero vector (bars) against ``pᶦ`` (markers)."""
    r, t = np.asarray(rate, dtype=np.float64), np.asarray(theory, dtype=np.float64)
    names = [f"{lab}<br>i = {i + 1}" for i, lab in enumerate(labels)]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=names,
            y=r,
            marker_color=ACCENT,
            name="measured",
            hovertemplate="%{x}: zero on %{y:.2%} of draws<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=names,
            y=t,
            mode="markers",
            marker=dict(color=SECOND, size=34, symbol="line-ew", line=dict(color=SECOND, width=3)),
            name="theory pᶦ",
            hovertemplate="%{x}: pᶦ = %{y:.2%}<extra></extra>",
        )
    )
    top = float(max(np.max(r), np.max(t), 0.05))
    fig.update_yaxes(range=[0, min(1.05, top * 1.15)], tickformat=".0%", title="share of draws")
    fig.update_layout(legend=dict(orientation="h", y=-0.2, x=0), bargap=0.35)
    return apply_layout(fig, title, height)
