"""Standalone scripts that reproduce each page's view outside the app, from the settings on screen.

The app's core reproduces PyTorch's generator and the book's classes bit for bit; these modules
turn that into text a reader can run: for every page, one function that takes the page's inputs
explicitly (token labels, the embedding matrix, the weight set, the page's settings) and returns
a :class:`Script`. The torch scripts start with ``import torch``, hold the book's chapter 3
classes inline, rebuild the weights from ``torch.manual_seed`` as the book does, and compute in
the dtype the page computes in (float64 from the float32 draw), so what they print with PyTorch's
default print options equals what the page shows at that precision. Where PyTorch cannot
reproduce a view (NumPy's generator), the script is NumPy; the cost page's is plain Python.

Nothing here imports torch: a script is only text until the reader (or the oracle tests in
``tests/core/test_reproduce_torch.py``) runs it.
"""

from core.reproduce.cost import what_n_squared_costs
from core.reproduce.dropout import dropout
from core.reproduce.learning import Drift, drift, drift_note, learning, nudged
from core.reproduce.masking import masking
from core.reproduce.multihead import multihead
from core.reproduce.recap import recap
from core.reproduce.scaling import divide_by_sqrt_dk
from core.reproduce.source import Script
from core.reproduce.three_matrices import three_matrices

__all__ = [
    "Drift",
    "Script",
    "divide_by_sqrt_dk",
    "drift",
    "drift_note",
    "dropout",
    "learning",
    "masking",
    "multihead",
    "nudged",
    "recap",
    "three_matrices",
    "what_n_squared_costs",
]
