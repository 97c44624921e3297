"""The numbers of Learning to attend, as the page shows them: its settings, each mode's run, the
evidence and the checks' live side, and everything :func:`topics.learning.view.build` computes
(:class:`Numbers`).

A module of its own so that the prose (:mod:`topics.learning.prose`) reads these numbers without
importing the view that writes it: the view builds the numbers, then hands them to the prose
(:attr:`topics.learning.view.View.prose`), and nothing imports back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core import tokens, weights
from core.attention import Mode
from core.weights import WeightSet
from topics.learning.one_cell import CellAtStep
from topics.learning.reach import Found, Reach
from topics.learning.training import Optimiser, Target, Trajectory
from ui.cell_text import Panel


@dataclass(frozen=True)
class Settings:
    """Every control of the page; the defaults are the page's. The sentence is its labels and
    embeddings (the book's six tokens, 3 wide, unless the reader typed another)."""

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, d_in]
    target: Target = "previous"
    token: int = 0  # the picked token's position; only the "token" target reads it
    mode: Mode = "three"  # the mode shown in the heatmaps
    optimiser: Optimiser = "adam"
    lr: float = 0.02
    steps: int = 5_000
    step: int = 5_000  # the step asked for, as the slider or the URL gives it (build snaps it)
    width: int = 2  # d_out of W_q and W_k
    weights: WeightSet = field(default_factory=weights.section_3_4)  # as the control gives it, d_in = 3
    focus: int | None = None  # the focused query's row
    cell: int | None = None  # the key of the cell panel's cell, or None: the focused query's largest weight


@dataclass(frozen=True)
class Run:
    """One mode's row of the runs' table."""

    mode: Mode
    first_loss: float  # at step 0
    last_loss: float  # at the last step
    right: tuple[bool, ...]  # per row, at the last step: its largest weight on the target's token
    diverged_at: int | None

    @property
    def rows(self) -> int:
        return sum(self.right)


@dataclass(frozen=True)
class Evidence:
    """One mode's row of "What each mode can reach": this run, the best known, the proven bound."""

    mode: Mode
    this_run: int  # rows right at the end of the run on screen
    best: int  # the most rows known: this run, the search, or the linear program's witness
    found_by: str  # where ``best`` comes from
    most: int | None  # the proven most rows, None when nothing is proven
    proof: str  # why ``most`` holds ("" when nothing is proven)


@dataclass(frozen=True)
class Checks:
    """The live side of "Checks against the sources", always on the book's six tokens: this run when
    they are on screen, else the same settings trained on them."""

    tied_score_error: float  # max |Ω − Ωᵀ| over the tied run's recorded steps: 0 exactly
    none_score_error: float  # of XXᵀ
    none_weight_error: float  # of softmax(XXᵀ/√2), section 3.4's weights giving d_k
    affinity_journey_starts: float  # XXᵀ's journey–starts entry at the last step
    attn_weights_2: np.ndarray  # [6] row 2 of section 3.4's attention weights, step 0


@dataclass(frozen=True)
class Numbers:
    """Every number Learning to attend shows, in the order the page shows them. The view
    (:class:`topics.learning.view.View`) adds the sentences written from them."""

    settings: Settings
    token: int  # the picked token's position, 0 unless the target is "token"
    ws: WeightSet  # the starting W_q and W_k: the chosen set at the sentence's d_in and width d_out
    target: np.ndarray  # [n, n] the pattern to learn
    runs: dict[Mode, Trajectory]  # every mode, from the same start
    floor: float  # the target's entropy: the lowest cross-entropy any attention reaches
    table: tuple[Run, ...]  # the runs' table, one row per mode
    every: int  # steps between recorded snapshots (the step slider's step)
    step: int  # the step shown: the last recorded step at or before the one asked for, within the run
    loss: float  # the shown mode's loss at the step shown
    rows_right: int  # its rows right there
    score_error: float  # max |Ω − Ωᵀ| there
    attention: np.ndarray  # [n, n] A at the step shown
    scores: np.ndarray  # [n, n] Ω at the step shown
    asymmetry: np.ndarray  # [n, n] Ω − Ωᵀ
    decimals: int  # the score heatmaps' decimals: trained scores grow into the thousands
    focus_weights: np.ndarray | None  # [n] the focused query's row of A
    focus_context: np.ndarray | None  # [d_v] its context vector, A times the untrained values
    focus_most: str | None  # where its row of A goes (:func:`ui.format.most_weight`)
    gradient: np.ndarray  # [n, n] ∂L/∂Ω at the step shown: the loss's pull on every score
    cell_key: int | None  # the column of the cell the panel works out (None without a focus)
    cell_at_step: CellAtStep | None  # that cell at the step shown, and its gradient
    cell: Panel | None  # its arithmetic, step by step (None without a focus)
    words: np.ndarray  # [n] each token's word: the first position with its embedding
    repeats: bool  # a word repeats: its rows tie in every mode
    split_words: tuple[tuple[int, int, tuple[int, ...], int], ...]  # repeated words whose rows ask
    # for several words: (word, its rows, the words asked for, the most rows of it that can be right)
    cycles: tuple[tuple[int, ...], ...]  # the cycles of the words' arrows (none when a word is split)
    single: bool  # every target row has one largest entry, so the tied-weights proof applies
    ties_bound: int | None  # the most rows any mode can get right: a repeated word's rows attend alike
    tied_bound: int | None  # the proof's most rows for tied weights, ties included
    found: dict[Mode, Found] | None  # the search's best per mode; None past MAX_SEARCH_TOKENS
    reach: Reach | None  # the linear program's most rows over every M
    evidence: tuple[Evidence, ...]  # one row per mode
    nearest: tuple[int, int, float] | None  # the two closest embeddings and their distance
    checks: Checks

    @property
    def n(self) -> int:
        return len(self.settings.labels)

    @property
    def d_in(self) -> int:
        return int(self.settings.embeddings.shape[1])

    def evidence_of(self, mode: Mode) -> Evidence:
        return next(e for e in self.evidence if e.mode == mode)
