"""Every number "Three matrices" shows, from the page's settings: the post's three modes, section 3.4.

The post runs self-attention in three modes (no matrices, ``W_q`` tied to ``W_k``,
three matrices) to show what two different matrices buy: the score error ``max|Ω − Ωᵀ|`` is
exactly 0 until the query and key matrices differ. :func:`build` computes everything the page
draws or writes for one setting: the figures' matrices, the readouts, the table of all three
modes, the numbers in its prose, the focused query's row, and the live side of the checks
(always at the book's settings, whatever the controls say). The page only lays it out; the
tests and the Reproduce oracle read the same :class:`View`.

Where the post is loose (issue #13, item 3) the page says what is true beside it, so the view
holds both: the weight error comes from softmax's row denominators ``Σ_j exp(ω_ij/√d_k)``, not
from the row sums of ``XXᵀ`` the post cites, and the same pair reads differently here and on
the Recap because this page divides by ``√d_k`` (section 3.4) and the Recap does not (3.3).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import numpy as np

from core import attention, tokens
from core import cell as core_cell
from core.attention import MODES, AttentionTrace, Mode, Op
from core.sentence import weights_for
from core.weights import WeightSet, section_3_4, section_3_5
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel, chosen_key

# The post's pair for the modes table and the prose; a sentence without them uses these positions.
PAIR = (("journey", 1), ("starts", 2))


@dataclass(frozen=True)
class Settings:
    """The page's controls; the defaults are the page's (the book's sentence, section 3.4, three
    matrices, no focus)."""

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, d_in]
    is_book: bool = True  # the book's sentence and embeddings, unedited (``core.sentence``)
    weights: WeightSet = field(default_factory=section_3_4)  # as the weight-set control gives it
    mode: Mode = "three"
    focus: int | None = None  # the focused query's row, or no focus
    cell: int | None = None  # the key of the cell panel's cell, or None: the query's largest weight


@dataclass(frozen=True)
class ModeRow:
    """One row of "All three modes at once"."""

    mode: Mode
    score_error: float  # max|Ω − Ωᵀ|
    weight_error: float  # max|A − Aᵀ|
    forward: float  # A[j, s]: the pair's first token's weight on its second
    backward: float  # A[s, j]
    log_denominators: np.ndarray  # [n] log Σ_j exp(ω_ij/√d_k), finite where the sum overflows
    matmuls: int  # this mode's forward, counted as it runs
    transposes: int


@dataclass(frozen=True)
class BookNumbers:
    """The checks' live values, at the book's settings: its inputs, section 3.4's weights
    (``SelfAttention_v1``, seed 123) and section 3.5's ``sa_v2`` (seed 789)."""

    score_error_none: float
    score_error_tied: float
    row_sums: np.ndarray  # [6] of XXᵀ, the post's explanation of the weight error
    denominators_none: np.ndarray  # [6] Σ_j exp(ω_ij/√2) with no matrices, computed here
    weight_error_none: float
    journey_to_starts: float  # with no matrices, divided by √2
    starts_to_journey: float
    three_matmuls: int  # the three-matrix forward's recorded operations
    three_transposes: int
    query_2: np.ndarray  # [2] x_2 @ W_query
    omega_22: float
    attn_weights_2: np.ndarray  # [6]
    context_vec_2: np.ndarray  # [2]
    sa_v1_output: np.ndarray  # [6, 2]
    sa_v2_output: np.ndarray  # [6, 2]


@dataclass(frozen=True)
class Focus:
    """The focused query: its row, picked out in every heatmap and marked ▸ in Z."""

    row: int
    weights: np.ndarray  # [n] its row of A
    context: np.ndarray  # [d_v] its context vector, its row of Z = AV
    most: str  # where its row of A goes (:func:`ui.format.most_weight`)


@dataclass(frozen=True)
class View:
    """Every number the page shows for one :class:`Settings`."""

    labels: tuple[str, ...]
    is_book: bool
    same_inputs: bool  # every token has the same embedding (one token, or one word repeated)
    mode: Mode
    weight_set: WeightSet  # the control's weights at the sentence's width (``weights_for``)
    trace: AttentionTrace  # this mode's Q, K, V, Ω, A, Z, the divisor √d_k and the operations run
    asymmetry: np.ndarray  # [n, n] Ω − Ωᵀ, the middle heatmap
    score_error: float
    weight_error: float
    d_k: int  # the projection width under the divisor
    log_denominators: np.ndarray  # [n] this mode's, for the weight error's help
    focus: Focus | None
    cell_key: int | None  # the column of the cell the panel works out (None without a focus)
    cell: Panel | None  # that cell's arithmetic, step by step (None without a focus)
    pair: tuple[int, int]  # (j, s): journey and starts, or the sentence's tokens 2 and 3
    modes: tuple[ModeRow, ...]  # none, tied, three
    row_sums: np.ndarray  # [n] of XXᵀ: what the post explains the weight error with
    recap_forward: float  # A[j, s] on the Recap: softmax(XXᵀ), no divisor (section 3.3)
    matmuls: int  # this mode's forward, counted as it runs
    transposes: int
    book: BookNumbers

    @property
    def n(self) -> int:
        """The number of tokens."""
        return len(self.labels)

    @property
    def ops(self) -> tuple[Op, ...]:
        return self.trace.ops

    @property
    def focus_row(self) -> int | None:
        return None if self.focus is None else self.focus.row

    def row(self, mode: Mode) -> ModeRow:
        """The modes table's row for ``mode``."""
        return next(r for r in self.modes if r.mode == mode)


def position(labels: tuple[str, ...], preferred: str, at: int) -> int:
    """The row of ``preferred`` if the sentence has it, else of the token at ``at`` (clipped to the
    sentence): the post's journey and starts on the book's sentence, two tokens on any other."""
    return labels.index(preferred) if preferred in labels else min(at, len(labels) - 1)


def _mode_row(t: AttentionTrace, mode: Mode, pair: tuple[int, int]) -> ModeRow:
    j, s = pair
    return ModeRow(
        mode,
        attention.asymmetry_error(t.scores),
        attention.asymmetry_error(t.weights),
        float(t.weights[j, s]),
        float(t.weights[s, j]),
        attention.log_softmax_denominators(t.scores, t.divisor),
        t.count("matmul"),
        t.count("transpose"),
    )


@functools.cache  # the book's settings never change: computed once per process
def book_numbers() -> BookNumbers:
    """What the checks compare with the post's and the book's quotes, at the book's settings."""
    x, v1 = tokens.inputs(), section_3_4()
    none, tied, three = (attention.attention_in_mode(x, v1, m) for m in ("none", "tied", "three"))
    sa_v1, sa_v2 = attention.self_attention(x, v1), attention.self_attention(x, section_3_5())
    j, s = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")
    return BookNumbers(
        score_error_none=attention.asymmetry_error(none.scores),
        score_error_tied=attention.asymmetry_error(tied.scores),
        row_sums=none.scores.sum(axis=1),
        denominators_none=attention.softmax_denominators(none.scores, none.divisor),
        weight_error_none=attention.asymmetry_error(none.weights),
        journey_to_starts=float(none.weights[j, s]),
        starts_to_journey=float(none.weights[s, j]),
        three_matmuls=three.count("matmul"),
        three_transposes=three.count("transpose"),
        query_2=sa_v1.queries[1],
        omega_22=float(sa_v1.scores[1, 1]),
        attn_weights_2=sa_v1.weights[1],
        context_vec_2=sa_v1.context[1],
        sa_v1_output=sa_v1.context,
        sa_v2_output=sa_v2.context,
    )


# Where the query and key of a cell come from, in each mode ({i} and {j} are the two tokens).
PROJECTED: dict[Mode, str] = {
    "three": "x_{i} W_q and k_{j} = x_{j} W_k",
    "tied": "x_{i} W_q and k_{j} = x_{j} W_q (tied: the keys are made with W_q too)",
    "none": "x_{i} and k_{j} = x_{j}: with no matrices the embeddings score each other directly",
}


def cell_panel(c: core_cell.Cell, labels: tuple[str, ...], mode: Mode, d_k: int) -> Panel:
    """The arithmetic of one cell of A, as section 3.4 works ω_22 out before all the others."""
    note = (
        f"This page divides every mode's scores by √d_k = √{d_k}, the width of W_k, as the book's "
        "SelfAttention classes do."
    )
    return cell_text.panel(
        c, labels, labels, projected=PROJECTED[mode], divisor_name=f"√d_k = √{d_k}", notes=(note,)
    )


def focused(v: View, focus: int | None, cell: int | None) -> View:
    """``v`` with the focused query's row and the cell panel (the ``cell`` key, or the query's
    largest weight): cheap, so the page's focus fragment reruns this alone when a reader picks
    another query or cell. Nothing else in ``v`` depends on them."""
    if focus is None:
        return dataclasses.replace(v, focus=None, cell_key=None, cell=None)
    tr = v.trace
    if not 0 <= focus < v.n:
        raise ValueError(f"focus must be a query of the sentence, 0 to {v.n - 1}, got {focus}")
    j = chosen_key(cell, tr.weights[focus])
    c = core_cell.cell(tr.queries, tr.keys, tr.values, focus, j, tr.divisor)
    return dataclasses.replace(
        v,
        focus=Focus(
            focus, tr.weights[focus], tr.context[focus], fmt.most_weight(tr.weights[focus], v.labels)
        ),
        cell_key=j,
        cell=cell_panel(c, v.labels, v.mode, v.d_k),
    )


def build(s: Settings) -> View:
    """The page for ``s``: a few products of matrices at most 32 × 16, so nothing is cached. The
    focus and the cell (:func:`focused`) change nothing else."""
    return focused(_unfocused(s), s.focus, s.cell)


def _unfocused(s: Settings) -> View:
    """Everything but the focus: ``s.focus`` and ``s.cell`` are not read."""
    if s.mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {s.mode!r}")
    labels = tuple(s.labels)
    x = np.asarray(s.embeddings, dtype=np.float64)
    ws = weights_for(s.weights, x.shape[1])
    traces = {m: attention.attention_in_mode(x, ws, m) for m in MODES}
    tr, none = traces[s.mode], traces["none"]
    (a, at_a), (b, at_b) = PAIR
    pair = position(labels, a, at_a), position(labels, b, at_b)
    return View(
        labels=labels,
        is_book=s.is_book,
        same_inputs=bool(np.all(x == x[0])),
        mode=s.mode,
        weight_set=ws,
        trace=tr,
        asymmetry=attention.asymmetry(tr.scores),
        score_error=attention.asymmetry_error(tr.scores),
        weight_error=attention.asymmetry_error(tr.weights),
        d_k=int(ws.w_key.shape[-1]),
        log_denominators=attention.log_softmax_denominators(tr.scores, tr.divisor),
        focus=None,
        cell_key=None,
        cell=None,
        pair=pair,
        modes=tuple(_mode_row(traces[m], m, pair) for m in MODES),
        row_sums=none.scores.sum(axis=1),
        recap_forward=float(attention.attention_without_weights(x).weights[pair]),
        matmuls=tr.count("matmul"),
        transposes=tr.count("transpose"),
        book=book_numbers(),
    )
