"""The Recap's charts, built once per setting and theme, and kept for every reader.

A reader moves the query and key back and forth; each move rebuilt two heatmaps, the 3-D scene
and the tables of their values, most of the page's rerun at 32 tokens. Resource caches keep them,
uncopied (``ui.figures.show`` reads a chart without changing it); the scene, which does not show
the key, has its own, so a key change leaves it alone.
"""

from __future__ import annotations

import numpy as np

from topics.recap import figures, view
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, built


def _sentence(labels: tuple[str, ...], x: np.ndarray, query: str, key: str) -> view.View:
    return view.build(view.Settings(labels, x, query, key))


def _heatmaps_worst() -> list[tuple[object, ...]]:
    labels, x = cache.largest_sentence()
    return [(labels, x, labels[0], labels[-1], relative, "dark") for relative in (None, "row")]


# Two 32 × 32 heatmaps with their cell text, and their tables: 807 KB held.
@cache.resource(entry_bytes=896 * KB, entries=3, worst=_heatmaps_worst)
def heatmaps(
    labels: tuple[str, ...], x: np.ndarray, query: str, key: str, relative: Relative | None, scheme: str
) -> dict[str, Built]:
    """:func:`topics.recap.figures.heatmaps`, built; ``scheme`` is the theme they are drawn in
    (``ui.theme.active().mode``): their colour scales are chosen when they are built."""
    return {k: built(c) for k, c in figures.heatmaps(_sentence(labels, x, query, key), relative).items()}


def _collapse_worst() -> list[tuple[object, ...]]:
    labels, x = cache.largest_sentence()
    return [(labels, x, labels[0], "dark")]


@cache.resource(entry_bytes=64 * KB, entries=8, worst=_collapse_worst)  # 53 KB at 32 tokens
def collapse(labels: tuple[str, ...], x: np.ndarray, query: str, scheme: str) -> Built:
    """:func:`topics.recap.figures.collapse`, built: the scene does not show the key, so it is not asked."""
    return built(figures.collapse(_sentence(labels, x, query, query)))
