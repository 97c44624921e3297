"""The book's code beside a step: the few lines of chapter 3 that compute what the step draws,
each with its result at the reader's sentence as a comment (its shape, and its value where small).

A :class:`Code` is pure data built by a step from the same view its figure draws; the page prints
:meth:`Code.text` in one code block. A line that gives a prediction's answer away is ``secret``:
what it gives away reads ``?`` until the reveal, and a line whose code itself is the answer
(``torch.triu`` names the masked triangle) waits for the reveal. ``setup`` is what the step's
Reproduce script runs first (the book's class, the reader's inputs, the weights after
``torch.manual_seed``): never shown, it lets ``tests/read_along/test_code.py`` run the lines in
PyTorch and compare every result with its comment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.reproduce import weights as rw
from core.reproduce.book_code import CAUSAL_ATTENTION, MULTI_HEAD_ATTENTION, MULTI_HEAD_ATTENTION_WRAPPER
from core.reproduce.source import inputs_block
from core.weights import WeightSet
from ui import format as fmt


@dataclass(frozen=True)
class Line:
    """One line of the book's code and what it gives at the reader's settings.

    ``result`` names what the comment describes (a Python expression, by default the name the
    line assigns); ``shape`` is its shape, ``value`` one number of it at index ``at``, called
    ``label`` in the comment. A line with neither (``torch.manual_seed(123)``) has no comment.
    """

    code: str
    shape: tuple[int, ...] | None = None
    value: float | None = None
    at: tuple[int, ...] = ()
    label: str = ""
    secret: bool = False  # the value is the answer: "?" until the reveal
    secret_shape: bool = False  # the shape is the answer too
    after: bool = False  # the line itself gives the answer away: shown only after the reveal
    result: str = ""

    @property
    def target(self) -> str:
        """The expression the comment is about."""
        if self.result:
            return self.result
        head = self.code.split("  #", 1)[0]
        return head.split(" = ", 1)[0].strip() if " = " in head else head.strip()

    def comment(self, hide: bool = False) -> str:
        """``# [9, 9]; ω("journey", "starts") = 1.8111``, with ``?`` for what ``hide`` covers."""
        parts = []
        if self.shape is not None:
            parts.append("?" if hide and self.secret_shape else shape(self.shape))
        if self.value is not None:
            said = "?" if hide and self.secret else number(self.value)
            parts.append(f"{self.label} = {said}" if self.label else said)
        return f"# {'; '.join(parts)}" if parts else ""


@dataclass(frozen=True)
class Code:
    """A step's lines of the book's code, and the setup its Reproduce script runs before them."""

    lines: tuple[Line, ...]
    setup: tuple[str, ...] = ()
    section: str = ""  # "section 3.4.1": where the book writes these lines

    def text(self, hide: bool = False) -> str:
        """The code block: each line with its comment (``?`` on a secret line when ``hide``)."""
        shown = [x for x in self.lines if not (hide and x.after)]
        width = max(len(x.code) for x in shown)
        out = []
        for x in shown:
            said = x.comment(hide)
            out.append(f"{x.code.ljust(width)}  {said}".rstrip() if said else x.code)
        return "\n".join(out)

    def caption(self, hide: bool = False) -> str:
        """What the block is, said above it; before the reveal, what "?" stands for."""
        marked = hide and any(x.secret or x.secret_shape for x in self.lines)
        later = hide and any(x.after for x in self.lines)
        wait = " A result that would give your answer away reads ? until you answer." if marked else ""
        wait += " The lines that name the answer appear once you answer." if later else ""
        return f"The book's code ({self.section}), each line's result at your sentence as a comment.{wait}"

    @property
    def shapes(self) -> tuple[tuple[int, ...], ...]:
        return tuple(x.shape for x in self.lines if x.shape is not None)


def shape(dims: Sequence[int]) -> str:
    """A shape as PyTorch lists it: ``[9, 2]``."""
    return "[" + ", ".join(str(int(d)) for d in dims) + "]"


def number(x: float) -> str:
    """A value as the pages print it, 4 decimals; −∞ as PyTorch prints it."""
    x = float(x)
    if np.isinf(x):
        return "-inf" if x < 0 else "inf"
    return fmt.num(x)


def pair(a: str, b: str, symbol: str = "ω") -> str:
    """``ω("journey", "starts")``: a cell named by its query and key tokens."""
    return f'{symbol}("{a}", "{b}")'


def inputs_setup(labels: Sequence[str], x: np.ndarray) -> tuple[str, ...]:
    """What the Recap script runs first: the reader's inputs, float64."""
    return ("import torch", "torch.set_grad_enabled(False)", *inputs_block(labels, x))


def weights_setup(labels: Sequence[str], x: np.ndarray, ws: WeightSet) -> tuple[str, ...]:
    """What the Three matrices, Masking and Dropout scripts run first: the book's self-attention
    class built after ``torch.manual_seed``, the reader's inputs, and W_query, W_key, W_value."""
    source, build, read = rw.build_lines(ws, np.shape(x)[1])
    head = ("import torch", "from torch import nn", "torch.set_grad_enabled(False)", source)
    return (*head, *inputs_block(labels, x), *build, *read)


def heads_setup(labels: Sequence[str], batch: np.ndarray) -> tuple[str, ...]:
    """What the Multi-head script runs first: the book's classes and the batch of two sentences."""
    n = np.shape(batch)[1]
    names = tuple(labels) if len(labels) == n else tuple(f"token {i + 1}" for i in range(n))
    head = ("import torch", "from torch import nn", "torch.set_grad_enabled(False)")
    return (
        *head,
        CAUSAL_ATTENTION,
        MULTI_HEAD_ATTENTION_WRAPPER,
        MULTI_HEAD_ATTENTION,
        *inputs_block(names, np.asarray(batch)[0], double=False),
        "batch = torch.stack((inputs, inputs), dim=0)",
    )
