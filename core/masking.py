"""Masking the future (section 3.5.1, the post's figure 03): the book's two causal paths.

A query at position ``i`` may attend only to keys at ``j <= i``. The book gives two ways:

- naive: scale the scores, softmax the full rows, multiply by ``torch.tril`` (the keep mask),
  then divide each row by its own sum;
- efficient: fill the upper triangle of the *raw* scores (``torch.triu(..., diagonal=1)``)
  with ``-inf``, scale, softmax once.

They end identical because the full-row softmax denominator appears above and below the line
of the renormalisation and cancels (the post's equation); they look unrelated half-way because
one masks post-softmax weights and the other pre-scale scores. Every stage is returned so the
page can step both side by side. Filling with 0 instead of ``-inf`` shows the leak: a zero
score is not a zero weight.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core import torchmath
from core.attention import AttentionTrace, attend, projections_f32, softmax
from core.weights import WeightSet

STAGES = 4  # both paths take four steps, so one control steps them together


@dataclass(frozen=True)
class Stage:
    """One step of a masking path: what was done, the formula, and the matrix after it."""

    name: str
    formula: str  # LaTeX, as the page prints it above the heatmap
    matrix: np.ndarray  # [n, n]; may hold -inf (the efficient path's fill) but never NaN


def future_mask(n: int) -> np.ndarray:  # -> [n, n] bool
    """``torch.triu(torch.ones(n, n), diagonal=1).bool()``: True where key ``j`` is after query ``i``."""
    if int(n) < 1:
        raise ValueError(f"the mask needs at least one token, got n={n}")
    return np.triu(np.ones((int(n), int(n)), dtype=bool), k=1)


def _square(scores: np.ndarray) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2 or s.shape[0] != s.shape[1] or s.shape[0] < 1:
        raise ValueError(f"scores must be a square [n, n] matrix with n >= 1, got shape {s.shape}")
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite; the mask is what adds -inf")
    return s


def _divisor(divisor: float) -> float:
    d = float(divisor)
    if not (np.isfinite(d) and d > 0):
        raise ValueError(f"divisor must be a positive finite number (√d_k), got {divisor!r}")
    return d


def naive_path(scores: np.ndarray, divisor: float) -> tuple[Stage, ...]:  # [n, n] -> 4 × [n, n]
    """The book's first way: ``softmax(Ω/√d_k)``, times ``tril``, each row divided by its sum.

    The last stage equals the efficient path exactly in algebra (the full-row denominator
    cancels); in float64 the two differ by rounding noise only. A row whose visible weights all
    underflow to 0 would divide 0 by 0 here, one more reason the book prefers the other path;
    scores spread by less than ~700 never get there.
    """
    s, d = _square(scores), _divisor(divisor)
    scaled = s / d  # [n, n]
    weights = softmax(scaled)  # [n, n], full rows: the future sits in each denominator
    masked = np.where(future_mask(len(s)), 0.0, weights)  # weights * tril(ones)
    with np.errstate(invalid="ignore"):  # 0/0 where a row's visible weights all underflowed
        renormed = masked / masked.sum(axis=-1, keepdims=True)  # each row over its visible prefix
    return (
        Stage("scale", r"\Omega / \sqrt{d_k}", scaled),
        Stage("softmax", r"\mathrm{softmax}(\Omega / \sqrt{d_k})", weights),
        Stage("multiply by tril", r"A \odot \mathrm{tril}(\mathbf{1})", masked),
        Stage("divide each row by its sum", r"\hat A_{ij} / \textstyle\sum_{l} \hat A_{il}", renormed),
    )


def efficient_path(
    scores: np.ndarray, divisor: float, fill: float = -np.inf
) -> tuple[Stage, ...]:  # [n, n] -> 4 × [n, n]
    """The book's second way: fill the future of the raw scores with ``fill``, scale, softmax once.

    ``fill = -inf`` is the book's ``masked_fill(mask.bool(), -torch.inf)``: ``e^{-inf} = 0``, so
    the future gets exactly zero weight. Any finite ``fill`` (0, say) leaks: the future keeps
    ``e^{fill/√d_k}`` in every row's softmax.
    """
    s, d = _square(scores), _divisor(divisor)
    f = float(fill)
    if np.isnan(f) or f == np.inf:
        raise ValueError(f"fill must be -inf or a finite number, got {fill!r}")
    filled = np.where(future_mask(len(s)), f, s)  # [n, n], upper triangle = fill
    scaled = filled / d  # -inf / d stays -inf
    fill_tex = r"-\infty" if f == -np.inf else f"{f:g}"
    return (
        Stage("scores", r"\Omega = QK^{\top}", s),
        Stage(
            f"fill the future with {'−∞' if f == -np.inf else f'{f:g}'}",
            rf"\Omega_{{j>i}} = {fill_tex}",
            filled,
        ),
        Stage("scale", r"\Omega_{\mathrm{masked}} / \sqrt{d_k}", scaled),
        Stage("softmax", r"\mathrm{softmax}(\Omega_{\mathrm{masked}} / \sqrt{d_k})", softmax(scaled)),
    )


def undefined_rows(weights: np.ndarray) -> np.ndarray:  # [n, n] -> [k] row indices
    """Rows of the naive path's last stage that are 0/0 (NaN): every visible weight underflowed.

    The full-row softmax gives a visible weight ``e^{ω_ij - max_k ω_ik}``; when a future score
    beats every visible one by more than ~745 (after the divisor), each of those is 0 in float64,
    and renormalising divides 0 by 0. The efficient path never divides, so it never gets there.
    """
    return np.flatnonzero(np.isnan(np.asarray(weights, dtype=np.float64)).any(axis=-1))


def difference(naive: tuple[Stage, ...], efficient: tuple[Stage, ...]) -> np.ndarray:  # -> [n, n]
    """Naive minus efficient final weights: float64 rounding noise when the fill is ``-inf``."""
    return naive[-1].matrix - efficient[-1].matrix


def future_share(weights: np.ndarray) -> np.ndarray:  # [n, n] -> [n]
    """Per query, the attention it gives to keys it may not see (``j > i``): 0 when masked right."""
    w = np.asarray(weights, dtype=np.float64)
    return np.where(future_mask(len(w)), w, 0.0).sum(axis=-1)


def causal_attention(x: np.ndarray, ws: WeightSet) -> AttentionTrace:
    """``CausalAttention.forward`` with dropout 0 (section 3.5.3), on one sequence, in float64.

    ``weights`` are the efficient path's final stage, ``scores`` the unmasked ``QKᵀ``.
    """
    x = np.asarray(x, dtype=np.float64)
    q, k, v = (x @ w.astype(np.float64) for w in (ws.w_query, ws.w_key, ws.w_value))
    divisor = float(np.sqrt(k.shape[-1]))
    tr = attend(q, k, v, divisor)
    weights = efficient_path(tr.scores, divisor)[-1].matrix
    return AttentionTrace(q, k, v, tr.scores, weights, weights @ v, divisor)


def causal_weights(x: np.ndarray, ws: WeightSet) -> np.ndarray:  # [n, d_in] -> [n, n]
    """Section 3.5.1's causal weights in float64: ``softmax(masked_fill(QKᵀ, −∞) / √d_k)``.

    The book fills the future with ``-inf`` before scaling, so the softmax gives it exactly 0
    and every row still sums to 1. With ``sa_v2`` (seed 789) rows 1 to 3 are ``1.0000``,
    ``[0.5517, 0.4483]`` and ``[0.3800, 0.3097, 0.3103]``.
    """
    return causal_attention(x, ws).weights


def causal_weights_f32(x: np.ndarray, ws: WeightSet) -> np.ndarray:  # [n, d_in] -> [n, n] float32
    """The same weights in float32 as PyTorch computes them, bit for bit: the tensor the book's
    dropout run (section 3.5.2) is applied to."""
    q, k, _ = projections_f32(x, ws)  # [n, d_k] each
    scores = np.where(future_mask(len(q)), np.float32(-np.inf), torchmath.matmul_f32(q, k.T))  # [n, n]
    return torchmath.softmax_f32(scores / np.float32(k.shape[-1] ** 0.5))
