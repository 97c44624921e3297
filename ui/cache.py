"""The app's one way to cache: ``st.cache_data`` or ``st.cache_resource``, bounded in bytes at the function.

Streamlit bounds a cache by its number of entries and, for ``st.cache_data``, by the pickled
bytes of all of them (``max_size``). An entry count alone bounds nothing: 4,096 entries of one
kilobyte and 64 entries of 30 MB read the same. So every cached function declares, where it is
defined, the bytes of its largest entry, how many entries it keeps, and ``worst``: the arguments
of its largest legal entries (the worst setting of the page that fills it). The decorator
registers all three; ``tests/app/test_caches.py`` imports every module, re-measures each
function's largest entry against its declaration, and checks the sum against :data:`BUDGET`. No
module calls ``st.cache_data`` or ``st.cache_resource`` itself (that test fails on one).

The worst case of all caches together is ``Σ entries × entry_bytes``: what a server holds once
every cache is full of its largest entries, whatever any number of readers asks for. Pickled
bytes are what ``st.cache_data`` stores; a hit unpickles a copy for the run that asked, which is
transient. ``st.cache_resource`` stores the object itself, so its entries are measured as the
memory they hold (``tracemalloc``), not as a pickle.

A cached function lives in a module, never in a page script: a page script is re-executed on
every run, and a function defined there would hold on to each run's whole namespace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
import streamlit as st

KB, MB = 2**10, 2**20
BUDGET = 64 * MB  # every cache full at once; a 185 MB server + 64 + 160 of heavy work (ui.budget) < 450

F = TypeVar("F", bound=Callable[..., Any])
Worst = Callable[[], Iterable[tuple[Any, ...]]]


@dataclass(frozen=True)
class Bound:
    """One cache: the bytes of its largest entry (rounded up), how many entries it keeps, and the
    arguments of its largest legal entries (a function, so nothing is built until a test asks)."""

    kind: Literal["data", "resource"]
    entry_bytes: int
    entries: int
    worst: Worst

    @property
    def bytes(self) -> int:
        return self.entry_bytes * self.entries


@dataclass(frozen=True)
class Cached:
    """A registered cache: its bound, the cached function and the plain one it wraps."""

    bound: Bound
    func: Any  # Streamlit's CachedFunc
    plain: Callable[..., Any]


REGISTRY: dict[str, Cached] = {}  # "module.function" -> its cache, filled as modules are imported


def _register(fn: Callable[..., Any], bound: Bound, cached: Any) -> None:
    if bound.entry_bytes <= 0 or bound.entries < 1:
        raise ValueError(f"{fn.__qualname__}: a cache needs a positive entry size and at least one entry")
    REGISTRY[f"{fn.__module__}.{fn.__qualname__}"] = Cached(bound, cached, fn)


def data(
    *, entry_bytes: int, entries: int, worst: Worst, show_spinner: bool | str = False
) -> Callable[[F], F]:
    """``st.cache_data`` holding at most ``entries`` pickles of at most ``entry_bytes`` each."""

    def wrap(fn: F) -> F:
        bound = Bound("data", entry_bytes, entries, worst)
        cached = st.cache_data(show_spinner=show_spinner, max_entries=entries, max_size=bound.bytes)(fn)
        _register(fn, bound, cached)
        return cached  # type: ignore[return-value]  # a CachedFunc calls like the function it wraps

    return wrap


def resource(
    *, entry_bytes: int, entries: int, worst: Worst, show_spinner: bool | str = False
) -> Callable[[F], F]:
    """``st.cache_resource`` holding at most ``entries`` objects, each holding at most
    ``entry_bytes`` of memory (Streamlit bounds resources by count only: the test measures bytes)."""

    def wrap(fn: F) -> F:
        bound = Bound("resource", entry_bytes, entries, worst)
        cached = st.cache_resource(show_spinner=show_spinner, max_entries=entries)(fn)
        _register(fn, bound, cached)
        return cached  # type: ignore[return-value]

    return wrap


def total_bytes() -> int:
    """The worst case of every registered cache at once."""
    return sum(c.bound.bytes for c in REGISTRY.values())


def largest_sentence() -> tuple[tuple[str, ...], np.ndarray]:
    """The largest sentence a reader can set (``core.sentence``: 32 tokens of 16 dimensions), with
    hundredths as the editor makes them: what most ``worst`` arguments are measured on."""
    from core.sentence import MAX_TOKENS, MAX_WIDTH

    x = np.round(np.random.default_rng(0).random((MAX_TOKENS, MAX_WIDTH)), 2)
    return tuple(f"t{i}" for i in range(MAX_TOKENS)), x
