"""The chosen cell on each of the page's paths: the −∞ fill, the 0 fill and the naive one.

The cell panel works a cell out the book's way (``core.cell.cell(..., causal=True)``: the score,
−∞ on the future, ÷ √d_k, one softmax). Beside it the page shows two more ways to the same cell,
and issue #22 asks the panel to say what each gives there: the 0 fill (the shortcut: a zero score
is not a zero weight, since ``exp(0) = 1`` joins the row's denominator) and the naive path
(softmax over the whole row first, then zero the future and renormalise). :func:`of` takes those
numbers from the stages the page draws, so the panel reads what the heatmaps print; the
exponentials and denominators in between are computed here, shifted as ``core.cell`` shifts
them (by the row's largest exponent, only when one would overflow float64).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.cell import EXP_LIMIT
from core.masking import Stage


@dataclass(frozen=True)
class CellPaths:
    """Cell ``(i, j)`` on the page's paths, as the stages the page draws hold it."""

    i: int
    j: int
    n: int
    stage: int  # 1 to 4: the step both heatmaps show
    naive_name: str  # what the naive path has just done at that step
    efficient_name: str  # the same for the efficient path, with the fill the controls set
    naive_shown: float  # the naive heatmap's cell at that step (NaN where it divided 0 by 0)
    efficient_shown: float  # the efficient heatmap's cell at that step (−inf where it is filled)
    zero_fill: bool  # the controls set the 0 fill, so the efficient heatmap and the grid show it
    # The 0 fill, worked out as the panel works the −∞ fill out.
    later: int  # keys after query i: the ones either fill hides or leaks
    zero_shift: float  # subtracted before exp, as core.cell does (0 unless one would overflow)
    zero_fill_exp: float  # exp(0 − shift): what each later key adds to the denominator
    zero_exp: float  # exp(scaled_ij − shift), or exp(0 − shift) for a later key
    zero_denominator: float  # the row's denominator with the 0 fill
    zero_weight: float  # the 0 fill's weight in this cell, as its last stage holds it
    # The naive path: the full row's softmax, the tril, the renormalisation.
    scaled: float  # ω_ij / √d_k, unmasked
    full_shift: float
    full_exp: float  # exp(scaled_ij − full_shift)
    full_denominator: float  # Σ over the whole row, later keys included
    full_weight: float  # the naive path's step 2 in this cell
    visible_sum: float  # the row of its step 3 summed: what step 4 divides by
    naive_weight: float  # its step 4 in this cell; NaN where the visible sum is 0
    # The difference grid, as the page draws it with the fill the controls set.
    difference: float  # naive − efficient in this cell
    grid_cell: str  # that cell's text ("0", "≈0", "0/0" or the value)
    limit: float  # the rounding bound the grid's ≈0 stands for

    @property
    def future(self) -> bool:
        """Key ``j`` comes after query ``i``: the causal mask hides it."""
        return self.j > self.i


def _shift(row: np.ndarray) -> float:
    """What ``core.cell`` subtracts before the exponentials: the row's largest, past ``EXP_LIMIT``."""
    top = float(np.max(row))
    return top if top > EXP_LIMIT else 0.0


def of(
    naive: tuple[Stage, ...],
    efficient: tuple[Stage, ...],
    zero: tuple[Stage, ...],
    i: int,
    j: int,
    *,
    stage: int,
    zero_fill: bool,
    difference: np.ndarray,
    cells: tuple[tuple[str, ...], ...],
    limit: float,
) -> CellPaths:
    """Cell ``(i, j)`` on the naive path, the efficient path the controls set (``efficient``) and
    the 0 fill's (``zero``); ``difference``/``cells`` are the grid's, ``limit`` its bound."""
    n = len(naive[0].matrix)
    scaled_row = naive[0].matrix[i]  # Ω/√d_k, the naive path's step 1
    zero_row = zero[2].matrix[i]  # the 0 fill's step 3: later keys at 0/√d_k = 0
    zs, fs = _shift(zero_row), _shift(scaled_row)
    zero_exps = np.exp(zero_row - zs)
    full_exps = np.exp(scaled_row - fs)
    return CellPaths(
        i=i,
        j=j,
        n=n,
        stage=stage,
        naive_name=naive[stage - 1].name,
        efficient_name=efficient[stage - 1].name,
        naive_shown=float(naive[stage - 1].matrix[i, j]),
        efficient_shown=float(efficient[stage - 1].matrix[i, j]),
        zero_fill=zero_fill,
        later=n - 1 - i,
        zero_shift=zs,
        zero_fill_exp=float(np.exp(0.0 - zs)),
        zero_exp=float(zero_exps[j]),
        zero_denominator=float(np.sum(zero_exps)),
        zero_weight=float(zero[-1].matrix[i, j]),
        scaled=float(scaled_row[j]),
        full_shift=fs,
        full_exp=float(full_exps[j]),
        full_denominator=float(np.sum(full_exps)),
        full_weight=float(naive[1].matrix[i, j]),
        visible_sum=float(np.sum(naive[2].matrix[i])),
        naive_weight=float(naive[3].matrix[i, j]),
        difference=float(difference[i, j]),
        grid_cell=cells[i][j],
        limit=limit,
    )
