"""The book's two weight sets for chapter 3, regenerated from their seeds.

Chapter 3 switches initialisation halfway (the post's opening warning): section 3.4 builds
``SelfAttention_v1`` after ``torch.manual_seed(123)`` with three ``nn.Parameter(torch.rand(3, 2))``;
section 3.5 (masking, dropout) runs on ``sa_v2``, built after ``torch.manual_seed(789)`` with three
``nn.Linear(3, 2, bias=False)``. Both store matrices the way the equation reads them,
``(d_in, d_out)``, so ``Q = X @ w_query``; ``nn.Linear``'s transposed weight is undone here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from core.torchgen import TorchGenerator

Init = Literal["rand", "linear"]

SECTION_3_4_SEED = 123  # SelfAttention_v1: torch.manual_seed(123), torch.rand
SECTION_3_5_SEED = 789  # SelfAttention_v2 (sa_v2): torch.manual_seed(789), nn.Linear


@dataclass(frozen=True)
class WeightSet:
    """Three projection matrices, float32 as PyTorch holds them, each ``(d_in, d_out)``."""

    label: str
    seed: int
    init: Init
    w_query: np.ndarray
    w_key: np.ndarray
    w_value: np.ndarray


def init_weights(seed: int, init: Init, d_in: int = 3, d_out: int = 2) -> WeightSet:
    """Query, key and value matrices as the book creates them after ``torch.manual_seed(seed)``.

    ``"rand"`` is ``SelfAttention_v1`` (``torch.rand(d_in, d_out)`` each, section 3.4);
    ``"linear"`` is ``SelfAttention_v2`` (``nn.Linear(d_in, d_out, bias=False)`` each, 3.5).
    Both draw in the order query, key, value.
    """
    gen = TorchGenerator(seed)
    if init == "rand":
        mats = [gen.rand(d_in, d_out) for _ in range(3)]
        label = f"torch.rand, seed {seed}"
    elif init == "linear":
        mats = [gen.linear(d_in, d_out)[0].T.copy() for _ in range(3)]
        label = f"nn.Linear, seed {seed}"
    else:
        raise ValueError(f"init must be 'rand' or 'linear', got {init!r}")
    return WeightSet(label, int(seed), init, *mats)


def section_3_4() -> WeightSet:
    """Section 3.4's weights: ``SelfAttention_v1``, seed 123, ``torch.rand(3, 2)`` three times."""
    ws = init_weights(SECTION_3_4_SEED, "rand")
    return WeightSet(
        "Section 3.4 (SelfAttention_v1, seed 123)", ws.seed, ws.init, ws.w_query, ws.w_key, ws.w_value
    )


def section_3_5() -> WeightSet:
    """Section 3.5's weights: ``sa_v2``, seed 789, ``nn.Linear(3, 2, bias=False)`` three times."""
    ws = init_weights(SECTION_3_5_SEED, "linear")
    return WeightSet("Section 3.5 (sa_v2, seed 789)", ws.seed, ws.init, ws.w_query, ws.w_key, ws.w_value)
