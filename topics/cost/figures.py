"""The cost page's two charts: memory against n with every card's capacity, and the FLOP split.

Both axes are logarithmic, since n runs over six decades and the bill over eighteen. Every value
drawn is the view's (:mod:`topics.cost.view`), an exact int that becomes a float only in Plotly.

The specs are plain Plotly dicts in the app's layout (``ui.figures``); ``tests/cost`` validates
both with Plotly. Lines that share a chart differ by dash as well as colour, and each chart goes to
the page as a :class:`ui.figures.Chart`: its name for a screen reader and its values as a table,
the exact integers written out as the hover writes them.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from topics.cost import arithmetic, view
from topics.cost import format as cost_format
from ui import format as fmt
from ui import theme
from ui.figures import ACCENT, MUTED, SECOND, Chart, figure, layout, log_ticks

Spec = dict[str, Any]
# Below the plot: inside it, the legend sat on the curves it names.
LEGEND = dict(orientation="h", x=0, xanchor="left", y=-0.22, yanchor="top")
BINARY_TICKS = tuple(
    (1 << (10 * k), name)
    for k, name in enumerate(("1 B", "1 KiB", "1 MiB", "1 GiB", "1 TiB", "1 PiB", "1 EiB"))
)
X_AXIS = dict(
    type="log",
    title=dict(text="context length n (tokens)"),
    **log_ticks(1, arithmetic.MAX_N, counts=True),
)


def _layout(title: str, height: int, **axes: Any) -> Spec:
    spec = layout(title, height, legend=LEGEND, hovermode="closest", **axes)
    spec["margin"]["b"] = 20  # the legend sits below the axis title; automargin makes room for it
    return spec


def _line(x: list[int], y: list[int], name: str, color: str, dash: str = "solid", **extra: Any) -> Spec:
    line = dict(color=color, width=3, dash=dash)
    return dict(type="scatter", mode="lines", x=x, y=y, name=name, line=line, **extra)


def memory_spec(v: view.View, *, height: int = 480) -> Spec:
    """Bytes of the score matrices against n, each catalogue GPU's memory as a horizontal line."""
    ns, nbytes, current, chosen_name = list(v.ladder), list(v.ladder_bytes), v.row.nbytes, v.gpu.name
    data = [
        _line(
            ns,
            nbytes,
            "score matrices",
            ACCENT,
            customdata=[cost_format.binary_size(b) for b in nbytes],
            hovertemplate="n = %{x:,}<br>%{customdata}<extra></extra>",
        ),
        dict(
            type="scatter",
            mode="markers",
            x=[v.n],
            y=[current],
            name=f"n = {v.n:,}",
            # ringed in the page's background, so it stands off the line in either theme
            marker=dict(color=SECOND, size=12, line=dict(color=theme.active().background, width=1)),
            hovertemplate=f"n = {v.n:,}<br>{cost_format.binary_size(current)}<extra></extra>",
        ),
    ]
    others_shown = False
    for g in sorted(v.gpus, key=lambda g: g.name == chosen_name):  # the chosen card last, on top
        chosen = g.name == chosen_name
        data.append(
            dict(
                type="scatter",
                mode="lines",
                x=[ns[0], ns[-1]],
                y=[g.memory_bytes, g.memory_bytes],
                name=g.name if chosen else "other cards",
                legendgroup="chosen" if chosen else "others",
                showlegend=chosen or not others_shown,
                line=dict(
                    color=SECOND if chosen else MUTED,
                    width=2 if chosen else 1,
                    dash="dash" if chosen else "dot",  # the score matrices' line is solid
                ),
                hovertemplate=f"{g.name}: {g.memory_bytes:,} bytes<extra></extra>",
            )
        )
        others_shown = others_shown or not chosen
    top = max(nbytes[-1], *(g.memory_bytes for g in v.gpus))
    ticks = [(v, t) for v, t in BINARY_TICKS if v <= top * 4]
    y_axis = dict(
        type="log",
        title=dict(text="bytes of attention scores"),
        tickvals=[v for v, _ in ticks],
        ticktext=[t for _, t in ticks],
    )
    return dict(
        data=data,
        layout=_layout("Memory of the score matrices against n", height, xaxis=X_AXIS, yaxis=y_axis),
    )


def flops_spec(v: view.View, *, height: int = 440) -> Spec:
    """Multiply-adds of one head: projections (linear in n) against QKᵀ + AV (quadratic)."""
    ns, split, here, cross, n = list(v.ladder), v.ladder_macs, v.macs, v.crossover, v.n
    hover = "n = %{x:,}<br>%{y:,} multiply-adds<extra></extra>"
    data = [
        _line(
            ns, [s.linear for s in split], "projections Q, K, V  (3·n·d_in·d_k)", ACCENT, hovertemplate=hover
        ),
        _line(ns, [s.quadratic for s in split], "QKᵀ + AV  (2·n²·d_k)", SECOND, "dash", hovertemplate=hover),
        dict(
            type="scatter",
            mode="markers",
            x=[n, n],
            y=[here.linear, here.quadratic],
            name=f"n = {n:,}",
            marker=dict(color="#1a202c", size=9, symbol="diamond"),
            hovertemplate=hover,
        ),
    ]
    spec = _layout(
        f"Where one head's work goes (d_in = {v.d_in:,}, d_k = {v.d_k:,})",
        height,
        xaxis=X_AXIS,
        yaxis=dict(
            type="log",
            title=dict(text="multiply-adds, one head"),
            **log_ticks(min(split[0].linear, split[0].quadratic), max(split[-1].linear, split[-1].quadratic)),
        ),
        shapes=[
            dict(
                type="line",
                xref="x",
                yref="paper",
                x0=cross,
                x1=cross,
                y0=0,
                y1=1,
                line=dict(color=MUTED, dash="dot"),
            )
        ],
        annotations=[
            dict(
                x=math.log10(cross),  # annotations on a log axis take the exponent
                xref="x",
                y=0.02,
                yref="paper",
                text=f"quadratic part wins from n = {cross:,}",
                showarrow=False,
                xanchor="left",
                font=dict(size=11),
            )
        ],
    )
    return dict(data=data, layout=spec)


def memory_chart(v: view.View, *, height: int = 480) -> go.Figure:
    spec = memory_spec(v, height=height)
    return figure(spec["data"], spec["layout"])


def flops_chart(v: view.View, *, height: int = 440) -> go.Figure:
    spec = flops_spec(v, height=height)
    return figure(spec["data"], spec["layout"])


def _sizes(v: view.View) -> str:
    """The settings the bytes count: heads, layers and bytes a score."""
    c = v.cfg
    heads, layers = fmt.count(c.heads, "head"), fmt.count(c.layers, "layer")
    return f"{heads}, {layers}, {fmt.count(c.bytes_per_score, 'byte')} a score"


def _rungs(v: view.View) -> list[int]:
    """Where the tables sample the charts' lines: every power of two of the ladder, and n."""
    return [i for i, n in enumerate(v.ladder) if n & (n - 1) == 0 or n == v.n]


def memory_table(v: view.View) -> pd.DataFrame:
    """The memory chart's values: the score matrices' bytes at every power of two and at n, then
    each card's memory, exact integers as the hover writes them."""
    rows = [
        (
            "score matrices",
            f"{v.ladder[i]:,}",
            f"{v.ladder_bytes[i]:,}",
            cost_format.binary_size(v.ladder_bytes[i]),
        )
        for i in _rungs(v)
    ]
    rows += [
        (f"memory of one {g.name}", "", f"{g.memory_bytes:,}", cost_format.binary_size(g.memory_bytes))
        for g in v.gpus
    ]
    return pd.DataFrame(rows, columns=["line", "n (tokens)", "bytes", "size"]).set_index("line")


def memory(v: view.View) -> Chart:
    """The memory chart, named with what it shows at the settings, and its values."""
    name = (
        f"Line chart, log scales: bytes of the score matrices against n ({_sizes(v)}), each card's "
        f"memory a level line. At n = {v.n:,}: {cost_format.binary_size(v.row.nbytes)}, "
        f"{fmt.count(v.row.cards_to_buy, f'{v.gpu.name} card')}."
    )
    return Chart(memory_chart(v), name, memory_table(v))


def flops_table(v: view.View) -> pd.DataFrame:
    """The FLOP chart's values: one head's multiply-adds at every power of two and at n, exact."""
    rungs = _rungs(v)
    return pd.DataFrame(
        {
            "n (tokens)": [f"{v.ladder[i]:,}" for i in rungs],
            "projections Q, K, V": [f"{v.ladder_macs[i].linear:,}" for i in rungs],
            "QKᵀ + AV": [f"{v.ladder_macs[i].quadratic:,}" for i in rungs],
        }
    ).set_index("n (tokens)")


def flops(v: view.View) -> Chart:
    """The FLOP chart, named with what it shows at the settings, and its values."""
    name = (
        f"Line chart, log scales: one head's multiply-adds against n, projections Q, K, V (linear) and "
        f"QKᵀ + AV (quadratic), at d_in = {v.d_in:,} and d_k = {v.d_k:,}. The quadratic part wins from "
        f"n = {v.crossover:,}."
    )
    return Chart(flops_chart(v), name, flops_table(v))
