"""Three matrices' heatmaps and tables, built once for each input and theme and kept in bounded
caches.

A rerun whose heatmap inputs have not changed (the mode switched back, a cell picked again) draws
the cached :class:`ui.figures.Built` instead of building the heatmap again: building a heatmap and
copying its spec out of Plotly was most of the page's rerun (issue 25). The function takes exactly
what its heatmap shows, and ``mode``, the theme the page is drawn in (``ui.theme.active().mode``):
the builders colour the figure in it, so each theme keeps its own entries.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from topics.three_matrices import figures, readouts, view
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, arrow, built
from ui.theme import Mode


def _worst() -> list[tuple[object, ...]]:
    """The three heatmaps of the largest sentence (32 tokens of 11 characters, 383 of the box's
    400 characters; 16 dimensions edited to ±9.99 by turns, so the scores print as long as they
    can), focused, with the weights on a relative scale."""
    labels, _ = cache.largest_sentence()
    signs = np.where(np.add.outer(np.arange(len(labels)), np.arange(16)) % 2, 1.0, -1.0)
    labels = tuple(f"{t:_<11}" for t in labels)
    v = view.build(view.Settings(labels, 9.99 * signs, False))
    return [
        (key, m, labels, title, signed, 31, 0, "row", "dark")
        for key, (m, title, signed) in figures.shown(v).items()
    ]


# A 32-token heatmap with its focus holds 148 KB at most (its spec's JSON, whose non-ASCII
# labels Plotly writes as \u escapes, with each cell's printed value and ink, and its table); the book's six
# to 10 KB. 16 entries: the three heatmaps of a few settings in two themes.
@cache.resource(entry_bytes=160 * KB, entries=16, worst=_worst)
def heatmap_built(
    key: str,
    matrix: np.ndarray,
    labels: tuple[str, ...],
    title: str,
    signed: bool,
    focus: int | None,
    cell: int | None,
    relative: Relative | None,
    mode: Mode,
) -> Built:
    """:func:`topics.three_matrices.figures.heatmap`, built (``mode`` is the theme it is coloured in)."""
    return built(
        figures.heatmap(key, matrix, labels, title, signed, focus=focus, cell=cell, relative=relative)
    )


def heatmaps(v: view.View, relative: Relative | None, mode: Mode) -> dict[str, Built]:
    """The three heatmaps as ``v`` shows them, with its focus and cell, by their widget keys.
    Each call passes its arguments by name: Streamlit reads the cached function's signature once
    per positional argument to hash it (half a millisecond for nine), and not for keywords."""
    return {
        key: heatmap_built(
            key=key,
            matrix=m,
            labels=v.labels,
            title=title,
            signed=signed,
            focus=v.focus_row,
            cell=v.cell_key,
            relative=relative,
            mode=mode,
        )
        for key, (m, title, signed) in figures.shown(v).items()
    }


def _worst_tables() -> list[tuple[object, ...]]:
    labels, x = cache.largest_sentence()
    s = view.Settings(tuple(f"{t:_<11}" for t in labels), x, False)
    return [(s, view.build(s))]


# The modes' table and the operations' table: about 3 KB as Arrow at 32 tokens of 11 characters.
@cache.resource(entry_bytes=6 * KB, entries=16, worst=_worst_tables)
def tables_built(settings: view.Settings, _v: view.View) -> tuple[Any, Any]:
    """:func:`topics.three_matrices.readouts.modes_table` and ``ops_table`` of ``_v`` (whose
    settings are ``settings``), as the Arrow tables ``st.dataframe`` would turn them into."""
    return arrow(readouts.modes_table(_v)), arrow(readouts.ops_table(_v))


def tables(s: view.Settings, v: view.View) -> tuple[Any, Any]:
    """The modes' table and the operations' table as ``v``, the view of ``s``, shows them (neither
    shows the focus)."""
    return tables_built(settings=replace(s, focus=None, cell=None), _v=v)
