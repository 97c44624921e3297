"""What the Multi-head page's striped figures draw of a matrix too large to draw whole.

GPT-2's W_q is 768 × 768 and the widest drawable wrapper's output 16,384 columns: drawn cell by
cell they would cost the page seconds a rerun and megabytes a cache entry. A matrix larger than
``MAX_CELLS`` a side is thinned to every k-th row and column, columns thinned within each head,
so the head bands stay exact however large the matrix. Pure NumPy: the page's cached forward
(``topics.multihead.view.forward``) keeps this instead of the matrix, and the figures draw it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

MAX_CELLS = 96  # per axis; beyond it a matrix is thinned


def _starts(size: int, parts: int) -> np.ndarray:
    """The first index of each of at most ``parts`` nearly equal consecutive blocks of ``size``."""
    parts = max(1, min(size, parts))
    edges = np.linspace(0, size, parts + 1).round().astype(int)
    return np.array([a for a, b in itertools.pairwise(edges) if b > a])


def _kept(shape: tuple[int, ...], head_width: int, max_cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns :func:`thin` keeps of a matrix of ``shape``."""
    rows, cols = shape
    heads = max(1, cols // head_width)
    r = _starts(rows, max_cells)
    c = np.concatenate(
        [h * head_width + _starts(head_width, max(1, max_cells // heads)) for h in range(heads)]
    )
    return r, c


def thin(
    m: np.ndarray, head_width: int, max_cells: int = MAX_CELLS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows and columns kept to draw ``m``: (kept rows, kept columns, sub-matrix).

    Thinning, not pooling: the mean of a block of random weights is near zero everywhere and
    its maximum near the bound everywhere, and either would draw flat bands with no texture.
    Columns are thinned inside each head, so no drawn column belongs to two heads.
    """
    m = np.asarray(m)
    r, c = _kept(m.shape, head_width, max_cells)
    return r, c, m[np.ix_(r, c)].astype(np.float64)


@dataclass(frozen=True)
class Thinned:
    """What :func:`striped_matrix` draws of a matrix: the kept rows, columns and cells, with the
    matrix's shape and largest |value|. A cache holds this instead of the matrix: a 1.3M-cell W_q
    is 5.3 MB, this at most ``MAX_CELLS`` squared."""

    rows: np.ndarray  # kept row indices  [r]
    cols: np.ndarray  # kept column indices, thinned inside each head  [c]
    cells: np.ndarray  # m[rows][:, cols]  [r, c]
    shape: tuple[int, int]  # the whole matrix's
    vmax: float  # the whole matrix's largest |value| (1 for a zero matrix): the colour scale
    head_width: int


def thinned(m: np.ndarray, head_width: int, max_cells: int = MAX_CELLS) -> Thinned:
    """``m`` reduced to what its striped figure draws (see :func:`thin`), read in place: only the
    kept cells are converted to float64, so a 5.3 MB float32 W_q costs no 10.6 MB copy."""
    m = np.asarray(m)
    head_width = max(1, min(int(head_width), m.shape[1]))
    r, c, cells = thin(m, head_width, max_cells)
    vmax = float(max(np.max(m), -np.min(m)))  # the largest |value|, without an abs() copy
    return Thinned(r, c, cells, (m.shape[0], m.shape[1]), vmax or 1.0, head_width)
