"""Dropout's charts, built once for each view and theme and kept in bounded caches.

A rerun whose charts' inputs have not changed (p or the scaling switched back, a seed seen before,
a focus moved back) draws the cached :class:`ui.figures.Built` instead of building the heatmaps and
the draws' charts again: that building was most of the page's rerun (issue 25). The view is a pure
function of its settings, so each entry is keyed by the view's settings (its focus, cell and colour
scale included) and ``mode``, the theme it is coloured in; the view itself (``_v``, which Streamlit
does not hash) is what the charts are built from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from topics.dropout import figures as dfig
from topics.dropout import view
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, arrow, built
from ui.theme import Mode


def _worst_view() -> view.View:
    """The largest charts: 32 tokens, the most draws that fit them, focused on the last query."""
    labels, x = cache.largest_sentence()
    s = view.Settings(labels, x, p=0.9, draws=view.draw_choices(len(x))[-1])
    return view.build(replace(s, focus=len(labels) - 1, cell=0, relative="row"))


def _worst_heatmaps() -> list[tuple[object, ...]]:
    v = _worst_view()
    return [(v.settings, "row", "dark", v)]


def _worst_draws() -> list[tuple[object, ...]]:
    v = _worst_view()
    return [(v.settings, "dark", v)]


# The two matrices at 32 tokens, focused, hold about 172 KB (their JSON and tables); the book's six
# tokens about 20 KB.
@cache.resource(entry_bytes=192 * KB, entries=12, worst=_worst_heatmaps)
def heatmaps_built(
    settings: view.Settings, relative: Relative | None, mode: Mode, _v: view.View
) -> dict[str, Built]:
    """:func:`topics.dropout.figures.heatmaps` of ``_v`` (whose settings are ``settings``), built."""
    return {key: built(chart) for key, chart in dfig.heatmaps(_v, relative).items()}


# The running mean and the zero-row rates: about 40 KB at 32 tokens.
@cache.resource(entry_bytes=64 * KB, entries=16, worst=_worst_draws)
def draws_built(settings: view.Settings, mode: Mode, _v: view.View) -> dict[str, Built]:
    """:func:`topics.dropout.figures.draw_charts` of ``_v`` (whose settings are ``settings``), built.
    The focus, cell and colour scale change none of these charts, so they are left out of the key."""
    return {key: built(chart) for key, chart in dfig.draw_charts(_v).items()}


def heatmaps(v: view.View, relative: Relative | None, mode: Mode) -> dict[str, Built]:
    """The two matrices as ``v`` shows them (its focus, cell and colour scale)."""
    return heatmaps_built(settings=v.settings, relative=relative, mode=mode, _v=v)


def draws(v: view.View, mode: Mode) -> dict[str, Built]:
    """The draws' two charts."""
    s = replace(v.settings, focus=None, cell=None, relative=None)
    return draws_built(settings=s, mode=mode, _v=v)


def _worst_rows() -> list[tuple[object, ...]]:
    v = _worst_view()
    return [(v.settings, v)]


# A row per query, four columns of short strings: 3 KB as Arrow at 32 tokens.
@cache.resource(entry_bytes=6 * KB, entries=16, worst=_worst_rows)
def rows_built(settings: view.Settings, _v: view.View) -> Any:
    """:func:`topics.dropout.figures.rows_table` of ``_v`` (whose settings are ``settings``), as the
    Arrow table ``st.dataframe`` would turn it into."""
    return arrow(dfig.rows_table(_v))


def rows(v: view.View) -> Any:
    """The table of rows under the draws' charts (the focus, cell and colour scale change none of it)."""
    return rows_built(settings=replace(v.settings, focus=None, cell=None, relative=None), _v=v)
