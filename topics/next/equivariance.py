"""Attention cannot see order: permutation equivariance, and how the causal mask breaks it.

The post's figure 07: shuffle the rows of ``X`` and self-attention returns the same rows,
shuffled the same way, ``f(PX) = P·f(X)``. Every score is a dot product of two tokens and the
softmax normalises over a set of keys, so nothing depends on where a token sits. The causal mask
is the only position-aware step of chapter 3: it lets position ``i`` see positions ``≤ i``, so
after a shuffle a token sees a different prefix and its output changes. The model learns order
from the position embeddings added to the token embeddings before the first block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core import rounding
from core.attention import AttentionTrace, self_attention, softmax
from core.weights import WeightSet


def causal_self_attention(x: np.ndarray, ws: WeightSet) -> AttentionTrace:  # [n, d_in] -> Z [n, d_v]
    """Section 3.5's ``CausalAttention`` (dropout 0): scores above the diagonal set to ``-inf``.

    The softmax then runs over each row's visible prefix (``e^{-inf} = 0``); ``divisor = √d_k``.
    The returned ``scores`` keep the ``-inf`` fill, as the book's ``masked_fill_`` leaves them.
    """
    x = np.asarray(x, dtype=np.float64)
    q, k, v = (x @ w.astype(np.float64) for w in (ws.w_query, ws.w_key, ws.w_value))
    n = x.shape[0]
    scores = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, q @ k.T)  # [n, n]
    divisor = float(np.sqrt(k.shape[-1]))
    weights = softmax(scores / divisor)
    return AttentionTrace(q, k, v, scores, weights, weights @ v, divisor)


def rounding_limit(x: np.ndarray, ws: WeightSet) -> float:
    """A bound on ``|P·f(X) − f(P·X)|`` from float64 rounding alone, with or without the mask.

    In exact arithmetic the two sides are equal wherever a token sees the same tokens before it
    (everywhere without the mask), so any gap there is rounding from summing in another order
    (issue #24, item 3: it is shown as this bound, never as its machine-dependent digits). A
    first-order count, with ``|X|``, ``|W|`` the entries' magnitudes: the projections carry
    ``d_in`` roundings relative to ``|X|·|W|``; a scaled score ``d_k + 2·d_in`` relative to
    ``S = max |Q|·|K|ᵀ/√d_k``, which the softmax's exponential turns into a relative error of
    the weights (twice: a score and the row's largest); the softmax's sum and ``weights @ V`` add
    ``n`` each, on a scale of ``max |X|·|W_v|``. :func:`core.rounding.bound` doubles it for two
    orders and adds the exponential, subtraction, division and renormalisation.
    """
    a = np.abs(np.asarray(x, dtype=np.float64))
    n, d_in = a.shape
    q, k, v = (a @ np.abs(w.astype(np.float64)) for w in (ws.w_query, ws.w_key, ws.w_value))
    d_k = k.shape[1]
    s = float(np.max(q @ k.T)) / np.sqrt(d_k) if n else 0.0
    terms = 2 * n + d_in + int(np.ceil(2 * (d_k + 2 * d_in) * s))
    return rounding.bound(terms, float(np.max(v)) if n else 1.0)


def check_permutation(perm: Sequence[int], n: int) -> tuple[int, ...]:
    """``perm`` as a tuple if it is a permutation of ``0 .. n-1``; ``ValueError`` otherwise."""
    p = tuple(int(i) for i in perm)
    if sorted(p) != list(range(n)):
        raise ValueError(f"a permutation of {n} tokens uses each of 0..{n - 1} exactly once, got {list(p)}")
    return p


@dataclass(frozen=True)
class PermutationTest:
    """Both sides of ``P·f(X) = f(P·X)`` and how far apart they are."""

    perm: tuple[int, ...]  # row i of P·X is row perm[i] of X
    permuted_outputs: np.ndarray  # P·f(X)  [n, d_v]
    outputs_of_permuted: np.ndarray  # f(P·X)  [n, d_v]
    difference: np.ndarray  # P·f(X) − f(P·X)  [n, d_v]: what the page's heatmaps draw
    gap: float  # max |P·f(X) − f(P·X)|


def permutation_test(x: np.ndarray, ws: WeightSet, perm: Sequence[int], causal: bool) -> PermutationTest:
    """``max |P·f(X) − f(P·X)|`` for self-attention, without or with the causal mask.

    Without the mask the gap is 0 up to float64 rounding (the softmax sums its terms in the
    permuted order, so the last bit may differ); with the mask it is 0 only when the shuffle
    leaves every token's prefix unchanged, i.e. for the identity.
    """
    x = np.asarray(x, dtype=np.float64)
    p = check_permutation(perm, x.shape[0])
    forward = causal_self_attention if causal else self_attention
    permuted = forward(x, ws).context[list(p)]  # P·f(X)
    of_permuted = forward(x[list(p)], ws).context  # f(P·X)
    difference = permuted - of_permuted
    gap = float(np.max(np.abs(difference))) if x.shape[0] else 0.0
    return PermutationTest(p, permuted, of_permuted, difference, gap)


def same_mix(x: np.ndarray, perm: Sequence[int]) -> tuple[bool, ...]:
    """Row ``i`` of the shuffle under the causal mask: does its token (``perm[i]``) see the same
    embeddings *in the same proportions* up to itself as it did in the original order?

    Only then are its two outputs equal in exact arithmetic: a causal row is a softmax-weighted
    average over its prefix, so what matters is which embeddings it holds and how often, relative
    to its length (a repeated word, one embedding, counts twice). The identity keeps every row's
    mix; so can an order that only moves repeated words (``"a a"`` swapped).
    """
    x = np.asarray(x, dtype=np.float64)
    p = check_permutation(perm, x.shape[0])
    if not p:
        return ()
    _, ids = np.unique(x, axis=0, return_inverse=True)
    ids = ids.reshape(-1)
    m = int(ids.max()) + 1
    out = []
    for i, t in enumerate(p):
        before = np.bincount(ids[: t + 1], minlength=m)
        after = np.bincount(ids[list(p[: i + 1])], minlength=m)
        out.append(bool(np.array_equal(before * (i + 1), after * (t + 1))))
    return tuple(out)


def parse_permutation(text: str, names: Sequence[str]) -> tuple[int, ...]:
    """Read a permutation typed by a reader: 1-based positions or token names, in the new order.

    ``"6 5 4 3 2 1"``, ``"6,5,4,3,2,1"`` and ``"step one with starts journey Your"`` all mean
    "reverse the sentence". Names match case-insensitively. The text is split and looked up,
    never evaluated; anything else raises ``ValueError`` with a message to show the reader.
    """
    n = len(names)
    parts = [p for p in re.split(r"[\s,;>→|/]+", str(text).strip()) if p]
    if len(parts) != n:
        raise ValueError(f"Give all {n} tokens once each, in their new order ({len(parts)} given).")
    lower = [t.lower() for t in names]
    order = []
    for part in parts:
        if part.isdecimal() and len(part) <= 3 and 1 <= int(part) <= n:
            order.append(int(part) - 1)
        elif part.lower() in lower:
            order.append(lower.index(part.lower()))
        else:
            shown = part if len(part) <= 20 else part[:20] + "…"
            raise ValueError(f"“{shown}” is neither a position 1–{n} nor one of the tokens.")
    if len(set(order)) != n:
        missing = [names[i] for i in range(n) if i not in order]
        raise ValueError(f"Each token must appear exactly once; missing: {', '.join(missing)}.")
    return tuple(order)


def format_permutation(perm: Sequence[int]) -> str:
    """The 1-based text ``parse_permutation`` reads back: ``(5, 4, 3, 2, 1, 0)`` -> ``"6 5 4 3 2 1"``."""
    return " ".join(str(i + 1) for i in perm)
