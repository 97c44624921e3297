"""The six tokens of the book's running example (chapter 3, section 3.3.1).

"Your journey starts with one step", each token a 3-d input embedding (``d_in = 3``). The
numbers are the book's ``inputs`` tensor; everything else in the app is computed from them.
"""

from __future__ import annotations

import numpy as np

TOKENS: tuple[str, ...] = ("Your", "journey", "starts", "with", "one", "step")

_INPUTS = (
    (0.43, 0.15, 0.89),  # Your     (x^1)
    (0.55, 0.87, 0.66),  # journey  (x^2)
    (0.57, 0.85, 0.64),  # starts   (x^3)
    (0.22, 0.58, 0.33),  # with     (x^4)
    (0.77, 0.25, 0.10),  # one      (x^5)
    (0.05, 0.80, 0.55),  # step     (x^6)
)


def inputs(dtype: type = np.float64) -> np.ndarray:  # -> [6, 3]
    """The book's ``inputs`` as a fresh array: float32 to match PyTorch, float64 for display."""
    return np.array(_INPUTS, dtype=np.float32).astype(dtype)


def batch(dtype: type = np.float32) -> np.ndarray:  # -> [2, 6, 3]
    """``torch.stack((inputs, inputs))``, the batch of two the book feeds to its classes."""
    x = inputs(dtype)
    return np.stack((x, x))
