"""Self-attention, with and without trainable weights: every number of the first three pages.

Shapes follow the post's notation: ``n`` tokens, ``d_in`` input width, ``d_k`` query/key width.
All display arithmetic is float64; :func:`self_attention_f32` repeats the book's forward pass in
float32 for the oracle tests that compare against PyTorch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from core import torchmath
from core.weights import WeightSet

Mode = Literal["none", "tied", "three"]
MODES: tuple[Mode, ...] = ("none", "tied", "three")


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Row softmax, stable for any finite logits: the row maximum is subtracted first.

    Entries of ``-inf`` (a causal mask) get weight 0; a row needs one finite entry.
    """
    x = np.asarray(x, dtype=np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """``log(softmax(x))`` without forming the softmax, so tiny weights keep their exponent."""
    x = np.asarray(x, dtype=np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


@dataclass(frozen=True)
class Op:
    """One matrix operation of a forward pass, recorded as it runs (the post's count of them)."""

    code: str  # as the equation writes it, e.g. "Ω = Q Kᵀ"
    kind: Literal["matmul", "transpose"]
    shape: tuple[int, ...]  # of the result
    macs: int  # multiply-adds: m·k·n for an [m, k] @ [k, n] product; 0 for a transpose (metadata)


def _matmul(code: str, a: np.ndarray, b: np.ndarray, ops: list[Op]) -> np.ndarray:  # [m, k] @ [k, n]
    out = a @ b
    ops.append(Op(code, "matmul", out.shape, a.shape[0] * a.shape[1] * b.shape[1]))
    return out


def _transpose(code: str, a: np.ndarray, ops: list[Op]) -> np.ndarray:  # [m, n] -> [n, m]
    ops.append(Op(code, "transpose", a.T.shape, 0))
    return a.T


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of one attention pass, so a figure never recomputes the forward."""

    queries: np.ndarray  # Q  [n, d_k]
    keys: np.ndarray  # K  [n, d_k]
    values: np.ndarray  # V  [n, d_v]
    scores: np.ndarray  # Ω = QKᵀ, unscaled  [n, n]
    weights: np.ndarray  # A = softmax(Ω / divisor)  [n, n]
    context: np.ndarray  # Z = AV  [n, d_v]
    divisor: float  # what Ω was divided by before the softmax
    ops: tuple[Op, ...] = ()  # the matrix operations that produced it, in order

    def count(self, kind: Literal["matmul", "transpose"]) -> int:
        """How many of the recorded operations are of ``kind``."""
        return sum(op.kind == kind for op in self.ops)


def attend(
    queries: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    divisor: float = 1.0,
    ops: tuple[Op, ...] = (),
    names: tuple[str, str, str] = ("Q", "K", "V"),
) -> AttentionTrace:
    """Scaled dot-product attention: ``softmax(QKᵀ / divisor) V`` with its intermediates.

    ``ops`` are the operations that made the inputs (the projections); the transpose and the two
    products here are appended to them as they run. ``names`` label Q, K and V in that record.
    """
    q, k, v = (np.asarray(m, dtype=np.float64) for m in (queries, keys, values))
    nq, nk, nv = names
    record = list(ops)
    scores = _matmul(f"Ω = {nq} {nk}ᵀ", q, _transpose(f"{nk}ᵀ", k, record), record)
    weights = softmax(scores / divisor)
    context = _matmul(f"Z = A {nv}", weights, v, record)
    return AttentionTrace(q, k, v, scores, weights, context, float(divisor), tuple(record))


def mix(weights: np.ndarray, values: np.ndarray) -> np.ndarray:  # [n_q, n_k], [n_k, d_v] -> [n_q, d_v]
    """``Z = AV`` for weights that did not come out of :func:`attend`: a trained, a masked or a
    dropped-out ``A``. Row ``i`` is query ``i``'s context vector, the weighted sum of the values."""
    return np.asarray(weights, dtype=np.float64) @ np.asarray(values, dtype=np.float64)


def attention_without_weights(x: np.ndarray) -> AttentionTrace:
    """Section 3.3: ``softmax(XXᵀ) X``, no parameters and no divisor (the post's recap)."""
    return attend(x, x, x, divisor=1.0, names=("X", "X", "X"))


def self_attention(x: np.ndarray, ws: WeightSet) -> AttentionTrace:
    """Section 3.4: ``Q, K, V = XW_q, XW_k, XW_v``; ``A = softmax(QKᵀ/√d_k)``; ``Z = AV``."""
    x = np.asarray(x, dtype=np.float64)
    q, k, v = (x @ w.astype(np.float64) for w in (ws.w_query, ws.w_key, ws.w_value))
    return attend(q, k, v, divisor=np.sqrt(k.shape[-1]))


def attention_in_mode(x: np.ndarray, ws: WeightSet, mode: Mode) -> AttentionTrace:
    """Figure 01's three modes, all divided by ``√d_k`` of the weight set (``√2`` in the book).

    ``"none"`` scores tokens directly (``Q = K = V = X``); ``"tied"`` uses ``W_q`` for keys as
    well, so ``Ω = (XW_q)(XW_q)ᵀ`` is a Gram matrix; ``"three"`` is the real thing.

    The trace records every matrix operation as it runs: with three matrices, the post's "five
    matrix multiplications and a transpose" (Giles Thomas's count); tied, four (``XW_q`` serves as
    queries and keys); with no matrices, two.
    """
    x = np.asarray(x, dtype=np.float64)
    divisor = np.sqrt(ws.w_key.shape[-1])
    if mode == "none":
        return attend(x, x, x, divisor, names=("X", "X", "X"))
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    w_q, w_k, w_v = (w.astype(np.float64) for w in (ws.w_query, ws.w_key, ws.w_value))
    ops: list[Op] = []
    q = _matmul("Q = X W_q", x, w_q, ops)
    k = q if mode == "tied" else _matmul("K = X W_k", x, w_k, ops)
    v = _matmul("V = X W_v", x, w_v, ops)
    return attend(q, k, v, divisor, tuple(ops), names=("Q", "Q" if mode == "tied" else "K", "V"))


def softmax_denominators(scores: np.ndarray, divisor: float = 1.0) -> np.ndarray:  # [n, n] -> [n]
    """``Σ_j exp(ω_ij / divisor)``: what softmax divides row ``i`` by.

    Figure 01's weight error comes from these, not from the row sums of ``XXᵀ`` the post cites
    (4.4600, …): with symmetric scores ``A_ij = e^{ω_ij/√d_k} / Z_i`` and ``A_ji = e^{ω_ij/√d_k} / Z_j``,
    so ``A`` is symmetric exactly when every row has the same denominator. With no matrices and
    the book's inputs they are 10.28, 13.30, 13.16, 9.30, 8.80 and 10.61 (issue #13).
    """
    with np.errstate(over="ignore"):  # an overflow is +inf here; log_softmax_denominators stays finite
        return np.exp(log_softmax_denominators(scores, divisor))


def log_softmax_denominators(scores: np.ndarray, divisor: float = 1.0) -> np.ndarray:  # [n, n] -> [n]
    """``log Σ_j exp(ω_ij / divisor)``, shifted by the row maximum so it never overflows: a reader's
    extreme embeddings make scores of a thousand, whose denominators no float64 holds."""
    w = np.asarray(scores, dtype=np.float64) / divisor
    top = np.max(w, axis=-1, keepdims=True)
    return np.squeeze(top, axis=-1) + np.log(np.sum(np.exp(w - top), axis=-1))


def asymmetry(m: np.ndarray) -> np.ndarray:
    """``M − Mᵀ``: zero exactly when a token's affinity reads the same from either end."""
    m = np.asarray(m, dtype=np.float64)
    return m - m.T


def asymmetry_error(m: np.ndarray) -> float:
    """``max |M − Mᵀ|``, figure 01's score error (on Ω) and weight error (on A)."""
    return float(np.max(np.abs(asymmetry(m))))


def mean_pairwise_distance(points: np.ndarray) -> float:
    """Mean Euclidean distance over all unordered pairs of rows: how spread out a set is.

    The recap uses it to show the collapse: the six outputs of weightless attention sit 0.0482
    apart against the inputs' 0.6576 (7.3%).
    """
    p = np.asarray(points, dtype=np.float64)
    diff = p[:, None, :] - p[None, :, :]
    dist = np.sqrt(np.sum(diff * diff, axis=-1))
    i, j = np.triu_indices(len(p), k=1)
    return float(np.mean(dist[i, j]))


def nearest_embedding(points: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
    """Index of the nearest embedding (Euclidean) for each point: all six outputs pick starts."""
    p, e = np.asarray(points, dtype=np.float64), np.asarray(embeddings, dtype=np.float64)
    d2 = np.sum((p[:, None, :] - e[None, :, :]) ** 2, axis=-1)
    return np.argmin(d2, axis=1)


def projections_f32(x: np.ndarray, ws: WeightSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values in float32 as PyTorch computes them, bit for bit (each [n, d_out]).

    ``v1`` multiplies by its ``nn.Parameter`` (``x @ W``); ``v2`` calls ``nn.Linear``
    (``x @ weight.T``), a different kernel with a different summation order, so the two
    initialisations take the two paths.
    """
    x = np.asarray(x, dtype=np.float32)
    mats = (ws.w_query, ws.w_key, ws.w_value)
    if ws.init == "rand":
        q, k, v = (torchmath.matmul_f32(x, w) for w in mats)
    else:
        q, k, v = (torchmath.linear_f32(x, np.ascontiguousarray(w.T)) for w in mats)
    return q, k, v


def self_attention_f32(x: np.ndarray, ws: WeightSet) -> np.ndarray:  # [n, d_in] -> [n, d_out]
    """``SelfAttention_v1/v2.forward`` in float32 as PyTorch's CPU kernels compute it, bit for bit
    (projections as :func:`projections_f32`). Used by the oracle tests; the app displays float64.
    """
    q, k, v = projections_f32(x, ws)
    scores = torchmath.matmul_f32(q, k.T)
    weights = torchmath.softmax_f32(scores / np.float32(k.shape[-1] ** 0.5))
    return torchmath.matmul_f32(weights, v)
