"""The heavy parts of "Divide by √d_k", cached, with what a reader sees while they run.

Each function has the signature of the plain one in :mod:`topics.scaling.view` that the page
passes it in place of. ``st.cache_data`` holds every result keyed on the controls it depends on
(draws, keys, seed, sampler; d_k and the divisor only select from a study that holds both
settings). A study that may take more than half a second runs one cached d_k at a time under a
progress bar naming the d_k being sampled. Entries are summaries, never draws; each declares its
bound (:mod:`ui.cache`). :func:`warm` starts the 10⁶-draw reference once per process, in the
background, as the first reader arrives on any page: the 1.2 s it takes would otherwise land on
the first Divide by √d_k visitor's first run (2.6 s with brute force, over the 2 s goal;
``python -m bench worst``).
"""

from __future__ import annotations

import threading

import numpy as np
import streamlit as st

from topics.scaling import monte_carlo as mc
from topics.scaling import view
from topics.scaling.monte_carlo import DkResult, Reference, Sampler, StudyConfig
from ui import cache
from ui.cache import KB

PROGRESS_AFTER_S = 0.5  # a study estimated to take longer runs under a progress bar


# One d_k's summaries (never the draws), with the share at each cut-off: measured 0.8 KB.
@cache.data(entry_bytes=1 * KB, entries=4_096, worst=lambda: [(500, 64, 999, "exact", 65536)])
def study_at(draws: int, n_keys: int, seed: int, sampler: Sampler, d_k: int) -> DkResult:
    """One d_k of the study (both divisor settings, from the same draws)."""
    return mc.study_at(StudyConfig(draws, n_keys, seed, sampler), d_k)


# A whole study of 19 d_k, with the share at each cut-off: 9.2 KB.
@cache.data(entry_bytes=12 * KB, entries=256, worst=lambda: [(500, 64, 999, "exact")])
def whole_study(draws: int, n_keys: int, seed: int, sampler: Sampler) -> dict[int, DkResult]:
    """:func:`topics.scaling.view.whole_study` from the cached d_k: a warm rerun is one lookup."""
    config = StudyConfig(draws, n_keys, seed, sampler)
    return {d: study_at(draws, n_keys, seed, sampler, d) for d in mc.study_grid(config)}


def run_study(draws: int, n_keys: int, seed: int, sampler: Sampler) -> dict[int, DkResult]:
    """The whole study; when it may take more than half a second, d_k by d_k under a progress bar.

    The estimate errs towards showing the bar (:data:`topics.scaling.monte_carlo.NORMALS_PER_SECOND`)."""
    config = StudyConfig(draws, n_keys, seed, sampler)
    grid = mc.study_grid(config)
    if mc.estimated_seconds(config, grid) > PROGRESS_AFTER_S:
        bar = st.progress(0.0, text="Sampling…")
        total, done = sum(mc.work(config, d) for d in grid), 0
        for d in grid:
            bar.progress(done / total, text=f"Sampling d_k = {d:,}: {draws:,} draws of {n_keys} keys")
            study_at(draws, n_keys, seed, sampler, d)
            done += mc.work(config, d)
        bar.empty()
    return whole_study(draws, n_keys, seed, sampler)


def post_study(seed: int, sampler: Sampler) -> dict[int, DkResult]:
    """:func:`topics.scaling.view.post_study` from the cached d_k, under a spinner."""
    draws, n_keys = mc.POST_DRAWS, view.POST_KEYS
    with st.spinner(f"Sampling the post's setting for the checks: {draws} draws of {n_keys} keys…"):
        return {d: study_at(draws, n_keys, seed, sampler, d) for d in mc.TABLE_D_KS}


# One draw's scores: 0.6 KB at 64 keys.
@cache.data(entry_bytes=1 * KB, entries=1_024, worst=lambda: [(64, 999, "exact", 65536, False)])
def one_draw(n_keys: int, seed: int, sampler: Sampler, d_k: int, divisor: bool) -> np.ndarray:
    """One draw's scores as the softmax sees them (divided when the divisor is on)."""
    return view.one_draw(n_keys, seed, sampler, d_k, divisor)


SPINNER = (
    f"Computing the true values once for this server: {mc.REFERENCE_DRAWS:,} exact draws of six keys "
    f"at each d_k the post quotes ({', '.join(f'{d:,}' for d in mc.TABLE_D_KS)})…"
)


# A handful of floats per d_k (seven statistics, each a value, two errors and a percentile), one
# entry a server: the 10⁶ draws behind them are dropped as soon as they are summarised.
@cache.data(entry_bytes=16 * KB, entries=1, worst=lambda: [()], show_spinner=SPINNER)
def references() -> dict[int, Reference]:
    """The reference at every d_k the post quotes, with each unrounded quote placed among 500-draw runs."""
    return view.references()


_warm_lock = threading.Lock()
_warm_started = False


def warm() -> None:
    """Compute :func:`references` in a background thread, once per process. A page that asks
    while it runs waits for the same result (Streamlit's cache computes one value once)."""
    global _warm_started
    with _warm_lock:
        if _warm_started:
            return
        _warm_started = True
    threading.Thread(target=references, name="scaling-reference", daemon=True).start()
