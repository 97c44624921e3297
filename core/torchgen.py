"""A NumPy copy of PyTorch's CPU random number generator, bit for bit.

The app ships no weights: the book's weights are regenerated from their seeds. PyTorch's CPU
generator is the 32-bit Mersenne Twister (mt19937) seeded with the reference ``init_genrand``,
which NumPy's ``MT19937`` reproduces with its legacy seeding. On top of the raw 32-bit words,
PyTorch builds its samplers as follows (read from its ATen CPU kernels; checked against torch
2.13 for seeds 0 to 199 in ``tests/core/test_oracle_torch.py``):

- ``torch.rand`` (float32): one word per element, ``(w & 0xFFFFFF) * 2**-24``, row-major.
- ``uniform_(a, b)`` on float32 (``nn.Linear``'s initialisation): the same 24-bit fraction in
  float64, times ``(b - a)`` plus ``a`` with ``a, b`` first rounded to float32, then to float32.
- ``bernoulli_(q)`` (``nn.Dropout``'s mask): a float64 uniform from two words, the first as the
  high half, 53 bits kept; the element is 1 when ``u < q``.
"""

from __future__ import annotations

import math

import numpy as np

_MASK24 = np.uint64(0xFFFFFF)
_MASK53 = np.uint64(2**53 - 1)


class TorchGenerator:
    """The stream of ``torch.manual_seed(seed)``; each draw consumes words like PyTorch does.

    Stateful on purpose, as ``torch.manual_seed`` is: modules built one after another draw
    from the same stream, so the order of calls is the order of the book's code.
    """

    def __init__(self, seed: int) -> None:
        if not 0 <= int(seed) < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        self.seed = int(seed)
        self._bits = np.random.MT19937(0)
        # torch.manual_seed truncates the 64-bit seed to 32 bits for mt19937's init_genrand.
        self._bits._legacy_seeding(self.seed & 0xFFFFFFFF)

    def words(self, count: int) -> np.ndarray:
        """The next ``count`` 32-bit words of the stream, as uint64."""
        return self._bits.random_raw(int(count)).astype(np.uint64)

    def _fractions24(self, count: int) -> np.ndarray:
        return (self.words(count) & _MASK24).astype(np.float64) * 2.0**-24

    def rand(self, *shape: int) -> np.ndarray:
        """``torch.rand(*shape)``: float32 uniforms on [0, 1), filled in row-major order."""
        return self._fractions24(math.prod(shape)).astype(np.float32).reshape(shape)

    def uniform(self, shape: tuple[int, ...], low: float, high: float) -> np.ndarray:
        """``torch.empty(shape).uniform_(low, high)`` in float32."""
        lo, hi = np.float64(np.float32(low)), np.float64(np.float32(high))
        x = self._fractions24(math.prod(shape))
        return (x * (hi - lo) + lo).astype(np.float32).reshape(shape)

    def linear(self, fan_in: int, fan_out: int, bias: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """``nn.Linear(fan_in, fan_out, bias)``'s initial ``weight`` (fan_out, fan_in) and ``bias``.

        ``reset_parameters`` runs ``kaiming_uniform_(a=sqrt(5))``, whose bound works out to
        ``1/sqrt(fan_in)``, then draws the bias with the same bound.
        """
        if fan_in < 1 or fan_out < 1:
            raise ValueError(f"nn.Linear needs positive widths, got ({fan_in}, {fan_out})")
        bound = 1.0 / math.sqrt(fan_in)
        weight = self.uniform((fan_out, fan_in), -bound, bound)
        return weight, (self.uniform((fan_out,), -bound, bound) if bias else None)

    def bernoulli(self, shape: tuple[int, ...], q: float) -> np.ndarray:
        """``torch.empty(shape).bernoulli_(q)`` as booleans: True with probability ``q``."""
        w = self.words(2 * math.prod(shape))
        u = (((w[0::2] << np.uint64(32)) | w[1::2]) & _MASK53).astype(np.float64) * 2.0**-53
        return (u < q).reshape(shape)

    def dropout(self, x: np.ndarray, p: float) -> np.ndarray:
        """``nn.Dropout(p)`` in training mode on a float32 tensor ``x``.

        PyTorch draws ``noise = bernoulli_(1 - p)``, divides it by ``1 - p`` in float32 and
        multiplies, so the kept values are scaled up and the expectation survives.
        """
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability must be in [0, 1], got {p}")
        x = np.asarray(x, dtype=np.float32)
        if p == 1.0:
            return np.zeros_like(x)
        if p == 0.0:
            return x.copy()
        keep = self.bernoulli(x.shape, 1.0 - p)
        noise = keep.astype(np.float32) / np.float32(1.0 - p)
        return x * noise
