"""Every number the Recap page shows, from its settings: attention without weights (book section 3.3).

``softmax(XXᵀ) X``: no parameters and no divisor. The page, its tests and its Reproduce oracle
read the same :class:`View`, so a change here is a change on the page and in what the oracle
holds the script to.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from core import attention, cell, tokens, weights
from core.sentence import weights_for
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel

BOOK_QUERY, BOOK_KEY = "journey", "starts"  # the post's pair

# The conditions under which the page's qualitative sentences hold (issue #24, item 5). The post
# describes the book's sentence; a reader's sentence, or an edited embedding, can break each one,
# and the page then says what holds instead (``topics.recap.text``).

NEAR_UNIFORM = 2.0
"""The weights are "never far from uniform" when every one lies within this factor of ``1/n``
either way: no token gets more than twice its even share, or less than half of it. Section 3.3's
weights on the book's sentence run from 0.0988 to 0.2379, 0.59 to 1.43 times 1/6; a sentence
with one long edited embedding puts a weight of 1.0000 on it, and that is far from uniform."""

HUDDLE_SHARE = 0.25
"""The outputs "huddle" when their mean pairwise distance is at most this share of the inputs':
averaging has pulled them at least four times closer together than the inputs they came from.
The post's recap reads 7.3% on the book's sentence; peaked weights, each row on its own token,
leave the outputs where the inputs were (about 100%), and then they do not huddle."""

NEAR_CENTRE = 0.5
"""Huddled outputs sit "near the centre of the inputs" when each lies at most this fraction of the
inputs' mean distance from their centroid away from it. Uniform weights put every output at the
centroid exactly; weights that all pick one far-out token put the outputs together beside that
token, far from the centre."""


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
    outputs: ``None`` for one token (no pairs). ``spread_share`` is their ratio, and
    ``off_centre`` the farthest output's distance from the inputs' centroid over the inputs' mean
    distance from it: both ``None`` when the inputs do not spread (one token, or every token's
    embedding the same).
    """

    scores: np.ndarray  # Ω = XXᵀ, [n, n], symmetric
    weights: np.ndarray  # A = softmax(Ω) row by row, [n, n]
    context: np.ndarray  # Z = AX, [n, width]
    spread_in: float | None
    spread_out: float | None
    spread_share: float | None
    off_centre: float | None
    nearest: tuple[str, ...]  # the label of the input nearest each output


@dataclass(frozen=True)
class BookChecks:
    """The checks' live side: the book's sentence and the post's pair, whatever the sentence box says."""

    context_journey: np.ndarray
    collapse: Collapse
    affinity_journey_starts: float
    weights_journey: np.ndarray  # journey's row of softmax(XXᵀ), no divisor: the book's section 3.3.1
    weight_journey_starts: float  # 0.2333
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
    fig01_weights: np.ndarray  # Three matrices' weights with no matrices: softmax(XXᵀ/√d_k), [n, n]
    fig01_d_k: int  # section 3.4's d_k, whose square root figure 01 divides by
    fig01_divisor: float  # √d_k
    cell: Panel  # the followed pair's arithmetic, step by step: x_query · x_key, its softmax, z_query
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

    @property
    def fig01_weight(self) -> float:
        """The same pair on Three matrices with no matrices: the scores divided by √d_k first."""
        return float(self.fig01_weights[self.query, self.key])

    @property
    def lightest(self) -> float:
        return float(self.collapse.weights.min())

    @property
    def heaviest(self) -> float:
        return float(self.collapse.weights.max())

    @property
    def near_uniform(self) -> bool:
        """Every weight within :data:`NEAR_UNIFORM` of ``1/n`` either way."""
        return self.heaviest <= NEAR_UNIFORM * self.uniform and self.lightest >= self.uniform / NEAR_UNIFORM

    @property
    def huddled(self) -> bool:
        """The outputs' spread at most :data:`HUDDLE_SHARE` of the inputs'."""
        share = self.collapse.spread_share
        return share is not None and share <= HUDDLE_SHARE

    @property
    def centred(self) -> bool:
        """Every output within :data:`NEAR_CENTRE` of the inputs' spread from their centroid."""
        off = self.collapse.off_centre
        return off is not None and off <= NEAR_CENTRE

    @property
    def toward_uniform(self) -> bool:
        """Dividing by √d_k moves the followed pair's weight closer to ``1/n``. It flattens every
        row as a whole (the row's entropy grows with the divisor), but one weight can move away."""
        return abs(self.fig01_weight - self.uniform) < abs(self.weight - self.uniform)


def collapse(labels: tuple[str, ...], x: np.ndarray) -> Collapse:
    """``softmax(XXᵀ) X`` and the spread of its inputs and outputs."""
    trace = attention.attention_without_weights(x)
    many = len(labels) > 1
    spread_in = attention.mean_pairwise_distance(x) if many else None
    spread_out = attention.mean_pairwise_distance(trace.context) if many else None
    share = spread_out / spread_in if spread_in and spread_out is not None else None
    centre = x.mean(axis=0)
    reach = float(np.linalg.norm(x - centre, axis=1).mean())  # the inputs' mean distance from it
    off = float(np.linalg.norm(trace.context - centre, axis=1).max()) / reach if share is not None else None
    nearest = tuple(labels[i] for i in attention.nearest_embedding(trace.context, x))
    return Collapse(trace.scores, trace.weights, trace.context, spread_in, spread_out, share, off, nearest)


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
        weights_journey=c.weights[j],
        weight_journey_starts=float(c.weights[j, k]),
        fig01_weight_journey_starts=float(
            attention.attention_in_mode(x, weights.section_3_4(), "none").weights[j, k]
        ),
    )


# Recap has no projections: the query and the key of a cell are the two embeddings themselves.
PROJECTED = (
    "the row of X for {i}, and x_{j} = the row for {j}: with no W_q or W_k the embeddings score "
    "each other directly"
)


def symmetry_note(c: Collapse, labels: tuple[str, ...], q: int, k: int) -> str:
    """What the cell shares with its mirror image: XXᵀ is symmetric, the weights are not."""
    qi, kj = fmt.md(labels[q]), fmt.md(labels[k])
    score = fmt.num(c.scores[q, k])
    if q == k:
        return (
            f"A cell on the diagonal: the score is x_{qi} · x_{qi}, the squared length of the embedding "
            f"of {qi}, {score}."
        )
    return (
        f"XXᵀ is symmetric, so {kj} → {qi} has the same score, {score}; its weight, "
        f"{fmt.num(c.weights[k, q])}, comes out of the row for {kj}, whose softmax divides by that row's "
        "own denominator. Nothing here can learn to make the two scores differ."
    )


def cell_panel(c: Collapse, labels: tuple[str, ...], x: np.ndarray, q: int, k: int) -> Panel:
    """Section 3.3's ω_2j = x_2 · x_j worked out for the followed pair, with the weights the page
    draws: no projections, no divisor, and the inputs themselves averaged into the context."""
    one = cell.cell(x, x, x, q, k, weights=c.weights)
    return cell_text.panel(
        one,
        labels,
        labels,
        q_name="x",
        k_name="x",
        v_name="x",
        projected=PROJECTED,
        divisor_name="",
        notes=(symmetry_note(c, labels, q, k),),
    )


def build(s: Settings) -> View:
    x = np.asarray(s.embeddings, dtype=np.float64)
    qi, ki = s.labels.index(s.query), s.labels.index(s.key)
    # Figure 01's "no matrices" mode is the same XXᵀ divided by √d_k of section 3.4's projections,
    # in all three modes so that they differ only in the matrices (Three matrices).
    ws34 = weights_for(weights.section_3_4(), x.shape[1])
    scaled = attention.attention_in_mode(x, ws34, "none")
    c = collapse(s.labels, x)
    return View(
        labels=s.labels,
        inputs=x,
        query=qi,
        key=ki,
        collapse=c,
        fig01_weights=scaled.weights,
        fig01_d_k=int(ws34.w_key.shape[-1]),
        fig01_divisor=float(scaled.divisor),
        cell=cell_panel(c, s.labels, x, qi, ki),
        checks=book_checks(),
    )
