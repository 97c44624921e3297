"""What n² costs' two charts, built once per setting and theme, and kept for every reader.

Moving n back and forth rebuilt both charts and the tables of their values on every rerun, half
the page's own time. Resource caches keep them, uncopied (``ui.figures.show`` reads a chart
without changing it). Each chart is keyed on the settings it draws: the memory chart on n and the
bill's factors, the multiply-adds chart on n and one head's widths. ``scheme`` is the theme on
screen (``ui.theme.active().mode``): a chart's colours are chosen when it is built.
"""

from __future__ import annotations

from dataclasses import replace

from topics.cost import figures, view
from ui import cache
from ui.cache import KB
from ui.figures import Chart

_LARGEST = view.Settings(n=2_097_152, heads=view.MAX_HEADS, layers=view.MAX_LAYERS, d_in=view.D_INS[-1])


# The ladder's 22 rungs as two lines and the current point, with the table: about 60 KB held.
@cache.resource(entry_bytes=96 * KB, entries=8, worst=lambda: [(_LARGEST, "dark")])
def memory(s: view.Settings, scheme: str) -> Chart:
    """:func:`topics.cost.figures.memory` at ``s`` (its time and width settings are not read)."""
    return figures.memory(view.build(s))


@cache.resource(entry_bytes=96 * KB, entries=8, worst=lambda: [(_LARGEST, "dark")])
def flops(s: view.Settings, scheme: str) -> Chart:
    """:func:`topics.cost.figures.flops` at ``s`` (its bill's factors are not read)."""
    return figures.flops(view.build(s))


def memory_chart(s: view.Settings, scheme: str) -> Chart:
    """:func:`memory`, keyed only on what the memory chart draws."""
    return memory(
        replace(s, t0_ms=view.Settings.t0_ms, d_in=view.Settings.d_in, d_k=view.Settings.d_k), scheme
    )


def flops_chart(s: view.Settings, scheme: str) -> Chart:
    """:func:`flops`, keyed only on what the multiply-adds chart draws."""
    d = view.Settings()
    return flops(
        replace(
            s, bytes_per_score=d.bytes_per_score, gpu=d.gpu, heads=d.heads, layers=d.layers, t0_ms=d.t0_ms
        ),
        scheme,
    )
