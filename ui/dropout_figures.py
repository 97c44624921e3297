"""Figure builders for the dropout page (figure 04): a dropped matrix with its row sums, the
running mean of the row sums with its sampling band, and the zero-row rates against pᶦ.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.figures import (
    ACCENT,
    MUTED,
    SECOND,
    TEXT_CELLS_MAX,
    cell_text,
    figure,
    heatmap_axes,
    heatmap_height,
    heatmap_trace,
    layout,
    plain,
)

MAX_POINTS = 600  # a 100,000-draw running mean is recorded and drawn at this many log-spaced counts
SPLIT = 0.8148  # the matrix's share of the width; the row-sum column starts 0.03 further right


def dropped_heatmap(
    matrix: np.ndarray,
    row_sums: np.ndarray,
    labels: Sequence[str],
    *,
    title: str | None = None,
    zmax: float | None = None,
    height: int = 360,
) -> go.Figure:
    """One dropped matrix beside a column of its row sums, coloured around 1 (white = sums to 1,
    blue falls short, red overshoots)."""
    m, s = np.asarray(matrix, dtype=np.float64), np.asarray(row_sums, dtype=np.float64)
    top = zmax if zmax is not None else max(float(m.max()), 1e-12)
    weights = heatmap_trace(m, labels, labels, zmin=0.0, zmax=top)
    bound = max(float(np.max(np.abs(s - 1.0))), 1e-12)
    sums = heatmap_trace(
        (s - 1.0)[:, None],
        labels,
        ["row sum"],
        diverging=True,
        zmin=-bound,
        zmax=bound,
        text=[[cell_text(v, 4)] for v in s],
    )
    sums.update(xaxis="x2", yaxis="y2", hovertemplate="%{y}: row sum %{text}<extra></extra>")
    x, y = heatmap_axes(len(labels), len(labels))
    x2, _ = heatmap_axes(len(labels), 1)
    spec = layout(
        title,
        heatmap_height(len(labels), height),
        xaxis={**x, "domain": [0.0, SPLIT]},
        yaxis=y,
        xaxis2={**x2, "domain": [SPLIT + 0.03, 1.0], "anchor": "y2"},
        yaxis2={**y, "anchor": "x2", "showticklabels": False},
    )
    return figure([weights, sums], spec)


def running_mean_chart(
    counts: np.ndarray,
    running_mean: np.ndarray,
    expectation: float,
    std: float,
    *,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Running mean row sum after ``counts`` draws (log axis), with ``expectation ± 2σ/√k``.

    The page's study records the mean at about :data:`MAX_POINTS` log-spaced counts, so the chart
    is drawn from what the cache holds, not from every draw.
    """
    r = np.asarray(running_mean, dtype=np.float64)
    k = np.asarray(counts, dtype=np.float64)
    band = 2.0 * std / np.sqrt(k)
    data = [
        {
            "type": "scatter",
            "x": np.concatenate([k, k[::-1]]).tolist(),
            "y": np.concatenate([expectation + band, (expectation - band)[::-1]]).tolist(),
            "fill": "toself",
            "fillcolor": "rgba(160, 174, 192, 0.25)",
            "line": {"width": 0},
            "hoverinfo": "skip",
            "name": "expectation ± 2 standard errors",
        },
        {
            "type": "scatter",
            "x": [1, float(k[-1])],
            "y": [expectation, expectation],
            "mode": "lines",
            "line": {"color": MUTED, "dash": "dash"},
            "name": f"expectation {expectation:.4g}",
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "x": k.tolist(),
            "y": r.tolist(),
            "mode": "lines",
            "line": {"color": ACCENT, "width": 2},
            "name": "running mean row sum",
            "hovertemplate": "after %{x:,} draws: %{y:.4f}<extra></extra>",
        },
    ]
    half = max(1.0, 2.5 * std)  # room for the first draws at high p, where one draw's sum swings widely
    spec = layout(
        title,
        height,
        xaxis={"type": "log", "title": {"text": "draws"}},
        yaxis={
            "range": [max(expectation - half, -0.05), expectation + half],
            "title": {"text": "mean row sum"},
        },
        legend={"orientation": "h", "y": -0.25, "x": 0},
    )
    return figure(data, spec)


def zero_rate_chart(
    rate: np.ndarray,
    theory: np.ndarray,
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Measured share of draws where each row is the zero vector (bars) against ``pᶦ`` (markers).

    Past ``TEXT_CELLS_MAX`` tokens a bar is named by its row number alone, the token on hover."""
    r, t = np.asarray(rate, dtype=np.float64), np.asarray(theory, dtype=np.float64)
    many = len(labels) > TEXT_CELLS_MAX
    names = [str(i + 1) if many else f"{plain(lab)}<br>i = {i + 1}" for i, lab in enumerate(labels)]
    data = [
        {
            "type": "bar",
            "x": names,
            "y": r.tolist(),
            "marker": {"color": ACCENT},
            "name": "measured",
            "customdata": [plain(lab) for lab in labels],
            "hovertemplate": "%{customdata}, row %{x}: zero on %{y:.2%} of draws<extra></extra>"
            if many
            else "%{x}: zero on %{y:.2%} of draws<extra></extra>",
        },
        {
            "type": "scatter",
            "x": names,
            "y": t.tolist(),
            "mode": "markers",
            "marker": {
                "color": SECOND,
                "size": 12 if many else 34,
                "symbol": "line-ew",
                "line": {"color": SECOND, "width": 3},
            },
            "name": "theory pᶦ",
            "hovertemplate": "%{x}: pᶦ = %{y:.2%}<extra></extra>",
        },
    ]
    top = float(max(np.max(r), np.max(t), 0.05))
    spec = layout(
        title,
        height,
        xaxis={"type": "category", "title": {"text": "row i" if many else ""}},
        yaxis={"range": [0, min(1.05, top * 1.15)], "tickformat": ".0%", "title": {"text": "share of draws"}},
        legend={"orientation": "h", "y": -0.2, "x": 0},
        bargap=0.35,
    )
    return figure(data, spec)
