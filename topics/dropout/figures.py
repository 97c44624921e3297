"""Figure builders for the dropout page (figure 04): a dropped matrix with its row sums, the
running mean of the row sums with its sampling band, and the zero-row rates against pᶦ.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.dropout import text
from topics.dropout.view import View
from ui import format as fmt
from ui.cell import TOP
from ui.figures import (
    ACCENT,
    MUTED,
    SECOND,
    TEXT_MAX,
    Chart,
    Relative,
    cell_text,
    figure,
    grid,
    heatmap,
    heatmap_axes,
    heatmap_height,
    layout,
    log_ticks,
    matrix_frame,
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
    cell: int | None = None,
    relative: Relative | None = None,
) -> go.Figure:
    """One dropped matrix beside a column of its row sums, both drawn by ``ui.figures.grid``.

    The weights keep the 0–1 scale of the matrix before dropout, so a survivor scaled up by
    1/(1 − p) reads darker than it was (past 1 it saturates; its cell still prints the value).
    With ``relative`` the weights, never the signed sums, are coloured from 0 to the largest
    weight of the matrix or of each row (``ui.figures.relative_colours``).
    The sums are coloured around 1: a sum of 1 is uncoloured, blue falls short, red overshoots. Both
    panels share the query axis, so a focused row runs through the matrix and its sum; ``cell``
    outlines one key of it. A click on a weight picks its query and key; a click on a row sum
    picks that query and its largest weight (the cell control's ``TOP``), since a sum has no key.
    """
    m, s = np.asarray(matrix, dtype=np.float64), np.asarray(row_sums, dtype=np.float64)
    weights = grid(m, labels, labels, zmin=0.0, zmax=1.0, focus=focus, cell=cell, relative=relative)
    bound = max(float(np.max(np.abs(s - 1.0))), 1e-12)
    sum_text = [cell_text(v, 4) for v in s]
    sums = grid(
        (s - 1.0)[:, None],
        labels,
        ["sum"],
        diverging=True,
        zmin=-bound,
        zmax=bound,
        text=[[t] for t in sum_text],
        colorbar=False,  # the column prints its sums
        focus=focus,
        xref="x2",
        tile=1,
    )
    marker = sums.traces[-1]  # the clickable markers: a sum names its row, and picks no key
    marker["customdata"] = [[1, i, TOP] for i in range(len(labels))]
    marker["hovertext"] = [f"{plain(t)}: row sum: {v}" for t, v in zip(labels, sum_text, strict=True)]
    xaxis, yaxis = heatmap_axes(labels, labels, focus=focus)
    xaxis2, _ = heatmap_axes(labels, ["sum"], x_title="row sum")
    n = len(labels)
    spec = layout(
        title,
        heatmap_height(n, height),
        xaxis={**xaxis, "domain": [0.0, SPLIT]},
        yaxis=yaxis,
        xaxis2={**xaxis2, "domain": [SPLIT + 0.03, 1.0], "anchor": "y", "showticklabels": False},
        shapes=weights.shapes + sums.shapes,
        hovermode="closest",
        hoverdistance=-1,  # a click anywhere in a cell picks its marker (see ui.figures.grid)
    )
    spec["margin"].update(l=0, r=2)
    return figure(weights.traces + sums.traces, spec)


def running_mean_chart(
    counts: np.ndarray,
    running_mean: np.ndarray,
    expectation: float,
    std: float,
    *,
    text: Sequence[str] | None = None,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Running mean row sum after ``counts`` draws (log axis), with ``expectation ± 2σ/√k``.

    The page's study records the mean at about ``view.MAX_POINTS`` log-spaced counts, so the chart
    is drawn from what the cache holds, not from every draw. ``text`` is each point as the view
    prints it, with its standard error (``View.running_text``); the hover shows it.
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
            **(
                {"text": list(text), "hovertemplate": "after %{x:,} draws: %{text}<extra></extra>"}
                if text is not None
                else {"hovertemplate": "after %{x:,} draws: %{y:.4f}<extra></extra>"}
            ),
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


PHONE_BARS_PX = 280  # the bars' width in a 390 px phone's chart (less padding and the y axis)
CHAR_PX = 5.8  # a character of the 10 px tick font, generously


def _fit(label: str, n: int) -> str:
    """``label`` cut to the width of one of ``n`` bars on a phone, with an ellipsis when cut."""
    room = max(int(PHONE_BARS_PX / n / CHAR_PX) - 1, 3)
    return label if len(label) <= room else label[: room - 1] + "…"


def zero_rate_chart(
    rate: np.ndarray,
    theory: np.ndarray,
    labels: Sequence[str],
    *,
    error: np.ndarray | None = None,
    text: Sequence[str] | None = None,
    theory_text: Sequence[str] | None = None,
    title: str | None = None,
    height: int = 340,
) -> go.Figure:
    """Measured share of draws where each row is the zero vector (bars, with ± 2 standard errors
    when ``error`` is given) against ``pᶦ`` (markers).

    ``text`` and ``theory_text`` are the shares as the view prints them (the measured ones with
    their standard error); the hover shows them. Past ``TEXT_MAX`` tokens a bar is named by its row
    number alone, the token on hover."""
    r, t = np.asarray(rate, dtype=np.float64), np.asarray(theory, dtype=np.float64)
    shown = list(text) if text is not None else [f"{100 * x:.2f}%" for x in r]
    shown_t = list(theory_text) if theory_text is not None else [f"{100 * x:.2f}%" for x in t]
    many = len(labels) > TEXT_MAX
    names = [
        str(i + 1) if many else f"i = {i + 1}<br>{plain(_fit(lab, len(labels)))}"
        for i, lab in enumerate(labels)
    ]
    data = [
        {
            "type": "bar",
            "x": names,
            "y": r.tolist(),
            "marker": {"color": ACCENT},
            "name": "measured" if error is None else "measured ± 2 standard errors",
            **(
                {}
                if error is None
                else {"error_y": {"type": "data", "array": (2 * np.asarray(error)).tolist(), "color": MUTED}}
            ),
            "customdata": [[plain(lab), s] for lab, s in zip(labels, shown, strict=True)],
            "hovertemplate": "%{customdata[0]}, row %{x}: zero on %{customdata[1]} of draws<extra></extra>"
            if many
            else "%{customdata[0]}: zero on %{customdata[1]} of draws<extra></extra>",
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
            "text": shown_t,
            "hovertemplate": "%{x}: pᶦ = %{text}<extra></extra>",
        },
    ]
    reach = r if error is None else r + 2 * np.asarray(error)
    top = float(max(np.max(reach), np.max(t), 0.05))
    spec = layout(
        title,
        height,
        # level labels, sized to a 390 px phone's bars: Plotly turned them and the turn was clipped
        xaxis={
            "type": "category",
            "title": {"text": "row i" if many else ""},
            "tickangle": 0,
            "tickfont": {"size": 10},
        },
        yaxis={"range": [0, min(1.05, top * 1.15)], "tickformat": ".0%", "title": {"text": "share of draws"}},
        legend={"orientation": "h", "y": -0.2, "x": 0},
        bargap=0.35,
    )
    return figure(data, spec)


def rows_table(v: View) -> pd.DataFrame:
    """The table under the charts, a row per query: how often it died against pᶦ, its mean sum,
    each Monte Carlo figure with its standard error."""
    return pd.DataFrame(
        {
            "live weights": range(1, len(v.labels) + 1),
            "zero vector, measured": list(v.zero_rate_text),
            "theory pᶦ": list(v.zero_theory_text),
            "mean row sum": list(v.row_sum_text),
        },
        index=pd.Index([f"{i + 1}: {t}" for i, t in enumerate(v.labels)], name="row i: query"),
    )


def _counts_for_table(counts: np.ndarray) -> list[int]:
    """The rows of the running mean's table: the recorded counts at 1, 2 and 5 of each decade (the
    largest recorded at or below each), and the last; the chart draws every recorded count."""
    k = np.asarray(counts, dtype=np.int64)
    targets = [m * 10**e for e in range(int(np.log10(max(int(k[-1]), 1))) + 1) for m in (1, 2, 5)]
    at = {int(k[max(int(np.searchsorted(k, t, side="right")) - 1, 0)]) for t in targets if t <= k[-1]}
    return [int(i) for i in np.flatnonzero(np.isin(k, sorted(at | {int(k[-1])})))]


def charts(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The page's four charts, by the widget key each is drawn under, each named for a screen reader
    with its values as a table. ``relative`` colours the two weights matrices (``ui.scale``)."""
    return {**heatmaps(v, relative), **draw_charts(v)}


def heatmaps(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The two matrices, before and after one draw: what shows the focus (the page's focus fragment)."""
    t, n, f, c = v.labels, len(v.labels), None if v.focus is None else v.focus.row, v.cell_key
    size = fmt.size(n, n)
    scaled = (
        f"survivors scaled by {text.worked_factor(v.keep, v.factor)}" if v.scale else "survivors unscaled"
    )
    before = heatmap(
        v.weights, t, t, title="Causal weights, before dropout", focus=f, cell=c, relative=relative
    )
    draw = dropped_heatmap(
        v.first, v.row_sums, t, title="One draw after dropout, row sums", focus=f, cell=c, relative=relative
    )
    dropped = matrix_frame(v.first, t, t)
    dropped["row sum"] = [cell_text(s) for s in v.row_sums]
    return {
        "fig04_weights": Chart(
            before, f"Causal attention weights before dropout, {size}", matrix_frame(v.weights, t, t)
        ),
        "fig04_dropped": Chart(
            draw,
            f"One dropout draw at p = {text.rate(v.p)}, {scaled}: weights, {size}, and each row's sum",
            dropped,
        ),
    }


def draw_charts(v: View) -> dict[str, Chart]:
    """The statistics of all the draws: the running mean and the zero-row rates (no focus)."""
    t, n = v.labels, len(v.labels)
    rows = "the one row" if n == 1 else f"each of {n} rows"
    texts = v.running_text
    running = running_mean_chart(
        v.running_at, v.running_mean, v.expectation, v.std, text=texts, title="Running mean row sum"
    )
    at = _counts_for_table(v.running_at)
    running_table = pd.DataFrame(
        {
            "running mean row sum ± standard error": [texts[i] for i in at],
            "expectation": [f"{v.expectation:.4g}"] * len(at),
        },
        index=pd.Index([int(v.running_at[i]) for i in at], name="draws"),
    )
    zero = zero_rate_chart(
        v.zero_rate,
        v.zero_theory,
        t,
        error=v.zero_rate_se,
        text=v.zero_rate_text,
        theory_text=v.zero_theory_text,
        title="How often each row is the zero vector",
    )
    zero_table = pd.DataFrame(
        {
            "token": list(t),
            "zero vector, measured ± standard error": list(v.zero_rate_text),
            "theory pᶦ": list(v.zero_theory_text),
        },
        index=pd.Index(range(1, n + 1), name="row i"),
    )
    return {
        "fig04_running": Chart(
            running,
            f"Running mean row sum over {v.draws:,} draws against its expectation, {v.expectation:.4g}, "
            "with a band of ± 2 standard errors",
            running_table,
        ),
        "fig04_zero": Chart(
            zero,
            f"Bars: the measured share of {v.draws:,} draws in which {rows} is the zero vector; "
            "marks: pᶦ, the theory",
            zero_table,
        ),
    }
