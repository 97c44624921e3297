"""Learning to attend's training runs, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace (see :mod:`ui.dropout_study`).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from core import learning
from core.attention import Mode
from ui import caches


@st.cache_data(show_spinner="Training all three modes…", **caches.data("ui.learning_study.train"))
def train(
    kind: learning.Target,
    token: int,
    optimiser: learning.Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> tuple[np.ndarray, dict[Mode, learning.Trajectory]]:
    """The target pattern on inputs ``x`` (the sentence's embeddings), and every mode fitted to it
    from ``w_query`` and ``w_key``."""
    target = learning.target_pattern(kind, len(x), token)
    config = learning.TrainConfig(optimiser, lr, steps, record_every=learning.record_every(steps, len(x)))
    return target, learning.train_modes(x, target, w_query, w_key, config)
