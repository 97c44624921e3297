"""Masking the future (section 3.5.1, the post's figure 03): every number the page shows.

:func:`build` takes the page's settings as plain values (the sentence as labels and embeddings,
the weight set the control picked, the stage, the fill, the focused query, the counterexample
box's text) and returns a :class:`View`: the stage each path shows, the readouts, the difference
grid, the prose under the stages, the future's share for both fills, the focused query's row,
the box's logits and softmax, and the live values of the checks at the book's settings. The page
draws it, and the tests and the Reproduce oracle read the same fields. The focused query and the
cell panel are all that the focus and cell controls change, so :func:`focused` adds them to a view
built without a focus, and the page's focus fragment reruns that alone (issue 25).

With the book's −∞ fill the two paths differ by float64 rounding alone, whose digits depend on the
order of the sums (NumPy's 1.1e-16 on the book's sentence, PyTorch's 5.55e-17, the post's 5.6e-17).
So the view states a bound on it (:func:`rounding_limit`, issue #24 item 3) and never the digits;
the 0 fill's leak (tenths) is a value, with 4 decimals like every other weight. Every sentence
comes from :mod:`topics.masking.text`, which says a claim only where the view's numbers make it true.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from core import attention, masking, rounding, tokens
from core import cell as core_cell
from core import weights as core_weights
from core.masking import STAGES, Stage
from core.sentence import weights_for
from core.weights import WeightSet
from topics.masking import paths, text
from topics.masking.box import ExtendedSoftmax, parse_numbers, softmax_extended
from topics.masking.paths import CellPaths
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel, chosen_key

Fill = Literal["-inf", "zero"]
FILLS: dict[Fill, float] = {"-inf": -np.inf, "zero": 0.0}
FILL_LABELS: dict[Fill, str] = {"-inf": "−∞ (the book)", "zero": "0 (the shortcut)"}
LOGITS = "1.0, 2.0, 3.0, 0.0, 0.0"  # Giles Thomas's counterexample, as the post ships it
COUNTEREXAMPLE = (1.0, 2.0, 3.0, 0.0, 0.0)


@dataclass(frozen=True)
class Settings:
    """The page's controls; the defaults are the page's."""

    labels: tuple[str, ...] = tokens.TOKENS
    x: np.ndarray = field(default_factory=tokens.inputs)  # [n, d_in] embeddings
    weights: WeightSet = field(default_factory=core_weights.section_3_5)  # as the control picks it
    stage: int = STAGES  # 1 to 4, both paths together
    fill: Fill = "-inf"  # the efficient path's mask fill
    focus: int | None = None  # the focused query's row
    cell: int | None = None  # the key of the cell panel's cell, or None: the query's largest weight
    logits: str = LOGITS  # the box's text
    last_good: str = LOGITS  # the last text the box parsed, shown instead when this one does not


@dataclass(frozen=True)
class Focus:
    """The focused query: its row of the causal (−∞) weights and its context vector; with the 0
    fill, ``extra`` says what leaks into it."""

    row: int
    weights: np.ndarray  # [n]
    context: np.ndarray  # [d_out]
    filled: np.ndarray  # [d_out] its context vector with the fill the controls set
    extra: str
    most: str  # where its row of weights goes (:func:`ui.format.most_weight`)


@dataclass(frozen=True)
class Book:
    """The live side of the checks, at the book's settings whatever the controls say: section
    3.5's ``sa_v2`` (seed 789) on the book's inputs, and ``CausalAttention`` after seed 123."""

    counterexample: np.ndarray  # softmax([1, 2, 3, 0, 0])
    naive: tuple[Stage, ...]
    efficient: tuple[Stage, ...]
    largest: float  # max |naive − efficient| after step 4
    limit: float  # the rounding bound on it (rounding_limit)
    zero_future: float  # token 1's attention to the future with the 0 fill
    causal_context: np.ndarray  # [6, 2] CausalAttention's context vectors


@dataclass(frozen=True)
class Runs:
    """Every stage of the page's three paths on one sentence, and the attention trace under them:
    what :func:`focused` works a cell out from, without running the paths again."""

    trace: attention.AttentionTrace
    naive: tuple[Stage, ...]
    causal: tuple[Stage, ...]  # the efficient path with the −∞ fill
    zero: tuple[Stage, ...]  # the efficient path with the 0 fill

    def efficient(self, fill: Fill) -> tuple[Stage, ...]:
        return self.causal if fill == "-inf" else self.zero


@dataclass(frozen=True)
class View:
    labels: tuple[str, ...]
    weights: WeightSet  # for the sentence's width: what the caption names
    stage: int
    fill: Fill
    naive: Stage  # each path at the stage shown
    efficient: Stage
    masked: np.ndarray  # [n, n] the efficient path's step 4 with this fill
    naive_first: float  # where the naive path masks: a post-softmax weight
    efficient_first: float  # where the efficient path masks: a pre-scale score
    difference: np.ndarray  # [n, n] naive − efficient after step 4
    sealed: np.ndarray  # [n, n] naive − the −∞ fill's efficient path after step 4: what the bound covers
    largest: float  # max |difference|; NaN where the naive path divided 0 by 0
    limit: float  # the rounding bound on |naive − causal| in the rows float64 keeps whole
    largest_text: (
        str  # a bound where the difference is rounding ("below 4e-15 (float64 rounding)"), else its value
    )
    largest_short: str  # the same for the metric, which has room for "below 4e-15" only
    cells: tuple[tuple[str, ...], ...]  # the difference grid's cell text
    grid_title: str
    lossy: np.ndarray  # [k] rows whose full-row softmax left every visible weight below 2.2e-308
    undefined_rows: np.ndarray  # [k] the lossy rows the naive path divides 0 by 0 (all weights 0)
    broken: np.ndarray  # [k] the rows where naive and causal differ by more than ``limit`` (0/0 included)
    undefined: str  # the warning for rows the naive path divides 0 by 0; "" for none
    lead: str  # the page's lead, ending with how the paths end on this sentence
    prose: str  # the sentence under the stages
    cancel_note: str  # after the algebra: what float64 makes of the cancellation here
    future_caption: str  # under the table of attention to later tokens
    future: Mapping[Fill, np.ndarray]  # per fill, each token's attention to later tokens
    focus: Focus | None
    cell_key: int | None  # the column of the cell the panel works out (None without a focus)
    cell: Panel | None  # that cell's arithmetic on the −∞ fill's path (None without a focus)
    cell_paths: CellPaths | None  # the same cell on the page's other paths, for the panel's notes
    logits: np.ndarray  # the box's logits as parsed
    box_warning: str  # why the box's text was not used; "" when it was
    softmax: ExtendedSoftmax
    book: Book
    runs: Runs  # every stage of every path: what :func:`focused` works the cell out from

    @property
    def focus_row(self) -> int | None:
        return None if self.focus is None else self.focus.row


OPS = 9  # roundings beyond the sums in the two paths (rounding_limit): see its derivation


def hidden_lead(scaled: np.ndarray) -> np.ndarray:  # [n, n] -> [n]
    """Per query, how far its best later score tops its best visible one, after the divisor (0 when
    none does): the naive path's full-row softmax shifts by the row's maximum, the efficient one by
    the visible maximum, and the gap between the two shifts scales the rounding of ``x - max``."""
    s = np.asarray(scaled, dtype=np.float64)
    visible = np.where(masking.future_mask(len(s)), -np.inf, s).max(axis=-1)
    return np.maximum(s.max(axis=-1) - visible, 0.0)


def lossy_rows(full_softmax: np.ndarray) -> np.ndarray:  # [n, n] -> [k]
    """Rows where the naive path's full-row softmax (its step 2) leaves every visible weight below
    float64's smallest normal number (2.2e-308): there float64 keeps fewer digits, and at exactly 0
    the renormalisation divides 0 by 0. The book's scores never get near; a reader's edits can."""
    w = np.where(masking.future_mask(len(full_softmax)), 0.0, np.asarray(full_softmax, dtype=np.float64))
    return np.flatnonzero(w.max(axis=-1) < text.SMALLEST_NORMAL)


def rounding_limit(scaled: np.ndarray, lossy: np.ndarray) -> float:
    """A bound on ``|naive − efficient|`` after step 4 with the −∞ fill, in the rows not ``lossy``.

    Both paths compute the prefix softmax ``p_j = e^{x_j − m} / Σ_{l ≤ i} e^{x_l − m}`` of the scaled
    scores ``x`` (the same float64 values in both), in different orders. With ``u = ε/2``, ``t_j = m − x_j``
    and ``g`` the row's :func:`hidden_lead`: the naive path rounds ``x_j − (m + g)`` (error ≤ u(t_j + g)),
    its ``exp`` (≤ 2u), the full-row division (≤ u; the full-row sum's own error cancels in the
    renormalisation), the prefix sum (≤ i·u, Higham §4.2, any order) and the last division (≤ u); the
    efficient path the same without ``g`` and one division fewer. Renormalising turns relative errors
    ``δ_l`` into ``p_j(δ_j − Σ_l p_l δ_l)``, and ``p_j t_j ≤ 1/e``, ``Σ_l p_l t_l ≤ ln(i + 1)``, so the two
    differ by at most ``ε(i + 1 + g + 1/e + ln(i + 1) + 5) ≤ ε(n + 9 + g)`` for ``n ≤ 32``, which
    ``rounding.bound(n, 1 + g, OPS)`` covers. Subnormal visible weights (``lossy``) break the relative
    error model, so those rows are left out of the bound and said apart.
    """
    s = np.asarray(scaled, dtype=np.float64)
    keep = np.setdiff1d(np.arange(len(s)), lossy)
    return rounding.bound(len(s), 1.0 + float(hidden_lead(s)[keep].max()), OPS)


def _max_abs(diff: np.ndarray, rows: np.ndarray) -> float:
    """The largest ``|diff|`` over ``rows`` (0 for none)."""
    return float(np.max(np.abs(diff[rows]))) if len(rows) else 0.0


def read_box(text: str, last_good: str) -> tuple[np.ndarray, str]:
    """The box's logits and "" or, on text that is not numbers, the last good input's logits and a
    warning that quotes at most 60 characters of it (the parser's message quotes at most 20 of
    the bad text)."""
    try:
        return parse_numbers(text), ""
    except ValueError as err:
        shown = last_good if len(last_good) <= 60 else last_good[:60] + "…"
        return parse_numbers(last_good), f"{err}. Showing the last good input: {shown}"


@functools.cache  # the book's settings never change: computed once per process
def book() -> Book:
    """Every number figure 03 and section 3.5 print, computed live at the book's settings."""
    v2 = attention.self_attention(tokens.inputs(), core_weights.section_3_5())
    naive = masking.naive_path(v2.scores, v2.divisor)
    efficient = masking.efficient_path(v2.scores, v2.divisor)
    zero = masking.efficient_path(v2.scores, v2.divisor, 0.0)[-1].matrix
    ca = masking.causal_attention(tokens.inputs(), core_weights.init_weights(123, "linear"))
    return Book(
        counterexample=attention.softmax(np.array(COUNTEREXAMPLE)),
        naive=naive,
        efficient=efficient,
        largest=float(np.max(np.abs(masking.difference(naive, efficient)))),
        limit=rounding_limit(naive[0].matrix, lossy_rows(naive[1].matrix)),
        zero_future=float(masking.future_share(zero)[0]),
        causal_context=ca.context,
    )


def cell_panel(
    trace: attention.AttentionTrace,
    causal: np.ndarray,
    labels: tuple[str, ...],
    p: CellPaths,
) -> Panel:
    """The panel of cell ``(p.i, p.j)`` worked out the book's way (section 3.5.1: the scores, −∞ on
    the future, ÷ √d_k, one softmax; ``causal`` is that path's last stage, the weights the focus
    note and ``Z`` use), with the page's other paths to the same cell in its notes."""
    c = core_cell.cell(
        trace.queries, trace.keys, trace.values, p.i, p.j, trace.divisor, causal=True, weights=causal
    )
    d_k = int(trace.keys.shape[-1])
    qi, kj = (fmt.md(labels[k]) for k in (p.i, p.j))
    return cell_text.panel(
        c, labels, labels, divisor_name=f"√d_k = √{d_k}", notes=text.cell_notes(c, p, qi, kj)
    )


def focused(v: View, focus: int | None, cell: int | None) -> View:
    """``v`` with the focused query's row and the cell panel (the ``cell`` key, or the query's
    largest weight): cheap, so the page's focus fragment reruns this alone when a reader picks
    another query or cell. Nothing else in ``v`` depends on them."""
    if focus is None:
        return dataclasses.replace(v, focus=None, cell_key=None, cell=None, cell_paths=None)
    r, n = v.runs, len(v.labels)
    if not 0 <= focus < n:
        raise ValueError(f"focus must be a query of the sentence, 0 to {n - 1}, got {focus}")
    causal, efficient = r.causal[-1].matrix, r.efficient(v.fill)
    leak = attention.mix(efficient[-1].matrix, r.trace.values)[focus]
    extra = "" if v.fill == "-inf" else text.focus_extra(focus, n, float(v.future["zero"][focus]), leak)
    most = fmt.most_weight(causal[focus], v.labels, "the masked A")
    row = Focus(focus, causal[focus], attention.mix(causal, r.trace.values)[focus], leak, extra, most)
    j = chosen_key(cell, causal[focus])
    p = paths.of(
        r.naive,
        efficient,
        r.zero,
        focus,
        j,
        stage=v.stage,
        zero_fill=v.fill == "zero",
        difference=v.difference,
        cells=v.cells,
        limit=v.limit,
    )
    panel = cell_panel(r.trace, causal, v.labels, p)
    return dataclasses.replace(v, focus=row, cell_key=j, cell=panel, cell_paths=p)


def build(s: Settings) -> View:
    """Both causal paths on the reader's sentence, at the stage and fill the controls set; with
    ``s.focus``, the focused query and its cell (:func:`focused`), which change nothing else."""
    return focused(_unfocused(s), s.focus, s.cell)


def _unfocused(s: Settings) -> View:
    """Everything but the focus: ``s.focus`` and ``s.cell`` are not read."""
    if not 1 <= s.stage <= STAGES:
        raise ValueError(f"stage must be 1 to {STAGES}, got {s.stage}")
    ws = weights_for(s.weights, s.x.shape[1])
    trace = attention.self_attention(s.x, ws)
    naive = masking.naive_path(trace.scores, trace.divisor)
    causal = masking.efficient_path(trace.scores, trace.divisor)
    zero = masking.efficient_path(trace.scores, trace.divisor, FILLS["zero"])
    efficient = causal if s.fill == "-inf" else zero
    diff = masking.difference(naive, efficient)
    largest = float(np.max(np.abs(diff)))
    lossy = lossy_rows(naive[1].matrix)
    undefined = masking.undefined_rows(naive[-1].matrix)
    limit = rounding_limit(naive[0].matrix, lossy)
    sealed = masking.difference(naive, causal)
    broken = np.flatnonzero(~(np.abs(sealed).max(axis=-1) <= limit))  # 0/0 (NaN) or beyond rounding
    kept = np.setdiff1d(np.arange(len(diff)), broken)
    thin = np.setdiff1d(broken, undefined)
    cells = tuple(tuple(text.cell_text(x, limit) for x in row) for row in diff)
    future: dict[Fill, np.ndarray] = {
        "-inf": masking.future_share(causal[-1].matrix),
        "zero": masking.future_share(zero[-1].matrix),
    }
    logits, box_warning = read_box(s.logits, s.last_good)
    return View(
        labels=s.labels,
        weights=ws,
        stage=s.stage,
        fill=s.fill,
        naive=naive[s.stage - 1],
        efficient=efficient[s.stage - 1],
        masked=efficient[-1].matrix,
        naive_first=float(naive[1].matrix[0, 0]),
        efficient_first=float(efficient[0].matrix[0, 0]),
        difference=diff,
        sealed=sealed,
        largest=largest,
        limit=limit,
        largest_text=text.difference_text(largest, limit),
        largest_short=text.difference_text(largest, limit).removesuffix(" (float64 rounding)"),
        cells=cells,
        grid_title=text.grid_title(cells, limit),
        lossy=lossy,
        broken=broken,
        undefined_rows=undefined,
        undefined=text.undefined_note(undefined),
        lead=text.lead(broken),
        prose=text.stage_prose(
            efficient[-1].matrix,
            s.fill == "-inf",
            _max_abs(diff, kept),
            limit,
            undefined,
            broken,
            _max_abs(sealed, thin),
        ),
        cancel_note=text.cancel_note(
            _max_abs(sealed, kept), limit, undefined, broken, _max_abs(sealed, thin)
        ),
        future_caption=text.future_caption(future["zero"]),
        future=future,
        focus=None,
        cell_key=None,
        cell=None,
        cell_paths=None,
        logits=logits,
        box_warning=box_warning,
        softmax=softmax_extended(logits),
        book=book(),
        runs=Runs(trace, naive, causal, zero),
    )
