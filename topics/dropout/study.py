"""The Dropout page's Monte Carlo, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace; after eight Resample clicks nine namespaces were
alive and ``gc.collect()`` freed none. Defined once here, the function holds only this module.

The cache keeps :class:`topics.dropout.sampling.DropoutStats`: summaries of a few kilobytes, with the running
mean at the draw counts the chart and the checks read, never the draws.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from core import masking, tokens, weights
from core.sentence import weights_for
from topics.dropout import sampling
from topics.dropout.figures import MAX_POINTS
from ui import cache
from ui.cache import KB

CHECK_DRAWS_MEAN = 10_000  # the checks read the running mean after this many draws (the post's)


# Summaries at ~600 draw counts, whatever the number of draws; a 32-token sentence's first draw
# and rates are the largest part (7.9 KB for the book's six tokens, 14.5 KB at 32 tokens).
@cache.data(
    entry_bytes=32 * KB,
    entries=128,
    worst=lambda: [
        (0.9, False, 2**31 - 1, draws, "numpy", x)
        for draws, x in ((100_000, tokens.inputs()), (2_000, cache.largest_sentence()[1]))
    ],
)
def run(p: float, scale: bool, seed: int, draws: int, generator: str, x: np.ndarray) -> sampling.DropoutStats:
    """Dropout on the section 3.5 causal weights of inputs ``x`` (the sentence's embeddings; the
    weights redrawn at its width), ``draws`` times from ``seed``, summarised."""
    w = masking.causal_weights(x, weights_for(weights.section_3_5(), x.shape[1]))
    record = sampling.log_spaced_counts(draws, MAX_POINTS, always=(CHECK_DRAWS_MEAN,))
    return sampling.dropout_study(w, seed, draws, p, scale, generator, record)


def study(
    p: float, scale: bool, seed: int, draws: int, generator: str, x: np.ndarray
) -> sampling.DropoutStats:
    """:func:`run` under a spinner naming the work (Streamlit shows it only after half a second)."""
    name = "PyTorch's" if generator == "torch" else "NumPy's"
    with st.spinner(f"Drawing {draws:,} dropout masks from {name} generator, seed {seed}…"):
        return run(p, scale, seed, draws, generator, x)
