"""One attention cell, operation by operation: the arithmetic behind a single weight ``a_ij``.

Section 3.4 of the book computes one query's weights by hand before it computes them all: the dot
product ``ω_22 = q_2 · k_2`` (its listing 3.4.1 prints 1.8524), the division by √d_k, the softmax
over the row, and the context vector ``z_2`` as the weighted sum of the values. This module does
the same for any cell ``(i, j)`` of any page's attention, from the matrices that page already
computed, so a cell panel shows the very numbers of the heatmap beside it (issue #22).

Every step is float64, from the float32 numbers torch holds; the panel prints each to no more
digits than float32 also holds (``ui.cell_text.held``, the README's "Precision"). The exponentials
are shifted by the row's largest scaled score only when an unshifted one would overflow float64
(a score above about 709), or fall below its normal range (a score below about −708, where an
exponential keeps fewer bits or rounds to 0: a trained run reaches both); the shift cancels in
the weight, and the panel states it, so no inf or NaN reaches the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

EXP_LIMIT = 700.0  # exp(700) ≈ 1.0e304: below float64's largest, with room for a 32-term sum


@dataclass(frozen=True)
class Cell:
    """The cell ``(i, j)``: its score's products, its weight's softmax, and query ``i``'s context.

    ``masked`` marks a cell the causal mask hides (``j > i``): its scaled score is −∞, its
    exponential exactly 0, and so its weight. ``shift`` is subtracted from every scaled score of
    the row before the exponential; it is 0 unless one would overflow or leave float64's normal range.
    """

    i: int
    j: int
    query: np.ndarray  # [d] q_i (x_i where the page has no projections)
    key: np.ndarray  # [d] k_j
    products: np.ndarray  # [d] q_i,d · k_j,d
    score: float  # ω_ij = Σ_d q_i,d · k_j,d
    divisor: float  # √d_k, or 1.0 where the page divides by nothing
    scaled: float  # ω_ij / divisor; −inf where masked
    shift: float  # subtracted before exp; 0.0 unless the row would overflow or underflow
    exp: float  # exp(scaled − shift); 0.0 where masked
    denominator: float  # Σ_j' exp(scaled_ij' − shift) over the row's unmasked keys
    weight: float  # a_ij as the page shows it (after dropout, where the page drops)
    softmax_weight: float  # exp / denominator, before anything the page does after the softmax
    masked: bool
    row_weights: np.ndarray  # [n] query i's weights as the page shows them
    values: np.ndarray  # [n, d_v] every key's value vector
    terms: np.ndarray  # [n, d_v] a_ij' · v_j' for every key j'
    context: np.ndarray  # [d_v] z_i = Σ_j' a_ij' · v_j'
    row_scaled: np.ndarray  # [n] the row's scaled scores, −inf where masked (what its exponentials take)

    @property
    def n_keys(self) -> int:
        return int(self.terms.shape[0])

    def largest(self, count: int = 8) -> tuple[int, ...]:
        """The keys of the row's ``count`` largest weights, largest first (ties by position), with
        the chosen key always among them: what a panel lists for a row too long to show whole."""
        order = sorted(range(self.n_keys), key=lambda k: (-self.row_weights[k], k))[:count]
        if self.j not in order:
            order = [*order[: count - 1], self.j]
        return tuple(order)


def cell(
    queries: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    i: int,
    j: int,
    divisor: float = 1.0,
    causal: bool = False,
    weights: np.ndarray | None = None,
) -> Cell:
    """The arithmetic of cell ``(i, j)`` of ``softmax(QKᵀ / divisor) V``.

    ``queries`` [n_q, d], ``keys`` [n_k, d] and ``values`` [n_k, d_v] are the page's own matrices.
    ``causal`` hides keys after the query (section 3.5.1's mask, −∞ above the diagonal).
    ``weights`` [n_q, n_k] are the weights the page shows, when they are not the plain softmax
    (after dropout, or trained); the context is summed from them, as the page's ``Z = AV`` is.
    """
    q, k, v = (np.asarray(m, dtype=np.float64) for m in (queries, keys, values))
    n_k = k.shape[0]
    if not (0 <= i < q.shape[0] and 0 <= j < n_k):
        raise IndexError(f"cell ({i}, {j}) outside a {q.shape[0]} × {n_k} attention matrix")
    products = q[i] * k[j]
    row = (q[i] @ k.T) / divisor
    hidden = np.arange(n_k) > i if causal else np.zeros(n_k, dtype=bool)
    visible = row[~hidden]
    top = float(np.max(visible))
    # Shift when an exponential would overflow, or when one would fall below float64's normal
    # range (exp(−708) ≈ 2.2e−308): a subnormal keeps fewer bits, and the weight drifts from the
    # softmax's, which shifts every row. The book's rows, and most rows, are never shifted.
    shift = top if top > EXP_LIMIT or float(np.min(visible)) < -EXP_LIMIT else 0.0
    exps = np.where(hidden, 0.0, np.exp(np.where(hidden, 0.0, row - shift)))
    denominator = float(np.sum(exps))
    plain = exps / denominator
    shown = plain if weights is None else np.asarray(weights, dtype=np.float64)[i]
    terms = shown[:, None] * v
    masked = bool(hidden[j])
    return Cell(
        i=i,
        j=j,
        query=q[i],
        key=k[j],
        products=products,
        score=float(np.sum(products)),
        divisor=float(divisor),
        scaled=-math.inf if masked else float(row[j]),
        shift=shift,
        exp=float(exps[j]),
        denominator=denominator,
        weight=float(shown[j]),
        softmax_weight=float(plain[j]),
        masked=masked,
        row_weights=shown,
        values=v,
        terms=terms,
        context=np.sum(terms, axis=0),
        row_scaled=np.where(hidden, -math.inf, row),
    )
