"""Every ``st.cache_data`` and ``st.cache_resource`` in the app, and the bytes each may hold.

Streamlit bounds a cache by its number of entries and, for ``st.cache_data``, by the pickled
bytes of all of them (``max_size``). An entry count alone bounds nothing: 4,096 entries of one
kilobyte and 64 entries of 30 MB read the same. So each cache here declares the bytes of its
largest entry, measured at the worst legal setting of the page that fills it, and gets as many
entries as its share of :data:`BUDGET` allows. ``tests/app/test_caches.py`` finds every cached
function in the app, fails on one that is not declared here or declares no bound, re-measures
each largest entry against its declaration, and checks the sum against the budget.

The worst case of all caches together is ``Σ entries × entry_bytes``: what a server holds once
every cache is full of its largest entries, whatever any number of readers asks for. Pickled
bytes are what ``st.cache_data`` stores; a hit unpickles a copy for the run that asked, which
is transient. ``st.cache_resource`` stores the object itself, so its entries are measured as
the memory they hold (``tracemalloc``), not as a pickle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

KB, MB = 2**10, 2**20
BUDGET = 48 * MB  # every cache full at once; the server itself starts near 170 MB resident


@dataclass(frozen=True)
class Bound:
    """One cache: the bytes of its largest entry (rounded up) and how many entries it keeps."""

    kind: Literal["data", "resource"]
    entry_bytes: int
    entries: int

    @property
    def bytes(self) -> int:
        return self.entry_bytes * self.entries


BOUNDS: dict[str, Bound] = {
    # Divide by √d_k: one d_k's summaries (never the draws), a whole study of 19, one draw's scores.
    "ui.scaling_study.study_at": Bound("data", 1 * KB, 4_096),  # measured 0.6 KB
    "ui.scaling_study.whole_study": Bound("data", 8 * KB, 256),  # 6.2 KB
    "ui.scaling_study.one_draw": Bound("data", 1 * KB, 1_024),  # 0.6 KB at 64 keys
    # The reference Divide by √d_k checks against: a handful of floats per d_k, one entry a server.
    "ui.scaling_reference.references": Bound("data", 16 * KB, 1),
    # Dropout: summaries at ~600 draw counts, whatever the number of draws; a 32-token sentence's
    # first draw and rates are the largest part (7.9 KB for the book's six tokens).
    "ui.dropout_study.run": Bound("data", 32 * KB, 128),  # 14.5 KB at 32 tokens
    # Learning to attend: three trajectories of 5,000 steps, their snapshots capped in cells
    # (core.learning.record_every): 386 KB for the book's sentence.
    "ui.learning_study.train": Bound("data", 1 * MB, 16),  # 836 KB at 32 tokens × 16 dimensions
    # ...the same run from weights nudged by one ulp, for the Reproduce expander's note; few entries:
    # it is trained only while that expander is open.
    "ui.reproduce._nudged": Bound("data", 1 * MB, 2),  # 828 KB at 32 tokens
    # ...and the search and linear program, for up to learning.MAX_SEARCH_TOKENS tokens.
    "ui.learning_readouts.limits": Bound("data", 16 * KB, 32),  # 7.1 KB at 8 tokens × 16
    # Multi-head: the first batch item's attention per head, the output and W_q thinned to what
    # their figures draw (96 × 96 cells at most), the shape trace.
    "ui.multihead_view.run": Bound("data", 256 * KB, 6),  # 209 KB at 32 tokens, 1,024 wide × 16 heads
    "ui.multihead_view.figures_for": Bound("resource", 2 * MB, 6),  # 1.7 MB held
    "ui.multihead_view._book_outputs": Bound("data", 2 * KB, 1),  # 1.2 KB, one entry
}


def data(name: str) -> dict[str, int]:
    """``st.cache_data``'s keyword arguments for the cache ``name``: entries and pickled bytes."""
    b = BOUNDS[name]
    if b.kind != "data":
        raise ValueError(f"{name} is declared as a {b.kind} cache")
    return {"max_entries": b.entries, "max_size": b.bytes}


def resource(name: str) -> dict[str, int]:
    """``st.cache_resource``'s keyword arguments for ``name``: it can bound entries only."""
    b = BOUNDS[name]
    if b.kind != "resource":
        raise ValueError(f"{name} is declared as a {b.kind} cache")
    return {"max_entries": b.entries}


def total_bytes() -> int:
    """The worst case of every cache at once."""
    return sum(b.bytes for b in BOUNDS.values())
