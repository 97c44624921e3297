"""Figure builders for the dropout page (figure 04): a dropped matrix with its row sums, the
running mean of the row sums with its sampling band, and the zero-row rates against pᶦ.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.dropout.view import View
from ui import format as fmt
from ui.figures import (
    ACCENT,
    MUTED,
    SECOND,
    TEXT_MAX,
    cell_text,
    figure,
    focus_shapes,
    heatmap_axes,
    heatmap_height,
    heatmap_trace,
    layout,
    log_ticks,
    plain,
)

SPLIT = 0.8148  # the matrix's share of the width; the row-sum column starts 0.03 further right


def dropped_heatmap(
    matrix: np.ndarray,
    row_sums: np.ndarray,
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 360,
    focus: int | None = None,
) -> go.Figure:
    """One dropped matrix beside a column of its row sums.

    The weights keep the 0–1 scale of the matrix before dropout, so a survivor scaled up by
    1/(1 − p) reads darker than it was (past 1 it saturates; its cell still prints the value).
    The sums are coloured around 1: white sums to 1, blue falls short, red overshoots. Both
    panels share the query axis, so a focused row runs through the matrix and its sum.
    """
    m, s = np.asarray(matrix, dtype=np.float64), np.asarray(row_sums, dtype=np.float64)
    weights = heatmap_trace(m, labels, labels, zmin=0.0, zmax=1.0)
    bound = max(float(np.max(np.abs(s - 1.0))), 1e-12)
    sums = heatmap_trace(
        (s - 1.0)[:, None],
        labels,
        ["sum"],
        diverging=True,
        zmin=-bound,
        zmax=bound,
        text=[[cell_text(v, 4)] for v in s],
        colorbar=False,  # the column prints its sums
    )
    sums.update(xaxis="x2", hovertemplate="%{y}: row sum %{text}<extra></extra>")
    xaxis, yaxis = heatmap_axes(labels, labels, focus=focus)
    xaxis2, _ = heatmap_axes(labels, ["sum"], x_title="row sum")
    n = len(labels)
    spec = layout(
        title,
        heatmap_height(n, height),
        xaxis={**xaxis, "domain": [0.0, SPLIT]},
        yaxis=yaxis,
        xaxis2={**xaxis2, "domain": [SPLIT + 0.03, 1.0], "anchor": "y", "showticklabels": False},
        shapes=focus_shapes(focus, n, n) + focus_shapes(focus, n, 1, xref="x2"),
    )
    return figure([weights, sums], spec)


def draw_caption(v: View) -> str:
    """The caption under the view's first draw: how to read the colours, which rows died."""
    dead = v.dead_rows
    factor = f"scaled up by 1/(1 − p) = {v.factor:.4g}" if v.survivor_factor != 1.0 else "not scaled"
    text = (
        f"Both matrices share the 0–1 scale; this draw's survivors are {factor}. Row sums are coloured "
        "around 1: white sums to 1, blue falls short, red overshoots. "
    )
    if not dead:
        text += "No row is the zero vector in this draw."
    else:
        rows = ", ".join(str(i) for i in dead)
        text += (
            f"Row{'s' if len(dead) > 1 else ''} {rows} {'are' if len(dead) > 1 else 'is'} the zero vector."
        )
    if v.book_draw:
        text += " This is the draw the book prints (PyTorch random numbers, seed 123, p = 0.5)."
    elif v.book_sentence:
        text += " PyTorch random numbers with seed 123 and p = 0.5 give the draw the book prints."
    else:
        text += (
            " On the book's sentence, PyTorch random numbers with seed 123 and p = 0.5 give the draw the "
            "book prints."
        )
    return text


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

    The page's study records the mean at about ``view.MAX_POINTS`` log-spaced counts, so the chart
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
        xaxis={"type": "log", "title": {"text": "draws"}, **log_ticks(1, float(k[-1]), counts=True)},
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

    Past ``TEXT_MAX`` tokens a bar is named by its row number alone, the token on hover."""
    r, t = np.asarray(rate, dtype=np.float64), np.asarray(theory, dtype=np.float64)
    many = len(labels) > TEXT_MAX
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


def rows_table(v: View) -> pd.DataFrame:
    """The table under the charts, a row per query: how often it died against pᶦ, its mean sum."""
    return pd.DataFrame(
        {
            "live weights": range(1, len(v.labels) + 1),
            "zero vector, measured": [fmt.percent(r) for r in v.zero_rate],
            "theory pᶦ": [fmt.percent(t, 2) for t in v.zero_theory],
            "mean row sum": [fmt.num(s) for s in v.row_sum_mean],
        },
        index=[f"{i + 1}: {t}" for i, t in enumerate(v.labels)],
    )
