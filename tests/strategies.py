"""Hypothesis strategies more than one folder's property tests draw from."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.weights import WeightSet

small = st.floats(min_value=-3, max_value=3, allow_nan=False)  # entries of inputs and weights


def weight_set(data: st.DataObject, d_in: int, d_out: int) -> WeightSet:
    """Three float32 matrices of ``small`` entries, as a weight set drawn by ``torch.rand`` would be."""
    mats = [data.draw(arrays(np.float32, (d_in, d_out), elements=small)) for _ in range(3)]
    return WeightSet("generated", 0, "rand", *mats)
