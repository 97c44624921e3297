"""Gradient descent turns the dials: fitting W_q and W_k to a target attention pattern.

The post's recap ends on "There was no dial anywhere for gradient descent to turn": ``XXᵀ`` has
no parameters. Figure 01's three modes differ exactly in their dials: none, one matrix used for
both queries and keys (a Gram matrix, symmetric scores), or two different matrices. Here each
mode is trained on the same task, so the difference shows up as a loss curve.

The task: make the attention matrix ``A = softmax(XW_q (XW_k)ᵀ / √d_k)`` (figure 01's forward,
divisor included, the no-matrix mode too) match a target pattern ``T`` row by row. The loss is
the mean over rows of the cross-entropy ``-Σ_j T_ij log A_ij``. Its gradient is written out by
hand below; ``tests/learning/test_learning_training.py`` checks it against finite differences and
against PyTorch's autograd. What each mode can reach, as opposed to where one run stops, is
:mod:`topics.learning.reach`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from core.attention import MODES, Mode, log_softmax

Target = Literal["previous", "first", "last", "token", "uniform", "pair", "swaps"]
TARGETS: tuple[Target, ...] = ("previous", "first", "last", "token", "uniform", "pair", "swaps")
Optimiser = Literal["adam", "gd"]
OPTIMISERS: tuple[Optimiser, ...] = ("adam", "gd")

MAX_STEPS = 5_000  # the page's ceiling; a three-mode run stays well under a second
MAX_LOSS = 1e6  # a run past this has diverged (scores ~1e6 the wrong way round); it stops there
UNIFORM_TOL = 0.01  # a row with no single target token is right when every weight is this close


def target_pattern(kind: Target, n: int, token: int = 0) -> np.ndarray:  # -> [n, n]
    """The attention matrix to learn; each row a probability distribution over the ``n`` tokens.

    ``"previous"``: token i attends to token i−1 and the first token to itself (there is no
    token before it). ``"first"``, ``"last"``, ``"token"``: every row attends to one token
    (``token`` is its 0-based index for ``"token"``). ``"uniform"``: every weight ``1/n``.
    ``"pair"``: the first two tokens attend to each other, every other token to itself (issue 13:
    a 2-cycle, which tied weights provably cannot meet, see :func:`tied_row_bound`).
    ``"swaps"``: tokens swapped in pairs (0↔1, 2↔3, …), an odd last token attending to itself.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    t = np.zeros((n, n))
    if kind == "previous":
        t[np.arange(n), np.maximum(np.arange(n) - 1, 0)] = 1.0
    elif kind == "first":
        t[:, 0] = 1.0
    elif kind == "last":
        t[:, n - 1] = 1.0
    elif kind == "token":
        if not 0 <= token < n:
            raise ValueError(f"token must be a 0-based index below n={n}, got {token}")
        t[:, token] = 1.0
    elif kind == "uniform":
        t[:] = 1.0 / n
    elif kind == "pair":
        t[np.arange(n), np.arange(n)] = 1.0
        if n > 1:
            t[:2, :2] = [[0.0, 1.0], [1.0, 0.0]]
    elif kind == "swaps":
        i = np.arange(n)
        partner = np.where(i % 2 == 0, i + 1, i - 1)
        t[i, np.where(partner < n, partner, i)] = 1.0
    else:
        raise ValueError(f"kind must be one of {TARGETS}, got {kind!r}")
    return t


def entropy_floor(target: np.ndarray) -> float:
    """The smallest cross-entropy any attention matrix can reach: the target's mean row entropy.

    0 for a one-hot target; ``log n`` for the uniform one. ``0 · log 0`` counts as 0.
    """
    t = np.asarray(target, dtype=np.float64)
    logs = np.log(np.where(t > 0, t, 1.0))
    return float(-np.sum(t * logs) / t.shape[0])


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")


def scores(x: np.ndarray, w_query: np.ndarray, w_key: np.ndarray, mode: Mode) -> np.ndarray:  # -> [..., n, n]
    """``Ω`` of figure 01's mode: ``XXᵀ``, ``XW_q(XW_q)ᵀ`` (tied) or ``XW_q(XW_k)ᵀ`` (three).

    Weights may carry leading batch axes (``[..., d_in, d_k]``), as a recorded trajectory does.
    """
    _check_mode(mode)
    x = np.asarray(x, dtype=np.float64)
    if mode == "none":
        return x @ x.T  # [n, d_in] @ [d_in, n]
    q = x @ np.asarray(w_query, dtype=np.float64)  # [..., n, d_k]
    k = q if mode == "tied" else x @ np.asarray(w_key, dtype=np.float64)
    return q @ np.swapaxes(k, -1, -2)


def attention(x: np.ndarray, w_query: np.ndarray, w_key: np.ndarray, mode: Mode) -> np.ndarray:
    """``A = softmax(Ω / √d_k)`` of the mode, with ``d_k`` the keys' width in every mode (figure 01)."""
    d_k = np.shape(w_key)[-1]
    return np.exp(log_softmax(scores(x, w_query, w_key, mode) / np.sqrt(d_k)))


class _Batch:
    """The loss and its gradient for ``B`` runs on one sentence, in buffers reused at every step.

    Weights are ``[2, B, d_in, d_k]`` (``p[0]`` W_q, ``p[1]`` W_k). Every product is one NumPy call
    over all runs, but each run's products and sums are its own, the same float64 operations in the
    same order whatever else is in the batch: a mode trained in lockstep with others ends on the
    bits it ends on alone. (One wide product over all runs is faster still, but its rounding
    depends on the batch's width.) Scratch arrays are kept, so a step allocates little.

    ``tied`` is 1.0 for each run whose keys use W_q, 0.0 otherwise (``None``: no run is tied). ``t``
    is one target ``[n, n]`` for every run, or one per run ``[B, n, n]``.
    """

    def __init__(self, x: np.ndarray, t: np.ndarray, b: int, d_k: int, tied: np.ndarray | None) -> None:
        n = x.shape[0]
        self.x, self.xt, self.t, self.n = x, x.T, t, n
        rows = t.sum(axis=-1, keepdims=True)  # [..., n, 1]
        # A row of T summing to s gives ∂L/∂Z = (s·A − T)/n; s is 1 (times 1.0 is exact, skipped)
        # except in the search, whose variants drop rows (s = 0: that row is free).
        self.rows = None if np.all(rows == 1.0) else rows
        self.tt = np.broadcast_to(t, (b, n, n))  # the target of each run, for the loss's sums
        self.scale, self.grad_scale = 1 / np.sqrt(d_k), 1 / (n * np.sqrt(d_k))
        self.d_qk = np.empty((2, b, n, d_k))  # ∂L/∂Q, ∂L/∂K
        self.grads = np.empty((2, b, x.shape[1], d_k))
        self.tied = None if tied is None else np.asarray(tied, dtype=np.float64)[:, None, None]

    def __call__(self, p: np.ndarray, loss: np.ndarray, grad: bool = True) -> np.ndarray:
        """The loss of every run into ``loss`` ``[B]``; their gradient ``[2, B, d_in, d_k]`` (a buffer,
        valid until the next call) unless ``grad`` is false. The chain rule, one link per line, with
        ``Z = Ω/√d_k`` and ``A = softmax(Z)`` row by row:

        - ``L = −(1/n) Σ_ij T_ij log A_ij``;
        - ``∂L/∂Z = (A − T)/n``: log-softmax's Jacobian ``δ_jk − A_ik`` summed against a target row
          whose entries add up to 1 (a row of the search's targets may also be all zero: see above);
        - ``∂L/∂Ω = ∂L/∂Z / √d_k``;
        - ``Ω = QKᵀ``, so ``∂L/∂Q = (∂L/∂Ω) K`` and ``∂L/∂K = (∂L/∂Ω)ᵀ Q``;
        - ``Q = XW_q``, ``K = XW_k``, so ``∂L/∂W_q = Xᵀ ∂L/∂Q`` and ``∂L/∂W_k = Xᵀ ∂L/∂K``.

        A tied run holds one matrix on both paths (W_q = W_k), so its gradient is the sum of the
        two, handed to both slots: an optimiser then keeps the two slots equal to the last bit.
        """
        qk = self.x @ p  # Q and K at once  [2, B, n, d_k]
        q, k = qk
        z = q @ k.swapaxes(-1, -2)  # Ω  [B, n, n]
        z *= self.scale  # Z
        z -= z.max(axis=-1, keepdims=True)
        a = np.exp(z)
        total = a.sum(axis=-1, keepdims=True)
        z -= np.log(total)  # log A
        np.einsum("bij,bij->b", self.tt, z, out=loss)
        loss *= -1 / self.n
        if not grad:
            return self.grads
        a /= total  # A
        if self.rows is not None:
            a *= self.rows
        a -= self.t
        a *= self.grad_scale  # ∂L/∂Ω  [B, n, n]
        np.matmul(a, k, out=self.d_qk[0])
        np.matmul(a.swapaxes(-1, -2), q, out=self.d_qk[1])
        np.matmul(self.xt, self.d_qk, out=self.grads)  # ∂L/∂W_q, ∂L/∂W_k
        if self.tied is not None:  # a tied run's two slots both get their sum
            self.grads += self.tied * self.grads[::-1]
        return self.grads


def _loss_and_grads(
    x: np.ndarray, p: np.ndarray, t: np.ndarray, tied: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:  # [2, B, d_in, d_k] -> [B], [2, B, d_in, d_k]
    """The loss and its gradient for a batch of ``B`` runs; ``p[0]`` is W_q, ``p[1]`` is W_k (the
    chain rule is :class:`_Batch`'s)."""
    loss = np.empty(p.shape[1])
    grads = _Batch(x, t, p.shape[1], p.shape[-1], tied)(p, loss)
    return loss, grads


def loss_and_grad(
    x: np.ndarray, w_query: np.ndarray, w_key: np.ndarray, target: np.ndarray, mode: Mode
) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean row cross-entropy of the mode's ``A`` against ``target``; gradient w.r.t. W_q, W_k.

    The chain rule is spelled out in :func:`_loss_and_grads`. ``"tied"`` ignores ``w_key`` (the
    keys use W_q) and returns the one matrix's gradient, the sum of both paths, in both slots.
    ``"none"`` has nothing to train: both gradients are zero, and ``w_key`` only sets ``d_k``,
    so the no-matrix mode divides by ``√2`` as figure 01 does.
    """
    _check_mode(mode)
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    w_q = np.asarray(w_query, dtype=np.float64)
    w_k = w_q if mode == "tied" else np.asarray(w_key, dtype=np.float64)
    n = x.shape[0]
    if t.shape != (n, n):
        raise ValueError(f"target must be [{n}, {n}] for {n} tokens, got {t.shape}")
    if not (np.all(t >= 0) and np.allclose(t.sum(axis=1), 1.0)):
        raise ValueError("each target row must be a distribution: entries >= 0 that sum to 1")
    if w_q.shape != (x.shape[1], w_k.shape[-1]) or w_k.shape != w_q.shape:
        raise ValueError(f"W_q and W_k must both be [d_in={x.shape[1]}, d_k], got {w_q.shape}, {w_k.shape}")
    if mode == "none":
        log_a = log_softmax(x @ x.T / np.sqrt(w_k.shape[-1]))
        return float(-np.sum(t * log_a) / n), np.zeros_like(w_q), np.zeros_like(w_k)
    loss, grads = _loss_and_grads(x, np.stack((w_q, w_k))[:, None], t, np.ones(1) if mode == "tied" else None)
    return float(loss[0]), grads[0, 0], grads[1, 0]


def score_gradient(attention: np.ndarray, target: np.ndarray, d_k: int) -> np.ndarray:  # [n, n] -> [n, n]
    """``∂L/∂Ω = (A − T) / (n √d_k)``: how the loss moves with each unscaled score ``ω_ij``.

    The first links of :func:`_loss_and_grads`' chain, read off a recorded snapshot ``A`` instead of
    recomputed from the weights: the softmax's Jacobian against a cross-entropy leaves ``A − T`` per
    row (each target row sums to 1), ``1/n`` is the mean over rows, ``1/√d_k`` the divisor. The
    score is the softmax's free input: a weight cannot move alone (its row sums to 1), a score can.
    """
    a, t = np.asarray(attention, dtype=np.float64), np.asarray(target, dtype=np.float64)
    if a.shape != t.shape or a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"attention and target must both be [n, n], got {a.shape} and {t.shape}")
    if d_k < 1:
        raise ValueError(f"d_k must be at least 1, got {d_k}")
    return (a - t) / (a.shape[0] * np.sqrt(d_k))


def loss_value(
    x: np.ndarray, w_query: np.ndarray, w_key: np.ndarray, target: np.ndarray, mode: Mode
) -> float:
    """The loss alone (finite differences)."""
    return loss_and_grad(x, w_query, w_key, target, mode)[0]


def words(x: np.ndarray) -> np.ndarray:  # [n, d_in] -> [n]
    """Each token's word: the first position whose embedding equals its own.

    A repeated word has one embedding (the sentence box gives it one), so its queries are one
    query and its keys one key, in every mode: no matrix can make its rows differ, nor a query
    tell its keys apart. Only position embeddings, which chapter 3 does not add, could.
    """
    x = np.asarray(x, dtype=np.float64)
    same = np.all(x[:, None, :] == x[None, :, :], axis=-1)  # [n, n]
    return np.argmax(same, axis=-1)


def rows_right(
    attention: np.ndarray, target: np.ndarray, tol: float = UNIFORM_TOL, words: np.ndarray | None = None
) -> np.ndarray:  # -> [n]
    """Which rows of ``attention`` do what the target asks, one bool per row.

    A target row with a single largest entry is met when the attention row's largest entry is
    on the target's word: the target's token, or a repeat of it (``words``, from :func:`words`;
    each token its own word when not given), since a repeat's key is the same key and gets the
    same weight. An exact tie between two words (saturated weights) goes to the first largest, as
    ``argmax`` reads it here and in the Reproduce script. A target row without one (the uniform target)
    has no token to point at, so it is met when every weight is within ``tol`` of the target's.

    A repeated word's rows are the same row (one query): each is read from its word's first row,
    so float64 rounding in the matrix products can never split a near tie two ways.
    """
    t = np.asarray(target, dtype=np.float64)
    w = np.arange(t.shape[-1]) if words is None else np.asarray(words)
    a = np.take(np.asarray(attention, dtype=np.float64), w, axis=-2)
    unique = np.sum(t == t.max(axis=-1, keepdims=True), axis=-1) == 1
    by_argmax = w[np.argmax(a, axis=-1)] == w[np.argmax(t, axis=-1)]
    by_distance = np.max(np.abs(a - t), axis=-1) < tol
    return np.where(unique, by_argmax, by_distance)


# Snapshots of attention and scores are what a cached run weighs: n² cells each, per mode. The
# book's six tokens get 200 over any run (the step slider's resolution); a longer sentence gets
# fewer, so a run of 32 tokens stays under a megabyte, and never fewer than 20.
SNAPSHOTS = 200
SNAPSHOT_CELLS = SNAPSHOTS * 6 * 6


def record_every(steps: int, n: int) -> int:
    """The step between snapshots of a ``steps``-step run on ``n`` tokens (see SNAPSHOT_CELLS)."""
    snapshots = max(20, min(SNAPSHOTS, SNAPSHOT_CELLS // max(1, n * n)))
    return max(1, steps // snapshots)


def fit_bytes(n: int, d_in: int, d_k: int, steps: int) -> int:
    """An upper bound on the bytes :func:`fit` holds at its peak for ``n`` tokens ``d_in`` wide, weights
    ``d_k`` wide and ``steps`` steps: what it declares to the server's heavy-work budget.

    Counted in float64 cells, doubled for temporaries: three modes' trajectories (attention and
    scores ``[r, n, n]``, W_q and W_k ``[r, d_in, d_k]``, losses), the lockstep batch's snapshots
    and losses, and its per-step buffers. ``tests/learning/test_learning_budget.py`` measures
    :func:`fit` with tracemalloc against it.
    """
    r = steps // record_every(steps, n) + 2  # snapshots, the divergence's last good state included
    kept = 3 * (r * (2 * n * n + 2 * d_in * d_k) + steps + 1)  # the trajectories
    batch = r * 4 * d_in * d_k + 2 * (steps + 1) + 16 * (n * n + n * d_k + d_in * d_k)
    return 2 * 8 * (kept + batch) + 256 * 1024


@dataclass(frozen=True)
class TrainConfig:
    """How to turn the dials. Adam's constants are PyTorch's defaults (β₁ 0.9, β₂ 0.999, ε 1e-8)."""

    optimiser: Optimiser = "adam"
    lr: float = 0.02  # Adam: 5,000 steps reach ≈0.2 on previous-token without Adam's late spikes
    steps: int = 5_000
    record_every: int = 10  # snapshots of weights and attention, so 5,000 steps stay small
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8

    def __post_init__(self) -> None:
        if self.optimiser not in OPTIMISERS:
            raise ValueError(f"optimiser must be one of {OPTIMISERS}, got {self.optimiser!r}")
        if not (np.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"lr must be a positive finite number, got {self.lr}")
        if not 0 <= self.steps <= MAX_STEPS:
            raise ValueError(f"steps must be in [0, {MAX_STEPS}], got {self.steps}")
        if self.record_every < 1:
            raise ValueError(f"record_every must be at least 1, got {self.record_every}")


@dataclass(frozen=True)
class Trajectory:
    """One training run: the loss at every step, weights and attention at recorded steps.

    ``losses[s]`` is the loss after ``s`` updates (``steps + 1`` entries). Snapshots are taken
    at the steps in ``recorded``: 0, every ``record_every``, and the last. A run whose loss or
    weights blow up (plain gradient descent with too large a rate: a loss past ``MAX_LOSS`` or
    not finite) stops there: ``diverged_at`` names the step, and later entries repeat the last
    good state, so nothing non-finite ever reaches a figure. The no-matrix mode has one snapshot, step 0.
    """

    mode: Mode
    losses: np.ndarray  # [steps + 1]
    recorded: np.ndarray  # [r] step numbers
    w_query: np.ndarray  # [r, d_in, d_k]
    w_key: np.ndarray  # [r, d_in, d_k]; equal to w_query when tied
    attention: np.ndarray  # A  [r, n, n]
    scores: np.ndarray  # Ω, unscaled  [r, n, n]
    diverged_at: int | None = None

    def at(self, step: int) -> int:
        """Index of the last snapshot at or before ``step`` (the first one for earlier steps)."""
        i = int(np.searchsorted(self.recorded, step, side="right")) - 1
        return min(max(i, 0), len(self.recorded) - 1)


class _Adam:
    """Kingma & Ba's Adam, in the order ``torch.optim.Adam`` computes it, in buffers reused at every
    step: its moments ``m`` and ``v`` and one scratch array, the size of the weights."""

    def __init__(self, c: TrainConfig, shape: tuple[int, ...]) -> None:
        self.c = c
        self.m, self.v, self.scratch = np.zeros(shape), np.zeros(shape), np.empty(shape)

    def __call__(self, s: int, p: np.ndarray, g: np.ndarray, out: np.ndarray) -> None:
        """Update ``s + 1``: ``p`` moved along ``g``, written into ``out`` (``p`` is left as it was,
        so the caller still holds the last finite state if the step overflows)."""
        c, m, v, tmp = self.c, self.m, self.v, self.scratch
        m *= c.beta1
        m += np.multiply(g, 1 - c.beta1, out=tmp)
        v *= c.beta2
        np.multiply(g, g, out=tmp)
        tmp *= 1 - c.beta2
        v += tmp
        bias1, bias2 = 1 - c.beta1 ** (s + 1), 1 - c.beta2 ** (s + 1)
        np.sqrt(v, out=tmp)
        tmp /= np.sqrt(bias2)
        tmp += c.eps  # the denominator
        np.divide(np.multiply(m, c.lr / bias1, out=out), tmp, out=out)
        np.subtract(p, out, out=out)


def descend(
    x: np.ndarray, t: np.ndarray, p: np.ndarray, tied: np.ndarray | None, c: TrainConfig
) -> tuple[np.ndarray, list[int], list[np.ndarray], int | None]:
    """Run ``B`` trainings in lockstep: a step is one batch of NumPy calls for them all
    (:class:`_Batch`), which is what makes 5,000 steps of every mode fit in a fraction of a second.
    Stops where the loss blows up (``MAX_LOSS``).

    Returns the losses ``[steps + 1, B]`` (rows past a divergence are garbage, to be replaced),
    the recorded steps, the weights ``[2, B, d_in, d_k]`` at each, and the divergence step.
    """
    b = p.shape[1]
    batch = _Batch(np.asarray(x, dtype=np.float64), np.asarray(t, dtype=np.float64), b, p.shape[-1], tied)
    losses = np.zeros((c.steps + 1, b))
    recorded: list[int] = []
    snaps: list[np.ndarray] = []
    w, spare = np.array(p, dtype=np.float64), np.empty(p.shape)  # now and next: two buffers
    adam = _Adam(c, w.shape) if c.optimiser == "adam" else None
    for s in range(c.steps + 1):
        g = batch(w, losses[s], grad=s < c.steps)
        # Overflowing weights show up here as a huge or non-finite loss: keep the last good state.
        worst = float(losses[s].max())
        if not worst < MAX_LOSS:
            if s == 0:
                raise ValueError(f"the starting loss {worst} is already past {MAX_LOSS}: start smaller")
            if recorded[-1] != s - 1:
                recorded.append(s - 1)
                snaps.append(spare.copy())  # the step before: the last good state
            return losses, recorded, snaps, s
        if s % c.record_every == 0 or s == c.steps:
            recorded.append(s)
            snaps.append(w.copy())
        if s == c.steps:
            break
        if adam is None:
            np.subtract(w, np.multiply(g, c.lr, out=spare), out=spare)
        else:
            adam(s, w, g, spare)
        w, spare = spare, w
    return losses, recorded, snaps, None


def _trajectory(
    x: np.ndarray, mode: Mode, losses: np.ndarray, recorded: list[int], wq: np.ndarray, wk: np.ndarray, div
) -> Trajectory:
    last = recorded[-1] if div is not None else len(losses) - 1
    losses = losses.copy()
    losses[last + 1 :] = losses[last]
    shape = (len(recorded), x.shape[0], x.shape[0])  # the no-matrix mode's Ω has no batch axis
    a = np.broadcast_to(attention(x, wq, wk, mode), shape).copy()
    omega = np.broadcast_to(scores(x, wq, wk, mode), shape).copy()
    return Trajectory(mode, losses, np.array(recorded), wq, wk, a, omega, div)


def train_modes(
    x: np.ndarray,
    target: np.ndarray,
    w_query: np.ndarray,
    w_key: np.ndarray,
    config: TrainConfig = TrainConfig(),
    modes: tuple[Mode, ...] = MODES,
) -> dict[Mode, Trajectory]:
    """Fit each mode's matrices to ``target`` from the same start; deterministic, no randomness.

    ``"three"`` trains W_q and W_k; ``"tied"`` starts from W_q and uses it for the keys too;
    ``"none"`` has no parameters, so its loss is the same at every step. The trained modes run
    in lockstep (see :func:`descend`); if one of them diverges, each is rerun alone so the
    other's trajectory is untouched. ``"adam"`` is ``torch.optim.Adam``; ``"gd"`` is
    ``W ← W − lr · ∂L/∂W``.
    """
    for mode in modes:
        _check_mode(mode)
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    w_q, w_k = np.asarray(w_query, dtype=np.float64), np.asarray(w_key, dtype=np.float64)
    loss_and_grad(x, w_q, w_k, t, "three")  # validates every shape, with a readable message
    if not (np.isfinite(w_q).all() and np.isfinite(w_k).all()):
        raise ValueError("the starting weights must be finite")
    out: dict[Mode, Trajectory] = {}
    if "none" in modes:
        loss0 = loss_value(x, w_q, w_k, t, "none")
        out["none"] = _trajectory(
            x, "none", np.full(config.steps + 1, loss0), [0], w_q[None], w_k[None], None
        )
    trained = [mode for mode in modes if mode != "none"]
    groups = [trained] if trained else []
    while groups:
        group = groups.pop()
        tied = np.array([float(mode == "tied") for mode in group]) if "tied" in group else None
        p = np.stack((np.stack([w_q] * len(group)), np.stack([w_q if m == "tied" else w_k for m in group])))
        losses, recorded, snaps, div = descend(x, t, p, tied, config)
        if div is not None and len(group) > 1:
            groups.extend([mode] for mode in group)
            continue
        w = np.stack(snaps, axis=2)  # [2, B, r, d_in, d_k]
        for b, mode in enumerate(group):
            out[mode] = _trajectory(x, mode, losses[:, b], recorded, w[0, b], w[1, b], div)
    return {mode: out[mode] for mode in modes}


def train(
    x: np.ndarray,
    target: np.ndarray,
    w_query: np.ndarray,
    w_key: np.ndarray,
    mode: Mode,
    config: TrainConfig = TrainConfig(),
) -> Trajectory:
    """One mode's run (see :func:`train_modes`, which runs several from one start)."""
    return train_modes(x, target, w_query, w_key, config, modes=(mode,))[mode]


def fit(
    kind: Target,
    token: int,
    optimiser: Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> tuple[np.ndarray, dict[Mode, Trajectory]]:
    """The page's run: the ``kind`` target on inputs ``x`` (the sentence's embeddings), and every
    mode fitted to it from ``w_query`` and ``w_key``, snapshots every :func:`record_every` steps."""
    target = target_pattern(kind, len(x), token)
    config = TrainConfig(optimiser, lr, steps, record_every=record_every(steps, len(x)))
    return target, train_modes(x, target, w_query, w_key, config)
