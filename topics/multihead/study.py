"""The Multi-head page's caches: the forward pass per setting, its figures, one head's projections,
the book's numbers.

The computations are :mod:`topics.multihead.view`'s plain functions; here they are only cached,
so the page (``view.build(..., run=run, book_run=book_numbers)``) and the tests get the same
numbers from the same code.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core import tokens
from topics.multihead import figures as mf
from topics.multihead import view
from ui import cache
from ui.cache import KB
from ui.figures import Chart


def _run_worst() -> list[tuple[object, ...]]:
    """The most output cells a drawable setting has (1,024 wide × 16 heads) and the most W_q cells,
    on the book's sentence and the largest."""
    return [
        (*s, 123, len(x), x)
        for s in (("wrapper", 64, 1024, 16), ("wrapper", 384, 384, 9))
        for x in (tokens.inputs(), cache.largest_sentence()[1])
    ]


# The first batch item's attention per head, the output and W_q thinned to what their figures
# draw (96 × 96 cells at most), the shape trace: 209 KB at 32 tokens, 1,024 wide × 16 heads.
@cache.data(
    entry_bytes=256 * KB,
    entries=6,
    worst=_run_worst,
    show_spinner="Drawing the weights and running the forward pass…",
)
def run(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray
) -> view.Run:
    """:func:`topics.multihead.view.forward`, cached: GPT-2's 2.4M parameters take a moment."""
    return view.forward(kind, d_in, d_out, heads, seed, context_length, x)


def _figures_worst() -> list[tuple[object, ...]]:
    labels = (tokens.TOKENS, cache.largest_sentence()[0]) * 2
    return [(*args, words) for args, words in zip(_run_worst(), labels, strict=True)]


# The two striped figures built from a run: 660 KB held at the largest run.
@cache.resource(
    entry_bytes=768 * KB,
    entries=6,
    worst=_figures_worst,
    show_spinner="Drawing W_q's stripes and the output…",
)
def figures_for(
    kind: str,
    d_in: int,
    d_out: int,
    heads: int,
    seed: int,
    context_length: int,
    x: np.ndarray,
    labels: tuple[str, ...],
    focus: int | None = None,
    scheme: str = "light",
) -> tuple[go.Figure, go.Figure]:
    """W_q's stripes and the output, built once per setting, focus and theme from the cached
    :func:`run` the view holds. ``scheme`` is the theme the figures are drawn in
    (``ui.theme.active().mode``): their scale and cell text are chosen when they are built, so each
    theme has its own entry.

    A resource cache (no copy): ``st.plotly_chart`` serialises a figure without changing it.
    """
    r = run(kind, d_in, d_out, heads, seed, context_length, x)
    assert r.output is not None and r.w_query is not None  # drawable only
    cols = "1 column" if r.head_width == 1 else f"{r.head_width} columns"
    stripes = "1 stripe" if heads == 1 else f"{heads} stripes"
    wq = mf.striped_matrix(
        r.w_query,
        r.head_width,
        title=f"W_q {list(r.w_query.shape)}, as XW_q reads it: {stripes} of {cols}",
        x_title="column of W_q, head by head",
        y_title="row (input feature)",
    )
    out = mf.striped_matrix(
        r.output,
        r.output.head_width,
        row_labels=labels,
        title=f"Output {list(r.output_shape)}, first batch item",
        # Rows tall enough for their printed values (a dozen rows of 15 px ran them together).
        height=max(280, 100 + (24 if mf.prints_values(r.output.cells) else 15) * len(labels)),
        x_title="output column",
        y_title="query",
        focus=focus,
    )
    return wq, out


def charts_for(
    kind: str,
    d_in: int,
    d_out: int,
    heads: int,
    seed: int,
    context_length: int,
    x: np.ndarray,
    labels: tuple[str, ...],
    focus: int | None = None,
    scheme: str = "light",
) -> tuple[Chart, Chart]:
    """:func:`figures_for`'s two figures, each named for a screen reader and with what it draws as
    a table (``topics.multihead.figures.striped_table``). The names and tables are cheap, so they
    are built per run rather than held by the resource cache."""
    r = run(kind, d_in, d_out, heads, seed, context_length, x)
    assert r.output is not None and r.w_query is not None  # drawable only
    wq, out = figures_for(kind, d_in, d_out, heads, seed, context_length, x, labels, focus, scheme)
    return (
        Chart(
            wq,
            mf.striped_name("W_q", r.w_query, ("input row", "input rows")),
            mf.striped_table(r.w_query, None, row_title="row (input feature)"),
        ),
        Chart(
            out,
            mf.striped_name("Output of the first batch item", r.output, ("query", "queries")),
            mf.striped_table(r.output, labels, row_title="query"),
        ),
    )


@cache.data(entry_bytes=2 * KB, entries=1, worst=lambda: [()])  # 1.7 KB, one entry
def book_numbers() -> view.Book:
    """:func:`topics.multihead.view.book_numbers`, cached: the same for every reader."""
    return view.book_numbers()


# One head's q, k and v [n, head width] each: 768 KB at 32 tokens of a 1,024-wide head.
@cache.data(
    entry_bytes=800 * KB,
    entries=2,
    worst=lambda: [("wrapper", 1, 1024, 16, 123, 32, cache.largest_sentence()[1], 0)],
)
def head_projections(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray, head: int
) -> view.Head:
    """:func:`topics.multihead.view.head_projections`, cached: GPT-2's W_q takes a tenth of a second
    to draw."""
    return view.head_projections(kind, d_in, d_out, heads, seed, context_length, x, head)
