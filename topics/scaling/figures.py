"""Figure builders for "Divide by √d_k": weights of one draw and the study against d_k.

Colours carry the divisor across every chart: orange is "no divisor", blue "divided by √d_k";
so do dashes, for a reader who cannot tell the two apart (long dashes, no divisor; solid, divided)
and marker shapes (circles, no divisor; diamonds, divided). :func:`charts` hands the page each
figure as a :class:`ui.figures.Chart`, named for a screen reader, with its values as a table.
Log axes never receive a zero or a non-finite value: such points are dropped (the study never
produces them; this is the guard that keeps a figure honest if it did).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.scaling.monte_carlo import CUTOFFS
from topics.scaling.text import LIVE, cutoff, sci_from_log10, small, small_log10
from topics.scaling.view import View
from ui.figures import ACCENT, MUTED, SECOND, Chart, figure, layout, log_ticks

RAW, SCALED = SECOND, ACCENT
DK_TICKS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536)  # a grid line at each
# Labelled: every other one, so five labels stay level and apart in a 390 px phone's chart as in a
# desktop's half-width one (all nine ran together on a phone: "2561,0244,096"); a figure does not
# know the width it is drawn at.
DK_TICKS_NARROW = (1, 16, 256, 4096, 65536)
DASH = {False: "longdash", True: "solid"}  # each divisor's line, keyed by the divisor
MEAN_DASH = {False: "dashdot", True: "dash"}  # the Jacobian chart's means, beside those medians
SYMBOL = {False: "circle", True: "diamond"}
MARK = dict(color=MUTED, dash="dot", width=1)
LABELLED_BARS = 16  # keys named and valued on the bars up to this many; past it, the hover does
# The Jacobian chart's default y range: the post's story, 0.22 at d_k = 2, 0.022 at 64, 3e-6 at 768,
# fills the height. No entry exceeds 1/4 (α(1 − α) ≤ 1/4); the deep tail (1e-56 at 65,536) is one
# toggle away.
J_RANGE = (1e-8, 0.5)


def _positive(values: Sequence[float]) -> list[float | None]:
    """Values for a log axis: anything not finite and positive becomes a gap."""
    return [float(v) if v is not None and np.isfinite(v) and v > 0 else None for v in values]


def _dk_layout(title: str, height: int, selected: int | None, **extra: Any) -> dict[str, Any]:
    """A study chart's layout: log d_k axis, a grid line at every power of 4 and a comma label at
    every other one (``DK_TICKS_NARROW``), the selected d_k as a dotted line."""
    xaxis = dict(
        type="log",
        title=dict(text="d_k"),
        tickvals=list(DK_TICKS),
        ticktext=[f"{t:,}" if t in DK_TICKS_NARROW else "" for t in DK_TICKS],
        tickangle=0,
        showgrid=True,
    )
    shapes = extra.pop("shapes", [])
    if selected is not None:
        shapes.append(
            dict(type="line", xref="x", yref="y domain", x0=selected, x1=selected, y0=0, y1=1, line=MARK)
        )
    return layout(title, height, xaxis=xaxis, shapes=shapes, **extra)


def weight_bars(v: View) -> go.Figure:
    """One draw's attention weights; the text is read from the log-weights, so none reads 0."""
    log10_alpha = np.asarray(v.log10_weights, dtype=np.float64)
    alpha = 10.0**log10_alpha  # a weight below 1e-308 is a 0-high bar
    text = [small_log10(la) for la in log10_alpha]
    if v.log10_rest < -4:  # the top weight as 1 minus the others, never a difference that reads 1
        text[int(np.argmax(log10_alpha))] = "1 − " + sci_from_log10(v.log10_rest)
    n = len(alpha)
    bars = dict(
        type="bar",
        x=list(range(1, n + 1)),
        y=alpha.tolist(),
        marker=dict(color=SCALED if v.settings.divisor else RAW),
        text=text if n <= LABELLED_BARS else None,  # beyond that the hover carries them
        textposition="outside",
        textangle=0 if n <= 8 else -90,
        constraintext="none",
        textfont=dict(size=11),
        cliponaxis=False,
        customdata=list(v.scores),
        hovertext=text,
        hovertemplate="k%{x}: weight %{hovertext}<br>score %{customdata:.4f}<extra></extra>",
    )
    # Every key named while the names fit ("k1".."k16"); past that, numbered ticks Plotly spaces out.
    xaxis: dict[str, Any] = dict(tickangle=0, title=dict(text="key"), range=[0.4, n + 0.6])
    if n <= LABELLED_BARS:
        xaxis.update(tickvals=list(range(1, n + 1)), ticktext=[f"k{j}" for j in range(1, n + 1)])
    axes = dict(yaxis=dict(range=[0, 1.08], title=dict(text="weight α")), xaxis=xaxis)
    return figure([bars], layout(f"One draw's weights at d_k = {v.settings.d_k:,}", 320, **axes))


def _trace(x: Sequence[float], y: Sequence[Any], name: str, mode: str, **style: Any) -> dict[str, Any]:
    return dict(type="scatter", x=list(x), y=list(y), name=name, mode=mode, **style)


def std_figure(
    d_ks: Sequence[int],
    sqrt_d_k: Sequence[float],
    std: Sequence[float],
    std_se: Sequence[float],
    std_scaled: Sequence[float],
    *,
    selected: int,
) -> go.Figure:
    """Measured std of q·k against the √d_k line, and of q·k/√d_k against 1, on log-log axes."""
    x = list(d_ks)
    drawn = _positive(std)
    data = [
        _trace(x, list(sqrt_d_k), "√d_k", "lines", line=dict(color=RAW, width=1, dash=DASH[False])),
        _trace(
            x,
            drawn,
            "std of q·k",
            "markers",
            marker=dict(color=RAW, size=7, symbol=SYMBOL[False]),
            error_y=dict(type="data", array=[2 * e for e in std_se], visible=True, thickness=1),
            hovertemplate="d_k %{x:,}: %{y:.4g}<extra></extra>",
        ),
        _trace(x, [1.0] * len(x), "1", "lines", line=dict(color=SCALED, width=1, dash=DASH[True])),
        _trace(
            x,
            _positive(std_scaled),
            "std of q·k/√d_k",
            "markers",
            marker=dict(color=SCALED, size=7, symbol=SYMBOL[True]),
            hovertemplate="d_k %{x:,}: %{y:.4f}<extra></extra>",
        ),
    ]
    spec = _dk_layout(
        "Spread of the scores (bars: ±2 standard errors)",
        380,
        selected,
        yaxis=dict(
            type="log",
            title=dict(text="standard deviation"),
            **log_ticks(min(min(p for p in drawn if p), 1.0), max(sqrt_d_k)),
        ),
        legend=dict(orientation="h", y=-0.3, x=0),
    )
    return figure(data, spec)


def jacobian_figure(
    d_ks: Sequence[int],
    median: Mapping[bool, Sequence[float]],
    mean: Mapping[bool, Sequence[float]],
    *,
    selected: int,
    divisor: bool,
    threshold: float,
    tail: bool = False,
) -> go.Figure:
    """Median (markers) and mean (dashed, no markers) largest Jacobian entry against d_k, both
    divisors, log-log.

    The y axis spans ``J_RANGE`` so the decades the post talks about fill the chart; a curve that
    leaves through the floor is labelled where it leaves. ``tail`` widens the axis to the
    smallest value drawn, 1e-56 or so at the largest d_k.
    """
    data = []
    for on in (False, True):
        colour, name = (SCALED, "÷√d_k") if on else (RAW, "no divisor")
        width = 3 if on == divisor else 1.5
        data += [
            _trace(
                d_ks,
                _positive(median[on]),
                f"median, {name}",
                "lines+markers",
                line=dict(color=colour, width=width, dash=DASH[on]),
                marker=dict(size=5, symbol=SYMBOL[on]),
                hovertemplate="d_k %{x:,}: %{y:.2e}<extra>median, " + name + "</extra>",
            ),
            _trace(
                d_ks,
                _positive(mean[on]),
                f"mean, {name}",
                "lines",
                line=dict(color=colour, width=width, dash=MEAN_DASH[on]),
                hovertemplate="d_k %{x:,}: %{y:.2e}<extra>mean, " + name + "</extra>",
            ),
        ]
    level = dict(type="line", xref="x domain", yref="y", x0=0, x1=1, y0=threshold, y1=threshold, line=MARK)
    notes = [
        dict(
            text=f"live ≥ {cutoff(threshold)}",
            showarrow=False,
            xref="x domain",
            x=1,
            xanchor="right",
            yref="y",
            y=float(np.log10(threshold)),
            yanchor="top",  # on a log axis, the exponent
        )
    ]
    drawn = [v for t in data for v in t["y"] if v is not None]
    low = min(drawn, default=J_RANGE[0]) if tail else J_RANGE[0]
    low = min(low, J_RANGE[0])
    if not tail:
        notes += _exits(d_ks, median, floor=J_RANGE[0])
    yaxis = dict(
        type="log",
        title=dict(text="largest |J_ij|"),
        range=[float(np.log10(low)) - (0.5 if tail else 0.1), float(np.log10(J_RANGE[1]))],
        **log_ticks(low, J_RANGE[1]),
    )
    spec = _dk_layout(
        "Largest entry of the softmax Jacobian" + (", the whole tail" if tail else ""),
        420,
        selected,
        shapes=[level],
        annotations=notes,
        yaxis=yaxis,
        legend=dict(orientation="h", y=-0.25, x=0),
    )
    return figure(data, spec)


def _exits(
    d_ks: Sequence[int], median: Mapping[bool, Sequence[float]], *, floor: float
) -> list[dict[str, Any]]:
    """A label where each median curve drops below the chart's floor: its value at that d_k."""
    notes = []
    for on in (False, True):
        below = [(d, v) for d, v in zip(d_ks, median[on], strict=True) if v is not None and 0 < v < floor]
        if below:
            d, v = below[0]
            notes.append(
                dict(
                    text=f"↓ {small(v)} at {d:,}",
                    showarrow=False,
                    xref="x",
                    x=float(np.log10(d)),
                    xanchor="left",
                    yref="y",
                    y=float(np.log10(floor)),
                    yanchor="bottom",
                    font=dict(size=11, color=SCALED if on else RAW),
                )
            )
    return notes


def live_figure(
    d_ks: Sequence[int],
    share: Mapping[bool, Sequence[float]],
    *,
    selected: int,
    divisor: bool,
    cutoffs: Sequence[float] = (),
    cutoff_shares: Sequence[Sequence[float]] = (),
) -> go.Figure:
    """Share of live draws (largest entry ≥ 1e-3) against d_k, both divisors; dotted, the chosen
    divisor's share at each other cut-off of ``cutoffs`` (``cutoff_shares``: per d_k, one per cut-off)."""
    data = []
    for on in (False, True):
        colour, name = (SCALED, "÷√d_k") if on else (RAW, "no divisor")
        data.append(
            _trace(
                d_ks,
                share[on],
                name,
                "lines+markers",
                line=dict(color=colour, width=3 if on == divisor else 1.5, dash=DASH[on]),
                marker=dict(symbol=SYMBOL[on]),
                hovertemplate="d_k %{x:,}: %{y:.1%}<extra>" + name + "</extra>",
            )
        )
    colour, name = (SCALED, "÷√d_k") if divisor else (RAW, "no divisor")
    for i, c in enumerate(cutoffs):
        label = f"≥ {cutoff(c)}"
        if f"≥ {cutoff(c)}" in LIVE:
            continue  # the solid curve
        data.append(
            _trace(
                d_ks,
                [row[i] for row in cutoff_shares],
                f"{label}, {name}",
                "lines",
                line=dict(color=colour, width=1, dash="dot"),
                hovertemplate="d_k %{x:,}: %{y:.1%}<extra>" + f"{label}, {name}" + "</extra>",
            )
        )
    spec = _dk_layout(
        f"Share of live draws ({LIVE})",
        380,
        selected,
        yaxis=dict(range=[0, 1.05], tickformat=".0%", title=dict(text="live draws")),
        legend=dict(orientation="h", y=-0.3, x=0),
    )
    return figure(data, spec)


def study_figures(v: View) -> tuple[go.Figure, go.Figure, go.Figure]:
    """The study's three figures against d_k: the Jacobian's largest entry, the spread, the live share."""
    c, d_k, divisor = v.curves, v.settings.d_k, v.settings.divisor
    jacobian = jacobian_figure(
        c.d_k, c.median, c.mean, selected=d_k, divisor=divisor, threshold=v.threshold, tail=v.settings.tail
    )
    spread = std_figure(c.d_k, c.sqrt_d_k, c.std, c.std_se, c.std_scaled, selected=d_k)
    live = live_figure(
        c.d_k,
        c.live,
        selected=d_k,
        divisor=divisor,
        cutoffs=CUTOFFS,
        cutoff_shares=c.cutoffs[divisor],
    )
    return jacobian, spread, live


# --- each figure as a Chart: its name for a screen reader and its values as a table ---------------

DIVISOR_NAMES = {False: "no divisor", True: "÷√d_k"}


def _sci(x: float) -> str:
    """A value as the charts' hover writes it (``2.20e-02``); a gap where none was drawn."""
    return f"{x:.2e}" if np.isfinite(x) and x > 0 else "—"


def _percent(x: float) -> str:
    return f"{x:.1%}" if np.isfinite(x) else "—"


def _bars_chart(v: View) -> Chart:
    log10_alpha = np.asarray(v.log10_weights, dtype=np.float64)
    shown = [small_log10(la) for la in log10_alpha]
    top = int(np.argmax(log10_alpha))
    if v.log10_rest < -4:  # as the bars print it
        shown[top] = "1 − " + sci_from_log10(v.log10_rest)
    s = v.settings
    how = "divided by √d_k" if s.divisor else "not divided"
    name = (
        f"Bar chart: one draw's weights over {len(shown)} keys at d_k = {s.d_k:,}, scores {how}; "
        f"the largest, k{top + 1}, is {shown[top]}."
    )
    table = pd.DataFrame(
        {"score ÷ √d_k" if s.divisor else "score": [f"{x:.4f}" for x in v.scores], "weight α": shown},
        index=pd.Index([f"k{j}" for j in range(1, len(shown) + 1)], name="key"),
    )
    return Chart(weight_bars(v), name, table)


def _here(v: View, label: str, what: str, fmt: Any) -> str:
    """``At d_k = 64, the median: 2.20e-02 with the divisor, 3.10e-06 without.``: one statistic of
    the study at the chosen d_k, both divisors."""
    if v.here is None:
        return f"The study does not reach d_k = {v.settings.d_k:,}."
    on, off = (getattr(v.here.summary(x), what) for x in (True, False))
    return f"At d_k = {v.settings.d_k:,}, {label}: {fmt(on)} with the divisor, {fmt(off)} without."


def _dk_index(v: View) -> pd.Index:
    return pd.Index([f"{d:,}" for d in v.curves.d_k], name="d_k")


def _jacobian_chart(v: View, fig: go.Figure) -> Chart:
    c = v.curves
    name = (
        "Line chart, log scales: the softmax Jacobian's largest entry against d_k, median and mean, "
        f"with and without the divisor{', down to the whole tail' if v.settings.tail else ''}. "
        + _here(v, "the median", "median", _sci)
    )
    columns = {
        f"{stat} largest |J|, {DIVISOR_NAMES[on]}": [_sci(x) for x in values[on]]
        for on in (False, True)
        for stat, values in (("median", c.median), ("mean", c.mean))
    }
    return Chart(fig, name, pd.DataFrame(columns, index=_dk_index(v)))


def _spread_chart(v: View, fig: go.Figure) -> Chart:
    c = v.curves
    name = (
        "Line chart, log scales: the standard deviation of q·k against d_k follows √d_k; "
        "that of q·k/√d_k stays at 1."
    )
    if v.here is not None:
        name += f" At d_k = {v.settings.d_k:,}: {v.here.std:.4g} and {v.here.std / v.sqrt_d_k:.4f}."
    table = pd.DataFrame(
        {
            "√d_k": [f"{x:.4f}" for x in c.sqrt_d_k],
            "std of q·k": [f"{x:.4g}" for x in c.std],
            "± 2 standard errors": [f"{2 * x:.2g}" for x in c.std_se],
            "std of q·k/√d_k": [f"{x:.4f}" for x in c.std_scaled],
        },
        index=_dk_index(v),
    )
    return Chart(fig, name, table)


def _live_chart(v: View, fig: go.Figure) -> Chart:
    c, on = v.curves, v.settings.divisor
    others = [(i, x) for i, x in enumerate(CUTOFFS) if f"≥ {cutoff(x)}" not in LIVE]
    name = (
        f"Line chart: the share of live draws ({LIVE}) against d_k, with and without the divisor"
        + (
            f"; dotted, {'with' if on else 'without'} it, the cut-offs "
            + ", ".join(cutoff(x) for _, x in others)
            if others
            else ""
        )
        + ". "
        + _here(v, "live", "live_share", _percent)
    )
    columns = {f"live, {DIVISOR_NAMES[x]}": [_percent(s) for s in c.live[x]] for x in (False, True)}
    for i, x in others:
        columns[f"≥ {cutoff(x)}, {DIVISOR_NAMES[on]}"] = [_percent(row[i]) for row in c.cutoffs[on]]
    return Chart(fig, name, pd.DataFrame(columns, index=_dk_index(v)))


def charts(v: View) -> dict[str, Chart]:
    """Every figure of the page, by the widget key the page draws it under, named and tabled."""
    jacobian, spread, live = study_figures(v)
    return {
        "fig02_bars": _bars_chart(v),
        "fig02_jacobian": _jacobian_chart(v, jacobian),
        "fig02_std": _spread_chart(v, spread),
        "fig02_live": _live_chart(v, live),
    }
