"""What comes next, kept between reruns: the view without its focus, and the charts, per setting.

A focus or cell click reruns only the page's shuffle section (an ``st.fragment``), and a control
change elsewhere leaves most of the page as it was: the shuffle (two permutation tests and the
causal weights) when the KV cache moves, the block's charts when the sentence does. Resource caches
keep each part for every reader, uncopied: the view is frozen, and ``ui.figures.show`` reads a
chart without changing it. The charts are drawn in the theme on screen (``scheme``,
``ui.theme.active().mode``): their colour scales are chosen when they are built.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from topics.next import block, figures, view
from topics.next.block import BlockConfig
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, built


def _largest() -> view.Settings:
    labels, x = cache.largest_sentence()
    return view.Settings(labels, x, perm=tuple(reversed(range(len(labels)))))


# Both permutation tests and the causal trace of a 32-token, 16-wide sentence: 36 KB held.
@cache.resource(entry_bytes=48 * KB, entries=8, worst=lambda: [(_largest(),)])
def unfocused(s: view.Settings) -> view.View:
    """:func:`topics.next.view.unfocused`; ``s`` comes without a focus or a cell (they are not read)."""
    return view.unfocused(s)


def page_view(s: view.Settings) -> view.View:
    """The view of ``s`` with no focus: the cached :func:`unfocused`, keyed without focus or cell."""
    return unfocused(replace(s, focus=None, cell=None))


# The parameter split (8 bars) and the KV chart (22 token counts, up to 5 lines): 92 KB held.
@cache.resource(
    entry_bytes=128 * KB,
    entries=8,
    worst=lambda: [
        (BlockConfig(), 2**21, 8, 4096, "dark"),
        (BlockConfig(16_384, 256, 256), 2**21, 8, 4096, "dark"),
    ],
)
def block_charts(
    cfg: BlockConfig, kv_tokens: int, kv_bytes: int, kv_batch: int, scheme: str
) -> dict[str, Built]:
    """:func:`topics.next.figures.block_charts` for the block ``cfg`` and the KV setting, built."""
    kv = view.kv_cache(cfg, kv_tokens, kv_bytes, kv_batch, view.preset_name(cfg))
    return {k: built(c) for k, c in figures.block_charts(block.block_params(cfg), kv, cfg).items()}


def _shuffle_worst() -> list[tuple[object, ...]]:
    s = _largest()
    return [(s.labels, s.embeddings, s.perm, 0, 31, relative, "dark") for relative in (None, "row")]


# Two 32 × 16 gap heatmaps and the 32 × 32 causal weights, with cell text and tables: 538 KB held.
@cache.resource(entry_bytes=640 * KB, entries=3, worst=_shuffle_worst)
def shuffle_charts(
    labels: tuple[str, ...],
    x: np.ndarray,
    perm: tuple[int, ...],
    focus: int | None,
    cell: int | None,
    relative: Relative | None,
    scheme: str,
) -> dict[str, Built]:
    """:func:`topics.next.figures.shuffle_charts` of the sentence shuffled by ``perm``, ``focus``
    (and the cell's key ``cell``) outlined, built."""
    sh = view.shuffle(labels, x, view.weights_for(x.shape[1]), perm)
    charts = figures.shuffle_charts(view.focus_on(sh, labels, x, focus, cell), relative)
    return {k: built(c) for k, c in charts.items()}
