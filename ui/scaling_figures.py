"""Figure builders for "Divide by √d_k" (figure 02): weights of one draw and the study against d_k.

Colours carry the divisor across every chart: orange is "no divisor", blue "divided by √d_k".
Log axes never receive a zero or a non-finite value: such points are dropped (the study never
produces them; this is the guard that keeps a figure honest if it did).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from core.scaling import DkResult
from ui.figures import ACCENT, FONT, MUTED, SECOND

RAW, SCALED = SECOND, ACCENT
# plotly_white as the app's other figures use it, trimmed to the layout and the two trace types drawn
# here: the full template is most of the cost of building and serialising a figure (~5x).
_WHITE = pio.templates["plotly_white"]
TEMPLATE = go.layout.Template(
    layout=_WHITE.layout, data=dict(bar=_WHITE.data.bar, scatter=_WHITE.data.scatter)
)
DK_TICKS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536)
DK_TICKS_NARROW = (1, 16, 256, 4096, 65536)  # for half-width charts, so the labels stay level


def sci_from_log10(log10: float, digits: int = 1) -> str:
    """``2.5e-353``: a number from its base-10 log, so weights below float64's range still print."""
    exponent = int(np.floor(log10))
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, digits) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.{digits}f}e{exponent}"


def small(x: float) -> str:
    """Book-style 4 decimals down to 1e-3, scientific below (a Jacobian entry of 1e-14 is not 0.0000)."""
    return f"{x:.4f}" if x >= 1e-3 else sci_from_log10(float(np.log10(x)))


def small_log10(log10: float) -> str:
    """:func:`small` for a number given by its base-10 log (a weight or entry below float64's range)."""
    return f"{10**log10:.4f}" if log10 >= -3 else sci_from_log10(log10)


def _positive(values: Sequence[float]) -> list[float | None]:
    """Values for a log axis: anything not finite and positive becomes a gap."""
    return [float(v) if v is not None and np.isfinite(v) and v > 0 else None for v in values]


def _figure(title: str, height: int) -> go.Figure:
    """An empty figure in the app's look (``ui.figures``), built with the trimmed template."""
    return go.Figure(
        layout=dict(
            template=TEMPLATE,
            title=dict(text=title, x=0, xanchor="left", font=dict(size=15)),
            font=FONT,
            height=height,
            margin=dict(l=10, r=10, t=40, b=10),
        )
    )


def _dk_axis(fig: go.Figure, selected: int | None, ticks: Sequence[int] = DK_TICKS) -> None:
    fig.update_xaxes(
        type="log",
        title="d_k",
        tickvals=list(ticks),
        ticktext=[f"{t:,}" for t in ticks],
        tickangle=0,
        showgrid=True,
    )
    if selected is not None:
        fig.add_vline(x=selected, line=dict(color=MUTED, dash="dot", width=1))


def weight_bars(log10_alpha: np.ndarray, scores: np.ndarray, *, divisor: bool, title: str):
    """One draw's attention weights; the text is read from the log-weights, so none reads 0."""
    alpha = 10.0 ** np.asarray(log10_alpha, dtype=np.float64)  # a weight below 1e-308 is a 0-high bar
    labels = [f"k{j + 1}" for j in range(len(alpha))]
    text = [small_log10(la) for la in log10_alpha]
    top = int(np.argmax(log10_alpha))
    rest = np.delete(np.asarray(log10_alpha, dtype=np.float64), top) * np.log(10)
    rest_log10 = float(np.logaddexp.reduce(rest) / np.log(10))  # log10(1 − α_top), never from a difference
    if rest_log10 < -4:
        text[top] = "1 − " + sci_from_log10(rest_log10)
    fig = _figure(title, 320)
    fig.add_trace(
        go.Bar(
            x=labels,
            y=alpha,
            marker_color=SCALED if divisor else RAW,
            text=text if len(text) <= 24 else None,  # beyond that the hover carries them
            textposition="outside",
            textangle=0 if len(text) <= 8 else -90,
            constraintext="none",
            textfont=dict(size=11),
            cliponaxis=False,
            customdata=np.asarray(scores, dtype=np.float64),
            hovertemplate="%{x}: weight %{text}<br>score %{customdata:.4f}<extra></extra>",
        )
    )
    fig.update_yaxes(range=[0, 1.08], title="weight α")
    fig.update_xaxes(tickangle=0)
    return fig


def std_figure(d_ks: Sequence[int], std: Sequence[float], std_se: Sequence[float], *, selected: int):
    """Measured std of q·k against the √d_k line, and of q·k/√d_k against 1, on log-log axes."""
    d = np.asarray(d_ks, dtype=np.float64)
    s, se = np.asarray(std, dtype=np.float64), np.asarray(std_se, dtype=np.float64)
    fig = _figure("Spread of the scores (bars: ±2 standard errors)", 380)
    fig.add_trace(go.Scatter(x=d, y=np.sqrt(d), mode="lines", name="√d_k", line=dict(color=RAW, width=1)))
    fig.add_trace(
        go.Scatter(
            x=d,
            y=_positive(s),
            mode="markers",
            name="std of q·k",
            marker=dict(color=RAW, size=7),
            error_y=dict(type="data", array=2 * se, visible=True, thickness=1),
            hovertemplate="d_k %{x:,}: %{y:.4g}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(x=d, y=np.ones_like(d), mode="lines", name="1", line=dict(color=SCALED, width=1))
    )
    fig.add_trace(
        go.Scatter(
            x=d,
            y=_positive(s / np.sqrt(d)),
            mode="markers",
            name="std of q·k/√d_k",
            marker=dict(color=SCALED, size=7, symbol="diamond"),
            hovertemplate="d_k %{x:,}: %{y:.4f}<extra></extra>",
        )
    )
    _dk_axis(fig, selected, DK_TICKS_NARROW)
    fig.update_yaxes(type="log", dtick=1, title="standard deviation", exponentformat="power")
    fig.update_layout(legend=dict(orientation="h", y=-0.3, x=0))
    return fig


def jacobian_figure(
    d_ks: Sequence[int],
    median: dict[bool, Sequence[float]],
    mean: dict[bool, Sequence[float]],
    *,
    selected: int,
    divisor: bool,
    threshold: float,
):
    """Median (solid) and mean (dashed) largest Jacobian entry against d_k, both divisors, log-log."""
    fig = _figure("Largest entry of the softmax Jacobian", 420)
    for on in (False, True):
        colour, name = (SCALED, "÷√d_k") if on else (RAW, "no divisor")
        width = 3 if on == divisor else 1.5
        fig.add_trace(
            go.Scatter(
                x=list(d_ks),
                y=_positive(median[on]),
                mode="lines+markers",
                name=f"median, {name}",
                line=dict(color=colour, width=width),
                marker=dict(size=5),
                hovertemplate="d_k %{x:,}: %{y:.2e}<extra>median, " + name + "</extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=list(d_ks),
                y=_positive(mean[on]),
                mode="lines",
                name=f"mean, {name}",
                line=dict(color=colour, width=width, dash="dash"),
                hovertemplate="d_k %{x:,}: %{y:.2e}<extra>mean, " + name + "</extra>",
            )
        )
    fig.add_hline(
        y=threshold,
        line=dict(color=MUTED, dash="dot", width=1),
        annotation_text="live ≥ 1e-3",
        annotation_position="bottom right",
    )
    _dk_axis(fig, selected)
    fig.update_yaxes(type="log", title="largest |J_ij|", exponentformat="power")
    fig.update_layout(legend=dict(orientation="h", y=-0.25, x=0))
    return fig


def live_figure(d_ks: Sequence[int], share: dict[bool, Sequence[float]], *, selected: int, divisor: bool):
    """Share of live draws (largest entry ≥ 1e-3) against d_k, both divisors."""
    fig = _figure("Share of draws whose Jacobian is still live", 380)
    for on in (False, True):
        colour, name = (SCALED, "÷√d_k") if on else (RAW, "no divisor")
        fig.add_trace(
            go.Scatter(
                x=list(d_ks),
                y=list(share[on]),
                mode="lines+markers",
                name=name,
                line=dict(color=colour, width=3 if on == divisor else 1.5),
                hovertemplate="d_k %{x:,}: %{y:.1%}<extra>" + name + "</extra>",
            )
        )
    _dk_axis(fig, selected, DK_TICKS_NARROW)
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%", title="live draws")
    fig.update_layout(legend=dict(orientation="h", y=-0.3, x=0))
    return fig


def study_figures(
    results: Mapping[int, DkResult], *, selected: int, divisor: bool, threshold: float
) -> tuple[go.Figure, go.Figure, go.Figure]:
    """The study's three figures against d_k: the Jacobian's largest entry, the spread, the live share."""
    grid = list(results)
    pick = {on: [results[d].summary(on) for d in grid] for on in (False, True)}
    jacobian = jacobian_figure(
        grid,
        {on: [s.median for s in pick[on]] for on in pick},
        {on: [s.mean for s in pick[on]] for on in pick},
        selected=selected,
        divisor=divisor,
        threshold=threshold,
    )
    spread = std_figure(
        grid, [results[d].std for d in grid], [results[d].std_se for d in grid], selected=selected
    )
    live = live_figure(
        grid, {on: [s.live_share for s in pick[on]] for on in pick}, selected=selected, divisor=divisor
    )
    return jacobian, spread, live
