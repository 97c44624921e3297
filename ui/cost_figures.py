"""The cost page's two charts: memory against n with every card's capacity, and the FLOP split.

Both axes are logarithmic, since n runs over six decades and the bill over twelve. Counts are
exact ints in ``core``; they become floats here only to be drawn.
"""

from __future__ import annotations

import plotly.graph_objects as go

from core import cost
from ui import cost_format
from ui.figures import ACCENT, MUTED, SECOND, _layout

LEGEND = dict(x=0.01, y=0.99, xanchor="left", yanchor="top", bgcolor="rgba(255,255,255,0.85)")
BINARY_TICKS = tuple(
    (1 << (10 * k), name)
    for k, name in enumerate(("1 B", "1 KiB", "1 MiB", "1 GiB", "1 TiB", "1 PiB", "1 EiB"))
)


def memory_chart(cfg: cost.CostConfig, *, height: int = 420) -> go.Figure:
    """Bytes of the score matrices against n, each catalogue GPU's memory as a horizontal line."""
    ns = cost.context_ladder()
    nbytes = [cost.attention_bytes(n, cfg.bytes_per_score, cfg.heads, cfg.layers) for n in ns]
    current = cost.attention_bytes(cfg.n, cfg.bytes_per_score, cfg.heads, cfg.layers)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=ns,
            y=nbytes,
            mode="lines",
            name="score matrices",
            line=dict(color=ACCENT, width=3),
            customdata=[cost_format.binary_size(b) for b in nbytes],
            hovertemplate="n = %{x:,}<br>%{customdata}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[cfg.n],
            y=[current],
            mode="markers",
            name=f"n = {cfg.n:,}",
            marker=dict(color=SECOND, size=12, line=dict(color="white", width=1)),
            hovertemplate=f"n = {cfg.n:,}<br>{cost_format.binary_size(current)}<extra></extra>",
        )
    )
    for g in sorted(cost.GPUS, key=lambda g: g.name != cfg.gpu.name):  # the chosen card drawn last, on top
        chosen = g.name == cfg.gpu.name
        fig.add_trace(
            go.Scatter(
                x=[ns[0], ns[-1]],
                y=[g.memory_bytes, g.memory_bytes],
                mode="lines",
                name=g.name if chosen else "other cards",
                legendgroup="chosen" if chosen else "others",
                showlegend=chosen or g is _first_other(cfg),
                line=dict(
                    color=SECOND if chosen else MUTED,
                    width=2 if chosen else 1,
                    dash="solid" if chosen else "dot",
                ),
                hovertemplate=f"{g.name}: {g.memory_bytes:,} bytes<extra></extra>",
            )
        )
    top = max(nbytes[-1], cost.GPUS[-1].memory_bytes)
    ticks = [(v, t) for v, t in BINARY_TICKS if v <= top * 4]
    fig.update_xaxes(type="log", title="context length n (tokens)", exponentformat="power")
    fig.update_yaxes(
        type="log",
        title="bytes of attention scores",
        tickvals=[v for v, _ in ticks],
        ticktext=[t for _, t in ticks],
    )
    fig.update_layout(legend=LEGEND, hovermode="closest")
    return _layout(fig, "Memory of the score matrices against n", height)


def _first_other(cfg: cost.CostConfig) -> cost.Gpu:
    return next(g for g in cost.GPUS if g.name != cfg.gpu.name)


def flops_chart(n: int, d_in: int, d_k: int, *, height: int = 380) -> go.Figure:
    """Multiply-adds of one head: projections (linear in n) against QKᵀ + AV (quadratic)."""
    ns = cost.context_ladder()
    split = [cost.head_macs(m, d_in, d_k) for m in ns]
    cross = cost.crossover(d_in, d_k)
    fig = go.Figure()
    for name, ys, color in (
        ("projections Q, K, V  (3·n·d_in·d_k)", [s.linear for s in split], ACCENT),
        ("QKᵀ + AV  (2·n²·d_k)", [s.quadratic for s in split], SECOND),
    ):
        fig.add_trace(
            go.Scatter(
                x=ns,
                y=ys,
                mode="lines",
                name=name,
                line=dict(color=color, width=3),
                hovertemplate="n = %{x:,}<br>%{y:,} multiply-adds<extra></extra>",
            )
        )
    here = cost.head_macs(n, d_in, d_k)
    fig.add_trace(
        go.Scatter(
            x=[n, n],
            y=[here.linear, here.quadratic],
            mode="markers",
            name=f"n = {n:,}",
            marker=dict(color="#1a202c", size=9, symbol="diamond"),
            hovertemplate="n = %{x:,}<br>%{y:,} multiply-adds<extra></extra>",
        )
    )
    fig.add_vline(
        x=cross,
        line=dict(color=MUTED, dash="dash"),
        annotation_text=f"quadratic part overtakes at n = {cross:,}",
        annotation_position="top left",
        annotation_font=dict(size=11),
    )
    fig.update_xaxes(type="log", title="context length n (tokens)", exponentformat="power")
    fig.update_yaxes(type="log", title="multiply-adds, one head", exponentformat="power")
    fig.update_layout(legend=LEGEND)
    return _layout(fig, f"Where one head's work goes (d_in = {d_in:,}, d_k = {d_k:,})", height)
