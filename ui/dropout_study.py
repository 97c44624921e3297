"""The Dropout page's Monte Carlo, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace; after eight Resample clicks nine namespaces were
alive and ``gc.collect()`` freed none. Defined once here, the function holds only this module.

The cache keeps :class:`core.dropout.DropoutStats`: summaries of a few kilobytes, with the running
mean at the draw counts the chart and the checks read, never the draws.
"""

from __future__ import annotations

import streamlit as st

from core import dropout, masking, tokens, weights
from ui import caches
from ui.dropout_figures import MAX_POINTS

CHECK_DRAWS_MEAN = 10_000  # the checks read the running mean after this many draws (the post's)


@st.cache_data(show_spinner=False, **caches.data("ui.dropout_study.run"))
def run(p: float, scale: bool, seed: int, draws: int, generator: str) -> dropout.DropoutStats:
    """Dropout on the section 3.5 causal weights, ``draws`` times from ``seed``, summarised."""
    w = masking.causal_weights(tokens.inputs(), weights.section_3_5())
    record = dropout.log_spaced_counts(draws, MAX_POINTS, always=(CHECK_DRAWS_MEAN,))
    return dropout.dropout_study(w, seed, draws, p, scale, generator, record)


def study(p: float, scale: bool, seed: int, draws: int, generator: str) -> dropout.DropoutStats:
    """:func:`run` under a spinner naming the work (Streamlit shows it only after half a second)."""
    name = "PyTorch's" if generator == "torch" else "NumPy's"
    with st.spinner(f"Drawing {draws:,} dropout masks from {name} generator, seed {seed}…"):
        return run(p, scale, seed, draws, generator)
