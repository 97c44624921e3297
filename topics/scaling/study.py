"""The heavy parts of "Divide by √d_k", cached, with what a reader sees while they run.

Each function has the signature of the plain one in :mod:`topics.scaling.view` that the page
passes it in place of. ``st.cache_data`` holds every result keyed on the controls it depends on
(draws, keys, seed, sampler; d_k and the divisor only select from a study that holds both
settings). A study that may take more than half a second runs one cached d_k at a time under a
progress bar naming the d_k being sampled. Entries are summaries, never draws; each declares its
bound (:mod:`ui.cache`).

Heavy work shares the server (:mod:`ui.budget`): a d_k of the study, or brute force's one draw,
whose working set (:func:`topics.scaling.monte_carlo.working_set`, from its arguments) reaches
:data:`HEAVY_BYTES` waits for its turn, and the reader sees their place. Lighter work takes
milliseconds and runs at once: a queue would only make it wait behind a Dropout reader's seconds.

The 10⁶-draw reference is read from the file :mod:`topics.scaling.stored` keeps (the first run
used to wait 1.2 s for it, 5–7 s while a server started under load).

Everything these functions draw (the progress bar, the spinners, the waiting room) goes where the
page says (:data:`BUSY_CSS`): over the top chart, which stays in place, never in the page's flow.
"""

from __future__ import annotations

import contextlib

import numpy as np
import streamlit as st

from topics.scaling import monte_carlo as mc
from topics.scaling import stored, view
from topics.scaling.monte_carlo import DkResult, Reference, Sampler, StudyConfig
from ui import budget, cache
from ui.cache import KB, MB

PROGRESS_AFTER_S = 0.5  # a study estimated to take longer runs under a progress bar
HEAVY_BYTES = 4 * MB  # a working set this large waits for its turn in the server's budget
# The page's busy slot (a keyed container at the top of the chart's column) floats over the chart:
# a progress bar, spinner or waiting message there covers the old chart's top, faded by Streamlit
# while the run lasts, and moves nothing (issue 25: the bar in the page's flow shifted it, CLS 0.21).
BUSY_KEY = "dk_busy"
BUSY_CSS = f"""<style>
[data-testid="stColumn"]:has(.st-key-{BUSY_KEY}) {{ position: relative; }}
[data-testid="stLayoutWrapper"]:has(> .st-key-{BUSY_KEY}) {{
  position: absolute; top: 2.25rem; left: 0; right: 0; z-index: 5;
}}
.st-key-{BUSY_KEY} > [data-testid="stElementContainer"]:has([data-testid="stProgress"], .stSpinner,
  [data-testid="stAlert"]) {{ padding: 0.5rem 0.75rem; border-radius: 0.5rem; backdrop-filter: blur(8px); }}
</style>"""


def _turn(cost: int) -> contextlib.AbstractContextManager[None]:
    """The budget's turn for a working set of ``cost`` bytes, or none for light work."""
    return budget.heavy(cost) if cost >= HEAVY_BYTES else contextlib.nullcontext()


# One d_k's summaries (never the draws), with the share at each cut-off: measured 0.8 KB.
@cache.data(entry_bytes=1 * KB, entries=4_096, worst=lambda: [(500, 64, 999, "exact", 65536)])
def study_at(draws: int, n_keys: int, seed: int, sampler: Sampler, d_k: int) -> DkResult:
    """One d_k of the study (both divisor settings, from the same draws), under the budget."""
    config = StudyConfig(draws, n_keys, seed, sampler)
    with _turn(mc.working_set(config, d_k)):
        return mc.study_at(config, d_k)


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
    with budget.waiting_room():
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
    spinner = f"Sampling the post's setting for the checks: {draws} draws of {n_keys} keys…"
    with budget.waiting_room(), st.spinner(spinner):
        return {d: study_at(draws, n_keys, seed, sampler, d) for d in mc.TABLE_D_KS}


# One draw's scores: 0.6 KB at 64 keys.
@cache.data(entry_bytes=1 * KB, entries=1_024, worst=lambda: [(64, 999, "exact", 65536, False)])
def cached_draw(n_keys: int, seed: int, sampler: Sampler, d_k: int, divisor: bool) -> np.ndarray:
    """One draw's scores as the softmax sees them (divided when the divisor is on), under the budget
    (brute force's one draw holds 34 MB at d_k = 65,536 with 64 keys)."""
    with _turn(mc.draw_bytes(n_keys, d_k, sampler)):
        return view.one_draw(n_keys, seed, sampler, d_k, divisor)


def one_draw(n_keys: int, seed: int, sampler: Sampler, d_k: int, divisor: bool) -> np.ndarray:
    """:func:`cached_draw`, with the waiting room open while it waits for its turn."""
    with budget.waiting_room():
        return cached_draw(n_keys, seed, sampler, d_k, divisor)


# A handful of floats per d_k (seven statistics, each a value, two errors and a percentile), one
# entry a server, read from the file that holds them (7 KB).
@cache.data(entry_bytes=16 * KB, entries=1, worst=lambda: [()])
def references() -> dict[int, Reference]:
    """The reference at every d_k the post quotes, with each unrounded quote placed among 500-draw
    runs: :func:`topics.scaling.view.references`, as :mod:`topics.scaling.stored` keeps it."""
    return stored.load()
