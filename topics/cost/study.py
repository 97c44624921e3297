"""What n² costs' two charts and two tables, built once per setting and theme, and kept for every
reader.

Moving n back and forth rebuilt both charts and the tables of their values on every rerun, half
the page's own time. Resource caches keep them, uncopied (``ui.figures.show`` reads a chart
without changing it). Each chart is keyed on the settings it draws: the memory chart on n and the
bill's factors, the multiply-adds chart on n and one head's widths. ``scheme`` is the theme on
screen (``ui.theme.active().mode``): a chart's colours are chosen when it is built.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from topics.cost import figures, table, time_models, view
from ui import cache
from ui.cache import KB
from ui.figures import Built, arrow, built

_LARGEST = view.Settings(n=2_097_152, heads=view.MAX_HEADS, layers=view.MAX_LAYERS, d_in=view.D_INS[-1])


# The ladder's 22 rungs as two lines and the current point, with the table: about 60 KB held.
@cache.resource(entry_bytes=96 * KB, entries=8, worst=lambda: [(_LARGEST, "dark")])
def memory(s: view.Settings, scheme: str) -> Built:
    """:func:`topics.cost.figures.memory` at ``s`` (its time and width settings are not read), built."""
    return built(figures.memory(view.build(s)))


@cache.resource(entry_bytes=96 * KB, entries=8, worst=lambda: [(_LARGEST, "dark")])
def flops(s: view.Settings, scheme: str) -> Built:
    """:func:`topics.cost.figures.flops` at ``s`` (its bill's factors are not read), built."""
    return built(figures.flops(view.build(s)))


def memory_chart(s: view.Settings, scheme: str) -> Built:
    """:func:`memory`, keyed only on what the memory chart draws."""
    return memory(
        replace(s, t0_ms=view.Settings.t0_ms, d_in=view.Settings.d_in, d_k=view.Settings.d_k), scheme
    )


def flops_chart(s: view.Settings, scheme: str) -> Built:
    """:func:`flops`, keyed only on what the multiply-adds chart draws."""
    d = view.Settings()
    return flops(
        replace(
            s, bytes_per_score=d.bytes_per_score, gpu=d.gpu, heads=d.heads, layers=d.layers, t0_ms=d.t0_ms
        ),
        scheme,
    )


# The cost table (22 rungs and the current n) as Arrow and as its CSV, and the time models' table:
# about 20 KB held.
@cache.resource(entry_bytes=32 * KB, entries=8, worst=lambda: [(_LARGEST,)])
def tables(s: view.Settings) -> tuple[Any, bytes, Any]:
    """The cost table (:func:`topics.cost.table.frame`) as the Arrow table ``st.dataframe`` would
    turn it into and as the CSV its download serves, and the time models' table
    (:func:`topics.cost.time_models.frame`) as Arrow, at ``s``: built once per setting."""
    v = view.build(s)
    bill = table.frame(v)
    return arrow(bill), table.csv(bill), arrow(time_models.frame(v))
