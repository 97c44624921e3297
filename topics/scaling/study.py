"""The study of "Divide by √d_k", cached: whole-study results and one draw; and the figures of both.

``st.cache_data`` holds every result keyed on the controls it depends on (draws, keys, seed,
sampler; d_k and the divisor only select from a study that holds both settings). A study that
may take more than half a second is run one cached d_k at a time under a progress bar that names
the d_k being sampled. Entries are summaries, never draws; each declares its bound (:mod:`ui.cache`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from core import attention
from topics.scaling import figures as sf
from topics.scaling import monte_carlo as scaling
from ui import cache
from ui.cache import KB

PROGRESS_AFTER_S = 0.5  # a study estimated to take longer runs under a progress bar


# One d_k's summaries (never the draws): measured 0.6 KB.
@cache.data(entry_bytes=1 * KB, entries=4_096, worst=lambda: [(500, 64, 999, "exact", 65536)])
def study_at(draws: int, n_keys: int, seed: int, sampler: str, d_k: int) -> scaling.DkResult:
    """One d_k of the study (both divisor settings, from the same draws)."""
    return scaling.study_at(scaling.StudyConfig(draws, n_keys, seed, sampler), d_k)


# A whole study of 19 d_k: 6.2 KB.
@cache.data(entry_bytes=8 * KB, entries=256, worst=lambda: [(500, 64, 999, "exact")])
def whole_study(draws: int, n_keys: int, seed: int, sampler: str) -> dict[int, scaling.DkResult]:
    """Every d_k the sampler can afford, in one cache entry: a warm rerun is one lookup."""
    config = scaling.StudyConfig(draws, n_keys, seed, sampler)
    return {d: study_at(draws, n_keys, seed, sampler, d) for d in scaling.study_grid(config)}


def run_study(config: scaling.StudyConfig) -> dict[int, scaling.DkResult]:
    """The whole study; when it may take more than half a second, d_k by d_k under a progress bar.

    The estimate errs towards showing the bar (:data:`core.scaling.NORMALS_PER_SECOND`)."""
    args = (config.draws, config.n_keys, config.seed, config.sampler)
    grid = scaling.study_grid(config)
    if scaling.estimated_seconds(config, grid) > PROGRESS_AFTER_S:
        bar = st.progress(0.0, text="Sampling…")
        total, done = sum(scaling.work(config, d) for d in grid), 0
        for d in grid:
            bar.progress(
                done / total, text=f"Sampling d_k = {d:,}: {config.draws:,} draws of {config.n_keys} keys"
            )
            study_at(*args, d)
            done += scaling.work(config, d)
        bar.empty()
    return whole_study(*args)


# One draw's scores: 0.6 KB at 64 keys.
@cache.data(entry_bytes=1 * KB, entries=1_024, worst=lambda: [(64, 999, "exact", 65536, False)])
def one_draw(n_keys: int, seed: int, sampler: str, d_k: int, divisor: bool) -> np.ndarray:
    """One draw's scores as the softmax sees them (divided when the divisor is on)."""
    scores = scaling.one_draw(scaling.StudyConfig(1, n_keys, seed, sampler), d_k)
    return scores / np.sqrt(d_k) if divisor else scores


def bars_figure(n_keys: int, seed: int, sampler: str, d_k: int, divisor: bool) -> go.Figure:
    scores = one_draw(n_keys, seed, sampler, d_k, divisor)
    log10_alpha = attention.log_softmax(scores) / np.log(10)  # read from logs: no weight prints as 0
    return sf.weight_bars(log10_alpha, scores, divisor=divisor, title=f"One draw's weights at d_k = {d_k:,}")


def study_figures(
    draws: int, n_keys: int, seed: int, sampler: str, d_k: int, divisor: bool, tail: bool = False
) -> tuple[go.Figure, go.Figure, go.Figure]:
    results = whole_study(draws, n_keys, seed, sampler)
    return sf.study_figures(
        results, selected=d_k, divisor=divisor, threshold=scaling.LIVE_THRESHOLD, tail=tail
    )
