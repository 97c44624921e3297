"""Every number the Recap page shows, from its settings: attention without weights (book section 3.3).

``softmax(XXᵀ) X``: no parameters and no divisor. The page, its tests and its Reproduce oracle
read the same :class:`View`, so a change here is a change on the page and in what the oracle
holds the script to.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from core import attention, tokens, weights
from core.sentence import weights_for

BOOK_QUERY, BOOK_KEY = "journey", "starts"  # the post's pair


@dataclass(frozen=True)
class Settings:
    """The sentence (labels and embeddings, from the sentence box) and the two token controls."""

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, width]
    query: str = BOOK_QUERY
    key: str = BOOK_KEY


@dataclass(frozen=True)
class Collapse:
    """Weightless attention over one sentence, and how its outputs huddle (the post's recap).

    ``spread_in`` and ``spread_out`` are the mean pairwise distances of the inputs and the
    outputs: ``None`` for one token (no pairs). ``spread_share`` is their ratio: ``None`` when the
    inputs do not spread (one token, or one word repeated).
    """

    scores: np.ndarray  # Ω = XXᵀ, [n, n], symmetric
    weights: np.ndarray  # A = softmax(Ω) row by row, [n, n]
    context: np.ndarray  # Z = AX, [n, width]
    spread_in: float | None
    spread_out: float | None
    spread_share: float | None
    nearest: tuple[str, ...]  # the label of the input nearest each output


@dataclass(frozen=True)
class BookChecks:
    """The checks' live side: the book's sentence and the post's pair, whatever the sentence box says."""

    context_journey: np.ndarray
    collapse: Collapse
    affinity_journey_starts: float
    weight_journey_starts: float  # no divisor: the audit's 0.2333
    fig01_weight_journey_starts: float  # figure 01's divisor √2: 0.2134


@dataclass(frozen=True)
class View:
    """The page: the sentence's weightless attention, the followed pair, figure 01's divided weight
    for the same pair (the prose compares the two), and the checks on the book's sentence."""

    labels: tuple[str, ...]
    inputs: np.ndarray  # X, [n, width]
    query: int  # the followed row
    key: int
    collapse: Collapse
    fig01_weight: float  # the same pair's weight on Three matrices with no matrices: divided by √d_k
    fig01_d_k: int  # section 3.4's d_k, whose square root figure 01 divides by
    fig01_divisor: float  # √d_k
    checks: BookChecks

    @property
    def n(self) -> int:
        return len(self.labels)

    @property
    def width(self) -> int:
        return int(self.inputs.shape[1])

    @property
    def dot_products(self) -> int:
        return self.n * self.n

    @property
    def uniform(self) -> float:
        """A row's weight when softmax is flat: ``1/n``."""
        return 1 / self.n

    @property
    def context_query(self) -> np.ndarray:
        return self.collapse.context[self.query]

    @property
    def affinity(self) -> float:
        """The raw score query–key; :attr:`affinity_back` reads the same number from the other end."""
        return float(self.collapse.scores[self.query, self.key])

    @property
    def affinity_back(self) -> float:
        return float(self.collapse.scores[self.key, self.query])

    @property
    def weight(self) -> float:
        """query → key: ``softmax(XXᵀ)``, no divisor."""
        return float(self.collapse.weights[self.query, self.key])


def collapse(labels: tuple[str, ...], x: np.ndarray) -> Collapse:
    """``softmax(XXᵀ) X`` and the spread of its inputs and outputs."""
    trace = attention.attention_without_weights(x)
    many = len(labels) > 1
    spread_in = attention.mean_pairwise_distance(x) if many else None
    spread_out = attention.mean_pairwise_distance(trace.context) if many else None
    share = spread_out / spread_in if spread_in and spread_out is not None else None
    nearest = tuple(labels[i] for i in attention.nearest_embedding(trace.context, x))
    return Collapse(trace.scores, trace.weights, trace.context, spread_in, spread_out, share, nearest)


@functools.cache
def book_checks() -> BookChecks:
    """The checks' live values: the book's sentence never changes, so they are computed once per
    process (every array read-only, since every view shares them)."""
    x = tokens.inputs()
    j, k = tokens.TOKENS.index(BOOK_QUERY), tokens.TOKENS.index(BOOK_KEY)
    c = collapse(tokens.TOKENS, x)
    for a in (c.scores, c.weights, c.context):
        a.setflags(write=False)
    return BookChecks(
        context_journey=c.context[j],
        collapse=c,
        affinity_journey_starts=float(c.scores[j, k]),
        weight_journey_starts=float(c.weights[j, k]),
        fig01_weight_journey_starts=float(
            attention.attention_in_mode(x, weights.section_3_4(), "none").weights[j, k]
        ),
    )


def build(s: Settings) -> View:
    x = np.asarray(s.embeddings, dtype=np.float64)
    qi, ki = s.labels.index(s.query), s.labels.index(s.key)
    # Figure 01's "no matrices" mode is the same XXᵀ divided by √d_k of section 3.4's projections,
    # in all three modes so that they differ only in the matrices (Three matrices).
    ws34 = weights_for(weights.section_3_4(), x.shape[1])
    scaled = attention.attention_in_mode(x, ws34, "none")
    return View(
        labels=s.labels,
        inputs=x,
        query=qi,
        key=ki,
        collapse=collapse(s.labels, x),
        fig01_weight=float(scaled.weights[qi, ki]),
        fig01_d_k=int(ws34.w_key.shape[-1]),
        fig01_divisor=float(scaled.divisor),
        checks=book_checks(),
    )
