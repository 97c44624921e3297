"""The numbers the Overview shows: the notation's values in the book's toy, and the six tokens.

The Overview has no controls, so :func:`build` takes no settings. Every value is read from the
code the other pages run on (``core``), so the table cannot drift from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core import tokens, weights
from core.config import AttentionConfig


@dataclass(frozen=True)
class Symbol:
    symbol: str  # LaTeX, between $ signs on the page
    meaning: str
    toy: int  # its value in the book's toy


@dataclass(frozen=True)
class View:
    notation: tuple[Symbol, ...]
    tokens: tuple[str, ...]  # "Your journey starts with one step"
    inputs: np.ndarray  # the book's inputs, [6, 3]


def build() -> View:
    x = tokens.inputs()
    toy = AttentionConfig()  # the book's section 3.6 examples
    d_k = weights.section_3_4().w_key.shape[-1]
    return View(
        notation=(
            Symbol("n", "number of tokens", len(tokens.TOKENS)),
            Symbol("d_{in}", "width of an input embedding", x.shape[1]),
            Symbol(
                "d_{out}",
                "width of a projection (per head in the wrapper class, total in the split class)",
                toy.d_out,
            ),
            Symbol("d_k", "width of queries and keys: the number under the square root", d_k),
            Symbol("H", "number of heads", toy.num_heads),
            Symbol("\\text{head\\_dim}", "$d_{out} / H$ in the split class", toy.head_dim),
        ),
        tokens=tokens.TOKENS,
        inputs=x,
    )
