"""Dropout on the causal attention weights (book section 3.5.2, the post's figure 04).

``nn.Dropout(p)`` zeroes each weight with probability ``p`` and multiplies the survivors by
``1/(1 - p)`` ("inverted dropout"), so each weight keeps its expectation,
``E[b α / (1 - p)] = α`` with ``b ~ Bernoulli(1 - p)``, and each row sums to 1 in expectation but
not on any one draw. Row ``i`` of a causal matrix has only ``i`` live weights, so it is dropped
whole, and its context vector becomes the zero vector, with probability ``p**i``.

The Monte Carlo draws run on a ``numpy.random.Generator`` (one vectorised uniform array for all
draws) or on :class:`core.torchgen.TorchGenerator`, whose stream equals ``torch.manual_seed``'s,
to reproduce the book's printed run. Statistics are float64. Only the Dropout page uses this
(``topics.dropout.view``); nothing here imports torch or Streamlit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from core.masking import causal_weights_f32
from core.torchgen import TorchGenerator
from core.weights import WeightSet

BOOK_DROPOUT_SEED = 123  # torch.manual_seed(123) before nn.Dropout(0.5), book section 3.5.2
BOOK_P = 0.5  # the book's demo rate; GPT-2-style training uses 0.1 or 0.2
MAX_DRAWS = 1_000_000  # a (draws, 6, 6) float64 array is 288 MB at this bound: never made whole
# Cells drawn and summarised at once: 4,096 draws of the book's 6 × 6 (1.2 MB as float64). A
# piece is bounded in cells, not draws, so a 26-token sentence's piece is as small as the book's:
# 4,096 draws of 26 × 26 would be 2.8M cells, and PyTorch's generator holds two words a cell.
CHUNK_CELLS = 4_096 * 36

Generator = Literal["numpy", "torch"]  # default_rng(seed), fast; or torch.manual_seed(seed), the book's
# The page opens on PyTorch's stream, so its first draw is the tensor section 3.5.2 prints (issue 21);
# NumPy's, faster, is the other choice.
GENERATORS: tuple[Generator, ...] = ("torch", "numpy")


def _check_p(p: float) -> float:
    p = float(p)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout rate p must be in [0, 1), got {p}: at p = 1 nothing survives to rescale")
    return p


def _check_draws(draws: int) -> int:
    if not 1 <= int(draws) <= MAX_DRAWS:
        raise ValueError(f"draws must be between 1 and {MAX_DRAWS:,}, got {draws}")
    return int(draws)


def scale_factor(p: float, scale: bool = True) -> float:
    """What ``nn.Dropout`` multiplies a survivor by: ``1/(1 - p)``, or 1 with scaling off."""
    return 1.0 / (1.0 - _check_p(p)) if scale else 1.0


def keep_masks_numpy(rng: np.random.Generator, draws: int, n: int, p: float) -> np.ndarray:
    """``draws`` independent keep masks ``[draws, n, n]`` from one vectorised uniform array.

    Keeps an entry when ``u < 1 - p``, the same rule as PyTorch's ``bernoulli_(1 - p)``.
    """
    p, draws = _check_p(p), _check_draws(draws)
    return rng.random((draws, n, n)) < 1.0 - p


def keep_masks_torch(gen: TorchGenerator, draws: int, n: int, p: float) -> np.ndarray:
    """The masks of ``draws`` successive ``nn.Dropout(p)`` calls on an ``[n, n]`` tensor.

    Each call consumes two words per element in row-major order, so one ``[draws, n, n]``
    Bernoulli array is exactly the sequence of calls; the first is the book's when ``gen`` is
    fresh from seed 123.
    """
    p, draws = _check_p(p), _check_draws(draws)
    if p == 0.0:  # PyTorch draws nothing at p = 0 and returns the input unchanged
        return np.ones((draws, n, n), dtype=bool)
    return gen.bernoulli((draws, n, n), 1.0 - p)


def keep_masks(seed: int, draws: int, n: int, p: float, generator: Generator = "numpy") -> np.ndarray:
    """Keep masks from a seed: ``"numpy"`` (``default_rng(seed)``, fast) or ``"torch"`` (the book's)."""
    if generator == "numpy":
        return keep_masks_numpy(np.random.default_rng(seed), draws, n, p)
    if generator == "torch":
        return keep_masks_torch(TorchGenerator(seed), draws, n, p)
    raise ValueError(f"generator must be 'numpy' or 'torch', got {generator!r}")


def chunk_draws(n: int) -> int:
    """How many ``[n, n]`` draws one piece holds: :data:`CHUNK_CELLS` cells, at least one draw."""
    return max(1, CHUNK_CELLS // (n * n))


# The working set of one study, measured with tracemalloc (tests/dropout/test_dropout_budget.py):
# PyTorch's generator peaks near 42 B a cell of a piece (two uint64 words a cell, their packing into
# a float64 uniform), NumPy's near 19 B (a float64 uniform); the dropped piece, its sums and the
# per-draw running totals come on top. Each bound is a little over the measured peak, rounded up.
CELL_BYTES: dict[str, int] = {"torch": 48, "numpy": 24}
DRAW_BYTES = 64  # per draw of a piece: counts, cumulative sums, the recorded subset (int64/float64)
FIXED_BYTES = 2 * 2**20  # the generator's state, the summaries, a first call's allocations


def working_set(n: int, draws: int, generator: Generator = "numpy") -> int:
    """An upper bound, in bytes, on the memory :func:`dropout_study` allocates at once for ``draws``
    passes over an ``[n, n]`` matrix: one piece (:func:`chunk_draws` draws, at most ``draws``) of
    cells and its per-draw totals, plus a fixed part. What ``ui.budget`` is told the study costs:
    about 11 MB at 26 tokens and 5,000 PyTorch draws, whatever the draws, as the pieces are."""
    if generator not in CELL_BYTES:
        raise ValueError(f"generator must be 'numpy' or 'torch', got {generator!r}")
    piece = min(_check_draws(draws), chunk_draws(n))
    return CELL_BYTES[generator] * piece * n * n + DRAW_BYTES * piece + FIXED_BYTES


def keep_mask_chunks(
    seed: int, draws: int, n: int, p: float, generator: Generator = "numpy", chunk: int | None = None
) -> Iterator[np.ndarray]:
    """:func:`keep_masks` in consecutive pieces of at most ``chunk`` draws (by default
    :func:`chunk_draws`), from the same stream.

    Both generators fill an array element by element in row-major order, so pieces drawn one
    after another concatenate to exactly the array one call would return; a summary of 100,000
    draws then never holds more than a piece of them (the whole float64 array would be 28.8 MB).
    """
    p, draws = _check_p(p), _check_draws(draws)
    chunk = chunk_draws(n) if chunk is None else chunk
    if generator not in ("numpy", "torch"):
        raise ValueError(f"generator must be 'numpy' or 'torch', got {generator!r}")
    if generator == "numpy":
        rng = np.random.default_rng(seed)
        for start in range(0, draws, chunk):
            yield keep_masks_numpy(rng, min(chunk, draws - start), n, p)
    else:
        gen = TorchGenerator(seed)
        for start in range(0, draws, chunk):
            yield keep_masks_torch(gen, min(chunk, draws - start), n, p)


def apply_dropout(weights: np.ndarray, keep: np.ndarray, p: float, scale: bool = True) -> np.ndarray:
    """Inverted dropout: ``weights * keep / (1 - p)`` (``[n, n]``, ``[..., n, n]`` -> ``[..., n, n]``)."""
    return np.asarray(weights, dtype=np.float64) * keep * scale_factor(p, scale)


def zero_row_theory(p: float, n: int) -> np.ndarray:  # -> [n]
    """``p**i`` for rows ``i = 1..n``: causal row ``i`` dies when its ``i`` live weights all do."""
    return _check_p(p) ** np.arange(1, n + 1, dtype=np.float64)


def zero_row_std(p: float, n: int) -> np.ndarray:  # -> [n]
    """Standard deviation of one draw's "row i is zero" indicator, ``√(pᶦ(1 − pᶦ))`` (Bernoulli)."""
    t = zero_row_theory(p, n)
    return np.sqrt(t * (1.0 - t))


def sampling_band(expectation: float, std: float, draws: int, sigmas: float = 4.0) -> tuple[float, float]:
    """``expectation ± sigmas·std/√draws``: where a mean over ``draws`` independent draws lands.

    At 4 standard errors a correct mean falls outside on about 6 runs in 100,000 (normal
    approximation), so the page's statistical checks and the tests use it as their tolerance.
    """
    half = sigmas * float(std) / np.sqrt(_check_draws(draws))
    return float(expectation) - half, float(expectation) + half


def mean_row_sum_expectation(p: float, scale: bool = True) -> float:
    """``E[row sum]``: 1 with scaling (the point of the factor), ``1 - p`` without."""
    return 1.0 if scale else 1.0 - _check_p(p)


def mean_row_sum_std(weights: np.ndarray, p: float, scale: bool = True) -> float:
    """Standard deviation of one draw's mean row sum, ``(1/n) Σᵢⱼ αᵢⱼ bᵢⱼ c``.

    The ``bᵢⱼ`` are independent Bernoulli(``1 - p``), so the variance is
    ``c² p (1 - p) Σ αᵢⱼ² / n²`` with ``c`` the scale factor. Divide by ``√draws`` for the
    standard error of the running mean; the page draws a ±2 band with it.
    """
    a = np.asarray(weights, dtype=np.float64)
    c = scale_factor(p, scale)
    return float(c * np.sqrt(p * (1.0 - p) * np.sum(a * a)) / a.shape[-1])


def row_sum_std(weights: np.ndarray, p: float, scale: bool = True) -> np.ndarray:  # [n, n] -> [n]
    """Standard deviation of one draw's sum of each row, ``c √(p (1 - p) Σⱼ αᵢⱼ²)``.

    Row ``i``'s sum ``c Σⱼ αᵢⱼ bᵢⱼ`` has independent Bernoulli(``1 - p``) terms; divide by ``√draws``
    for the standard error of the row's mean sum over the draws.
    """
    a = np.asarray(weights, dtype=np.float64)
    p = _check_p(p)
    return scale_factor(p, scale) * np.sqrt(p * (1.0 - p) * np.sum(a * a, axis=-1))


@dataclass(frozen=True)
class DropoutStats:
    """What figure 04 shows about many draws: the first matrix, running means, zero-row rates.

    Summaries only: a cache of these holds a few kilobytes an entry whatever ``draws`` is, where
    the draws themselves are 288 bytes each.
    """

    p: float
    scale: bool
    draws: int
    first: np.ndarray  # one dropped matrix, the first draw (its own array, not a view)  [n, n]
    first_keep: np.ndarray  # that draw's keep mask, True where the weight survived  [n, n] bool
    running_at: np.ndarray  # the draw counts k the running mean is recorded at, increasing  [m]
    running_mean: np.ndarray  # mean row sum averaged over draws 1..k, for each recorded k  [m]
    row_sum_mean: np.ndarray  # each row's mean sum over all draws  [n]
    zero_rate: np.ndarray  # share of draws where row i is the zero vector  [n]
    zero_theory: np.ndarray  # p**i  [n]
    expectation: float  # 1 with scaling, 1 - p without
    std: float  # of one draw's mean row sum

    def mean_after(self, k: int) -> float:
        """The running mean after exactly ``k`` draws (``k`` must be one of ``running_at``)."""
        i = int(np.searchsorted(self.running_at, k))
        if i == len(self.running_at) or self.running_at[i] != k:
            raise ValueError(f"the running mean was not recorded after {k:,} draws")
        return float(self.running_mean[i])


def log_spaced_counts(draws: int, points: int, always: Iterable[int] = ()) -> np.ndarray:
    """About ``points`` draw counts from 1 to ``draws``, log-spaced (the early wobble keeps its
    detail), plus every count of ``always`` up to ``draws``: where a chart of a running mean
    needs its values."""
    draws = _check_draws(draws)
    if draws <= points:
        return np.arange(1, draws + 1)
    counts = np.geomspace(1, draws, points).astype(np.int64)
    extra = [k for k in always if 1 <= k <= draws]
    return np.unique(np.concatenate([counts, extra, [draws]]).astype(np.int64))


def summarise(
    weights: np.ndarray,
    chunks: Iterable[np.ndarray],
    p: float,
    scale: bool = True,
    record: np.ndarray | None = None,
) -> DropoutStats:
    """Apply dropout with every mask of ``chunks`` (each ``[c, n, n]``, in draw order) and
    summarise the draws, one chunk at a time.

    ``record`` lists the draw counts at which the running mean is kept (every count when None).
    A row counts as the zero vector when every entry of the dropped row is exactly 0, which is
    what makes its context vector ``Σⱼ αᵢⱼ vⱼ`` zero.
    """
    w = np.asarray(weights, dtype=np.float64)
    n = w.shape[-1]
    total, draws, first, first_keep = 0.0, 0, None, None
    sums, zeros = np.zeros(n), np.zeros(n)
    recorded: list[np.ndarray] = []
    for keep in chunks:
        keep = np.asarray(keep, dtype=bool)
        if keep.ndim != 3 or keep.shape[1:] != w.shape:
            raise ValueError(f"keep must be [draws, n, n] matching weights {w.shape}, got {keep.shape}")
        dropped = apply_dropout(w, keep, p, scale)  # [c, n, n]
        if first is None:
            first = dropped[0].copy()  # a view would keep the whole chunk alive in a cache
            first_keep = keep[0].copy()  # a future cell's bit too: it is drawn, though its weight is 0
        row_sums = dropped.sum(axis=-1)  # [c, n]
        # Prepending the total so far keeps the cumulative sum sequential across chunks.
        cum = np.cumsum(np.concatenate([[total], row_sums.mean(axis=-1)]))[1:]  # [c]
        counts = np.arange(draws + 1, draws + len(keep) + 1)
        keep_at = slice(None) if record is None else np.isin(counts, record)
        recorded.append(np.stack([counts[keep_at], cum[keep_at] / counts[keep_at]]))
        sums += row_sums.sum(axis=0)
        zeros += np.count_nonzero(~np.any(dropped != 0.0, axis=-1), axis=0)
        total, draws = float(cum[-1]), draws + len(keep)
    if first is None or first_keep is None:
        raise ValueError("dropout needs at least one draw")
    running = np.concatenate(recorded, axis=1)
    return DropoutStats(
        p=float(p),
        scale=bool(scale),
        draws=draws,
        first=first,
        first_keep=first_keep,
        running_at=running[0].astype(np.int64),
        running_mean=running[1],
        row_sum_mean=sums / draws,
        zero_rate=zeros / draws,
        zero_theory=zero_row_theory(p, n),
        expectation=mean_row_sum_expectation(p, scale),
        std=mean_row_sum_std(w, p, scale),
    )


def dropout_study(
    weights: np.ndarray,
    seed: int,
    draws: int,
    p: float,
    scale: bool = True,
    generator: Generator = "numpy",
    record: np.ndarray | None = None,
) -> DropoutStats:
    """``draws`` dropout passes from ``seed`` on ``weights``, summarised chunk by chunk: the
    numbers of the masks :func:`keep_masks` draws in one array, in a few megabytes at any ``draws``."""
    chunks = keep_mask_chunks(seed, draws, np.shape(weights)[-1], p, generator)
    return summarise(weights, chunks, p, scale, record)


def book_dropout_run(x: np.ndarray, ws: WeightSet) -> np.ndarray:  # -> [n, n] float32
    """``torch.manual_seed(123); nn.Dropout(0.5)(attn_weights)``: the matrix the book prints.

    Its second row is the zero vector: both of token 2's live weights were dropped.
    """
    return TorchGenerator(BOOK_DROPOUT_SEED).dropout(causal_weights_f32(x, ws), BOOK_P)
