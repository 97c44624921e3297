"""How large float64 rounding noise can be, so the pages show it as a bound and never as a value.

Two paths that compute the same number in a different order (masking before or after the
softmax; a sequence permuted before or after attention) differ by rounding alone. The size of that
difference depends on the machine's summation order (NumPy's pairwise sums, BLAS kernels, PyTorch's
own), so printing it ("1.1e-16") states a digit no other machine reproduces: the post's 5.6e-17 is
PyTorch's on its machine. What holds everywhere is a bound (issue #24, item 3).
"""

from __future__ import annotations

import math

import numpy as np

EPS = float(np.finfo(np.float64).eps)  # 2.22e-16: the gap between 1.0 and the next float64


def bound(terms: int, scale: float = 1.0, ops: int = 4) -> float:
    """A bound on the rounding difference between two evaluation orders of the same float64 result.

    A sum of ``terms`` numbers whose magnitudes add to ``scale`` carries an error of at most
    γ₍ₙ₋₁₎·scale ≈ (n − 1)·u·scale in any order (Higham, *Accuracy and Stability of Numerical
    Algorithms*, 2nd ed., §4.2, with u = ε/2); two orders differ by at most twice that. ``ops``
    more roundings (an exponential, a division, a renormalisation) add ε·scale each. The bound
    is loose by design: it must hold on every machine, not describe this one.
    """
    return (max(terms, 1) + ops) * EPS * max(scale, 1.0)


def round_up(x: float, digits: int = 1) -> float:
    """``x`` rounded *up* to ``digits`` significant digits (1.23e-15 -> 2e-15 at one digit), so a
    stated bound never undercuts the one computed."""
    if x <= 0 or not math.isfinite(x):
        return x
    exponent = math.floor(math.log10(x)) - digits + 1
    return math.ceil(x / 10.0**exponent) * 10.0**exponent
