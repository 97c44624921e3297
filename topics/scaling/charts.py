"""Divide by √d_k's four charts, built once for each setting and theme and kept in a bounded cache.

A rerun whose settings have been seen before (d_k or the divisor switched back, a seed revisited)
draws the cached :class:`ui.figures.Built` charts instead of building the four figures, copying
their specs out of Plotly and writing their JSON again: that was most of the page's rerun (issue
25). The view is a pure function of its settings (every Monte Carlo run is seeded, and brute force's
budget counts samples, not seconds), so the entry is keyed by the view's settings and ``mode``, the
theme the charts are coloured in; the view itself (``_v``, which Streamlit does not hash) is what
they are built from.
"""

from __future__ import annotations

from topics.scaling import figures, study, view
from topics.scaling import monte_carlo as mc
from ui import cache
from ui.cache import KB
from ui.figures import Built, built
from ui.theme import Mode


def _worst() -> list[tuple[object, ...]]:
    """The most keys, the whole Jacobian tail, without the divisor: the longest bars and tables."""
    s = view.Settings(d_k=mc.D_K_GRID[-1], divisor=False, n_keys=64, tail=True)
    v = view.build(s, study=study.run_study, draw=study.one_draw, reference=study.references)
    return [(s, "dark", v)]


# The four charts with their tables hold 34-44 KB at 64 keys, and measured 51 KB once in a CI run
# (tracemalloc also counts what a module first allocates during the call); 12 entries: a few
# settings moved back and forth, in both themes.
@cache.resource(entry_bytes=64 * KB, entries=12, worst=_worst)
def charts_built(settings: view.Settings, mode: Mode, _v: view.View) -> dict[str, Built]:
    """:func:`topics.scaling.figures.charts` of ``_v`` (whose settings are ``settings``), built."""
    return {key: built(chart) for key, chart in figures.charts(_v).items()}


def charts(v: view.View, mode: Mode) -> dict[str, Built]:
    """The page's four charts as ``v`` shows them, by widget key, in the theme ``mode``."""
    return charts_built(settings=v.settings, mode=mode, _v=v)
