"""Every number and sentence the Overview shows: the three-matrices weights at the reader's
sentence, the notation's values in the book's toy, and the six tokens.

The figure is section 3.4's: ``A = softmax(QKᵀ/√d_k)`` with ``SelfAttention_v1``'s weights
(``torch.manual_seed(123)``, then ``torch.rand(d_in, 2)`` for ``W_q``, ``W_k``, ``W_v``), computed
through ``core`` as the Three matrices page computes its default view, so the start page opens on
the tensor the book prints. Every value is read from the code the other pages run on, so the
notation cannot drift from them either.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core import attention, tokens, weights
from core.config import AttentionConfig
from core.sentence import weights_for
from core.weights import WeightSet
from ui import format as fmt

BOOK_ROW = "journey"  # the query whose weights section 3.4 prints (attn_weights_2)


@dataclass(frozen=True)
class Settings:
    """The reader's sentence (``ui.sentence``); the defaults are the book's."""

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, d_in]
    is_book: bool = True  # the book's six tokens, 3 wide, unedited


@dataclass(frozen=True)
class Symbol:
    symbol: str  # LaTeX, between $ signs on the page
    meaning: str
    toy: int  # its value in the book's toy


@dataclass(frozen=True)
class View:
    labels: tuple[str, ...]  # the reader's tokens
    is_book: bool
    weight_set: WeightSet  # section 3.4's, at the sentence's width
    weights: np.ndarray  # A = softmax(QKᵀ/√d_k)  [n, n]
    row: int | None  # the outlined query: journey on the book's sentence, else none
    title: str  # the figure's
    caption: str  # what the figure shows, under it
    notation: tuple[Symbol, ...]
    tokens: tuple[str, ...]  # "Your journey starts with one step"
    inputs: np.ndarray  # the book's inputs, [6, 3]


def notation() -> tuple[Symbol, ...]:
    """The symbols every page uses, each with its value in the book's toy."""
    toy = AttentionConfig()  # the book's section 3.6 examples
    return (
        Symbol("n", "number of tokens", len(tokens.TOKENS)),
        Symbol("d_{in}", "width of an input embedding", tokens.inputs().shape[1]),
        Symbol(
            "d_{out}",
            "width of a projection (per head in the wrapper class, total in the split class)",
            toy.d_out,
        ),
        Symbol(
            "d_k",
            "width of queries and keys: the number under the square root",
            weights.section_3_4().w_key.shape[-1],
        ),
        Symbol("H", "number of heads", toy.num_heads),
        Symbol("\\text{head\\_dim}", "$d_{out} / H$ in the split class", toy.head_dim),
    )


def caption(s: Settings, ws: WeightSet, a: np.ndarray, row: int | None) -> str:
    """What the figure shows, and where the book prints it."""
    d_in, d_out = ws.w_query.shape
    n = len(s.labels)
    whose = "the book's six tokens" if s.is_book else f"your sentence's {fmt.count(n, 'token')}"
    text = (
        f"Attention weights of {whose}, computed here with section 3.4's weights "
        f"(`torch.manual_seed(123)`, then `torch.rand({d_in}, {d_out})` for W_q, W_k and W_v). "
        "Row i is how much query i attends to each key; every row sums to 1. "
    )
    if row is not None:
        return text + (
            f"The outlined row, *{BOOK_ROW}*, is what section 3.4 prints as `attn_weights_2`: "
            f"{fmt.vec(a[row])}."
        )
    return text + f"On the book's sentence, the row of *{BOOK_ROW}* is what section 3.4 prints."


def build(s: Settings) -> View:
    """The Overview at the reader's sentence: one forward pass of at most 32 tokens, nothing cached."""
    labels = tuple(s.labels)
    x = np.asarray(s.embeddings, dtype=np.float64)
    ws = weights_for(weights.section_3_4(), x.shape[1])
    a = attention.self_attention(x, ws).weights
    row = labels.index(BOOK_ROW) if s.is_book else None
    return View(
        labels=labels,
        is_book=s.is_book,
        weight_set=ws,
        weights=a,
        row=row,
        title="Weights A = softmax(QKᵀ/√d_k)",
        caption=caption(s, ws, a, row),
        notation=notation(),
        tokens=tokens.TOKENS,
        inputs=tokens.inputs(),
    )
