"""One Reproduce case: a script and what the page shows for the same settings, label by label.

A topic's oracle test builds a :class:`Case` from the topic's own view (``topics/<topic>/view.py``):
the script from the script builder, the expected values from the view's fields, keyed by the
label the script prints. Nothing here re-derives a page's numbers. ``tests.reproduce.run`` runs
the scripts and compares (``printed.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from core import weights
from core.reproduce.source import Script


@dataclass(frozen=True)
class Noise:
    """A value that is float64 rounding noise on the page (the two masking paths' difference, an
    unmasked shuffle's gap): the script's must be noise too, below ``bound``, not the same bits."""

    page: float
    bound: float = 1e-15


@dataclass
class Case:
    page: str
    settings: dict
    script: Script
    expected: dict[str, object] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.page} {self.settings}"


def weight_set(rng: random.Random) -> weights.WeightSet:
    choice = rng.choice(("Section 3.4", "Section 3.5", "Any seed"))
    if choice == "Section 3.4":
        return weights.section_3_4()
    if choice == "Section 3.5":
        return weights.section_3_5()
    return weights.init_weights(rng.randrange(2**31), rng.choice(("rand", "linear")))


def reader_sentence() -> tuple[tuple[str, ...], np.ndarray, weights.WeightSet]:
    """A reader's own sentence (issue 16): 9 tokens, 16 wide, values typed in (float64, not float32)."""
    rng = np.random.default_rng(16)
    labels = ("Attention", "is", "all", "you", "need", ",", "said", "the", "paper")
    x = np.round(rng.uniform(-1, 1, (9, 16)), 3)
    return labels, x, weights.init_weights(7, "linear", 16, 2)
