"""Figure builders for "What comes next": the parameter split, the KV-cache curve, shuffle gaps."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.next.block import SUBLAYER, BlockConfig, BlockParams
from topics.next.view import KvCache, PresetRow, Shuffle, View
from ui import format as fmt
from ui import theme
from ui.figures import (
    ACCENT,
    MUTED,
    PALETTE,
    SECOND,
    Chart,
    Relative,
    cell_text,
    figure,
    heatmap,
    layout,
    matrix_frame,
)

PART_COLOURS = {"attention": ACCENT, "layer norm": MUTED, "feed-forward": SECOND}
# The other configurations' lines, told apart by dash as well as colour (the current one is solid and
# bold, the weights' level dashed).
OTHER_DASHES = ("dot", "dashdot", "longdash", "longdashdot", "5px,2px,1px,2px")
BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def param_split(
    counts: Mapping[str, int], parts: Mapping[str, str], *, title: str, height: int = 320
) -> go.Figure:
    """One horizontal bar per component, coloured by the sublayer it belongs to, exact counts as text."""
    names = list(counts)
    data = []
    for part, colour in PART_COLOURS.items():
        rows = [n for n in names if parts[n] == part]
        data.append(
            {
                "type": "bar",
                "x": [counts[n] for n in rows],
                "y": rows,
                "orientation": "h",
                "name": part,
                "marker": {"color": colour},
                "text": [f"{counts[n]:,}" for n in rows],
                "textposition": "outside",
                "cliponaxis": False,
                "hovertemplate": "%{y}: %{x:,}<extra>" + part + "</extra>",
            }
        )
    top = max(counts.values(), default=1)
    spec = layout(
        title,
        height,
        yaxis={"categoryorder": "array", "categoryarray": names[::-1]},
        xaxis={
            "title": {"text": "parameters"},
            "range": [0, 1.4 * top],
            "tickformat": "~s",
        },  # 2M: each bar prints its exact count
        legend={"orientation": "h", "y": -0.25, "x": 0},
        bargap=0.25,
    )
    return figure(data, spec)


def binary_ticks(low: float, high: float) -> tuple[list[float], list[str]]:
    """Tick positions at whole powers of 1,024 between ``low`` and ``high``, labelled 1 KiB, 1 MiB…"""
    vals, text = [], []
    for i, unit in enumerate(BINARY_UNITS):
        for mult in (1, 32):
            v = float(mult * 1024**i)
            if low <= v <= high:
                vals.append(v)
                text.append(f"{mult} {unit}")
    return vals, text


def kv_curves(kv: KvCache, *, title: str, context_length: int | None = None, height: int = 440) -> go.Figure:
    """KV-cache bytes against tokens on log axes: one line per configuration (the current one
    bold), the current stack's weight bytes as a level, and the reader's setting as a marker.

    Past ``context_length`` the chart is shaded: the model attends to no more tokens than that,
    so its cache never gets there (a longer context is what it would take)."""
    xs = np.asarray(kv.grid).tolist()
    weights_bytes, point = kv.weight_bytes, (kv.tokens, kv.bytes)
    pal = theme.active()
    dashes = iter(OTHER_DASHES * len(kv.curves))
    data = [
        {
            "type": "scatter",
            "x": xs,
            "y": list(c.bytes),
            "mode": "lines",
            "name": c.name,
            "line": {"color": colour, "width": 3.5}
            if c.current
            else {"color": colour, "width": 2, "dash": next(dashes)},
            "hovertemplate": "%{x:,} tokens: %{y:,} bytes<extra>" + c.name + "</extra>",
        }
        for c, colour in zip(kv.curves, PALETTE, strict=False)
    ]
    data += [
        {
            "type": "scatter",
            "x": [xs[0], xs[-1]],
            "y": [weights_bytes, weights_bytes],
            "mode": "lines",
            "name": "weights of the current blocks",
            "line": {"color": MUTED, "dash": "dash", "width": 2},
            "hovertemplate": "weights: %{y:,} bytes<extra></extra>",
        },
        {
            "type": "scatter",
            "x": [point[0]],
            "y": [point[1]],
            "mode": "markers",
            "name": "your setting",
            "marker": {"size": 12, "color": PALETTE[0], "line": {"color": pal.background, "width": 2}},
            "hovertemplate": "%{x:,} tokens: %{y:,} bytes<extra>your setting</extra>",
        },
    ]
    ys_all = [float(v) for c in kv.curves for v in c.bytes] + [float(weights_bytes), float(point[1])]
    low, high = max(min(ys_all), 1.0), max(ys_all)
    vals, text = binary_ticks(low / 2, high * 2)
    decades = [10**i for i in range(int(np.log10(max(float(np.max(kv.grid)), 1.0))) + 1)]
    shapes, notes = [], []
    if context_length is not None and context_length < xs[-1]:
        shapes.append(
            {"type": "rect", "xref": "x", "yref": "paper", "x0": context_length, "x1": xs[-1], "y0": 0,
             "y1": 1, "fillcolor": "rgba(160, 174, 192, 0.18)", "line": {"width": 0}, "layer": "below"}
        )  # fmt: skip
        notes.append(
            {"xref": "paper", "yref": "paper", "x": 1, "y": 1, "xanchor": "right", "yanchor": "top",
             "showarrow": False, "font": {"size": 11, "color": pal.chrome}, "bgcolor": pal.background,
             "text": f"shaded: beyond the context length ({context_length:,})"}
        )  # fmt: skip
    spec = layout(
        title,
        height,
        xaxis={
            "type": "log",
            "title": {"text": "tokens in the cache"},
            "tickvals": decades,
            "ticktext": [_short(t) if i % 2 == 0 else "" for i, t in enumerate(decades)],  # fit on a phone
            "tickangle": 0,
        },
        yaxis={"type": "log", "title": {"text": "bytes"}, "tickvals": vals, "ticktext": text},
        legend={"orientation": "h", "y": -0.2, "x": 0},
        shapes=shapes,
        annotations=notes,
    )
    return figure(data, spec)


def _short(n: int) -> str:
    """``1000`` -> ``"1k"``, ``1000000`` -> ``"1M"``: axis labels that never collide."""
    for size, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= size:
            return f"{n / size:g}{suffix}"
    return str(n)


def difference_heatmap(
    diff: np.ndarray,
    rows: Sequence[str],
    *,
    bound: float,
    title: str,
    height: int = 300,
    focus: int | None = None,
) -> go.Figure:
    """``P·f(X) − f(P·X)`` per token and output dimension, on a colour scale shared by both panels
    (``±bound``, never the noise itself), so float64 rounding noise reads as white rather than as a
    saturated colour.
    Rows are positions in the shuffled order, each holding the token named; ``focus`` picks one.
    Its columns are output dimensions, not keys: a click on it picks a row only."""
    d = np.asarray(diff, dtype=np.float64)
    bound = bound if np.isfinite(bound) and bound > 0 else 1.0
    dims = [f"dim {j + 1}" for j in range(d.shape[1])]
    # Cells and hover at 4 decimals, as the script prints them: rounding noise reads 0.0000, never
    # as its machine-dependent digits (issue #24, item 3).
    text = [[cell_text(v) for v in row] for row in d]
    return heatmap(
        d, rows, dims, title=title, diverging=True, zmin=-bound, zmax=bound, text=text, height=height,
        x_title="output dimension", y_title="position (token)", focus=focus,
    )  # fmt: skip


def weights_heatmap(sh: Shuffle, *, title: str, relative: Relative | None = None) -> go.Figure:
    """The causal weights of the shuffled sentence, query × key in the new order: the attention
    behind f(P·X), its focused row and the cell panel's cell outlined; ``relative`` colours them
    from 0 to the largest weight of the matrix or of each row (``ui.scale``)."""
    row = None if sh.focus is None else sh.focus.row
    return heatmap(
        sh.causal.weights, sh.rows, sh.rows, title=title, focus=row, cell=sh.cell_col, relative=relative
    )


def binary_size(n: int) -> str:
    """``2,097,152`` bytes -> ``"2.00 MiB"``: the largest binary unit that keeps the figure ≥ 1."""
    value, unit = float(n), BINARY_UNITS[0]
    for unit in BINARY_UNITS:
        if value < 1024 or unit == BINARY_UNITS[-1]:
            break
        value /= 1024
    return f"{int(n):,} B" if unit == "B" else f"{value:,.2f} {unit}"


@functools.lru_cache(maxsize=1)
def presets_table(presets: tuple[PresetRow, ...]) -> pd.DataFrame:
    """The GPT-2 presets' counts, one row each: the same on every run, so built once."""
    return pd.DataFrame(
        {
            "attention": [fmt.integer(r.params.attention) for r in presets],
            "feed-forward": [fmt.integer(r.params.feed_forward) for r in presets],
            "whole block": [fmt.integer(r.params.total) for r in presets],
            "all blocks": [fmt.integer(r.all_blocks) for r in presets],
        },
        index=[r.name for r in presets],
    )


def charts(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The page's charts, by the widget key each is drawn under, each named for a screen reader with
    its values as a table: the parameter split, the two shuffle gaps, the shuffled weights (coloured
    by ``relative``, ``ui.scale``) and the KV cache."""
    block, shuffle = block_charts(v.params, v.kv, v.block), shuffle_charts(v.shuffle, relative)
    return {"split": block["split"], **shuffle, "kv": block["kv"]}


def block_charts(p: BlockParams, kv: KvCache, b: BlockConfig) -> dict[str, Chart]:
    """The parameter split of the block ``b`` and its KV cache: neither shows the sentence, its
    shuffle or its focus."""
    counts = p.components()
    split = pd.DataFrame(
        {"sublayer": [SUBLAYER[n] for n in counts], "parameters": [f"{c:,}" for c in counts.values()]},
        index=pd.Index(list(counts), name="component"),
    )
    kv_table = pd.DataFrame(
        {f"{c.name}, bytes": [f"{x:,}" for x in c.bytes] for c in kv.curves},
        index=pd.Index(np.asarray(kv.grid).tolist(), name="tokens cached"),
    )
    kv_table["weights of the current blocks, bytes"] = f"{kv.weight_bytes:,}"
    return {
        "split": Chart(
            param_split(counts, SUBLAYER, title="Where one block's parameters sit"),
            f"Where one block's {p.total:,} parameters sit: a bar per component, coloured by sublayer "
            f"(emb_dim {b.emb_dim:,}, {fmt.count(b.n_heads, 'head')})",
            split,
        ),
        "kv": Chart(
            kv_curves(kv, context_length=b.context_length, title="KV cache against context length"),
            f"KV cache in bytes against tokens cached, both on log scales: {len(kv.curves)} configurations, "
            f"the current one bold, the current blocks' weights as a level, and your setting, "
            f"{fmt.count(kv.tokens, 'token')}, marked",
            kv_table,
        ),
    }


def shuffle_charts(sh: Shuffle, relative: Relative | None = None) -> dict[str, Chart]:
    """The two shuffle gaps and the shuffled causal weights, the focused row (and the cell) outlined."""
    row = None if sh.focus is None else sh.focus.row
    n, dims = len(sh.rows), sh.free.difference.shape[1]
    columns = [f"dim {j + 1}" for j in range(dims)]
    out = {}
    for key, result in (("Without the mask", sh.free), ("With the causal mask", sh.masked)):
        out[key] = Chart(
            difference_heatmap(
                result.difference, sh.rows, bound=sh.bound, title="P·f(X) − f(P·X)", focus=row
            ),
            f"{key}: the gap P·f(X) − f(P·X), {fmt.count(n, 'position')} of the shuffled sentence by "
            f"{fmt.count(dims, 'output dimension')}",
            matrix_frame(
                result.difference,
                sh.rows,
                columns,
                row_title="position (token)",
                col_title="output dimension",
            ),
        )
    out["next_weights"] = Chart(
        weights_heatmap(sh, title="Causal weights, shuffled order", relative=relative),
        f"Causal attention weights of the shuffled sentence, {fmt.size(n, n)}",
        matrix_frame(sh.causal.weights, sh.rows, sh.rows),
    )
    return out
