"""Masking the future (section 3.5.1, the post's figure 03): every number the page shows.

:func:`build` takes the page's settings as plain values (the sentence as labels and embeddings,
the weight set the control picked, the stage, the fill, the focused query, the counterexample
box's text) and returns a :class:`View`: the stage each path shows, the readouts, the difference
grid, the prose under the stages, the future's share for both fills, the focused query's row,
the box's logits and softmax, and the live values of the checks at the book's settings. The page
draws it, and the tests and the Reproduce oracle read the same fields.

The two paths differ by float64 rounding (about 1e-16) with the book's −∞ fill: :func:`diff_text`
writes such a value with its own exponent, an exact zero as 0, and the zero fill's leak (tenths)
with 4 decimals like every other weight.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from core import attention, masking, tokens
from core import weights as core_weights
from core.masking import STAGES, Stage
from core.sentence import weights_for
from core.weights import WeightSet
from topics.masking.box import ExtendedSoftmax, parse_numbers, softmax_extended
from ui import format as fmt

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
    logits: str = LOGITS  # the box's text
    last_good: str = LOGITS  # the last text the box parsed, shown instead when this one does not


@dataclass(frozen=True)
class Focus:
    """The focused query: its row of the causal (−∞) weights and its context vector; with the 0
    fill, ``extra`` says what leaks into it."""

    row: int
    weights: np.ndarray  # [n]
    context: np.ndarray  # [d_out]
    extra: str


@dataclass(frozen=True)
class Book:
    """The live side of the checks, at the book's settings whatever the controls say: section
    3.5's ``sa_v2`` (seed 789) on the book's inputs, and ``CausalAttention`` after seed 123."""

    counterexample: np.ndarray  # softmax([1, 2, 3, 0, 0])
    naive: tuple[Stage, ...]
    efficient: tuple[Stage, ...]
    largest: float  # max |naive − efficient| after step 4
    zero_future: float  # token 1's attention to the future with the 0 fill
    causal_context: np.ndarray  # [6, 2] CausalAttention's context vectors


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
    largest: float  # max |difference|; NaN where the naive path divided 0 by 0
    largest_text: str
    undefined: str  # the warning for rows the naive path divides 0 by 0; "" for none
    prose: str  # the sentence under the stages
    future: Mapping[Fill, np.ndarray]  # per fill, each token's attention to later tokens
    focus: Focus | None
    logits: np.ndarray  # the box's logits as parsed
    box_warning: str  # why the box's text was not used; "" when it was
    softmax: ExtendedSoftmax
    book: Book


def diff_text(x: float) -> str:
    """``1.1e-16`` for rounding noise, ``0`` where the paths agree exactly, 4 decimals for a leak,
    ``0/0`` where the naive path divided zero by zero (see ``core.masking.undefined_rows``)."""
    x = float(x)
    if np.isnan(x):
        return "0/0"
    if x == 0:
        return "0"
    return fmt.sci(x) if abs(x) < 1e-3 else fmt.num(x)


def stage_prose(final: np.ndarray, sealed: bool, largest: float) -> str:
    """The sentence under the stages, read off the efficient path's last stage as the controls set it.

    With the book's −∞ fill the first row collapses onto the first token; with a finite fill the
    future keeps weight, and the sentence says how much instead of quoting the book's rows. It
    names rows 2 and 3 only where the sentence has them.
    """
    w = np.asarray(final, dtype=np.float64)
    n = len(w)
    if sealed:
        later = [f"row {i + 1} is {fmt.vec(w[i, : i + 1])}" for i in range(1, min(3, n))]
        return (
            f"Row 1 collapses to {fmt.num(w[0, 0])} because the first token sees only itself"
            + (f"; {' and '.join(later)}" if later else "")
            + ". Half-way the paths disagree on everything, because the naive one masks weights and the "
            "efficient one masks scores."
        )
    if n == 1:
        return "With one token there is no future to mask: either fill gives the same single weight."
    future = masking.future_share(w)
    return (
        f"With the future filled by a finite score instead of −∞, nothing is masked: row 1 keeps only "
        f"{fmt.num(w[0, 0])} on the first token and hands {fmt.num(future[0])} to the {n - 1} "
        f"{'token' if n == 2 else 'tokens'} after it"
        + (f", and row 2 keeps {fmt.num(1 - future[1])} on the two tokens it may see" if n > 2 else "")
        + f". The naive path still masks properly, so the two now differ by up to {diff_text(largest)}."
    )


def undefined_note(rows: np.ndarray) -> str:
    """The warning for the naive path's 0/0 rows (numbered from 1), or "" when there are none."""
    if not rows.size:
        return ""
    return (
        f"The naive path divides 0 by 0 in row{'s' * (rows.size > 1)} "
        f"{', '.join(str(i + 1) for i in rows)}: a future score beats every visible one by so much "
        "that the full-row softmax leaves each visible weight at exactly 0. The efficient path never "
        "divides, one more reason the book prefers it."
    )


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
        zero_future=float(masking.future_share(zero)[0]),
        causal_context=ca.context,
    )


def build(s: Settings) -> View:
    """Both causal paths on the reader's sentence, at the stage and fill the controls set."""
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
    focus = None
    if s.focus is not None:
        leak = attention.mix(efficient[-1].matrix, trace.values)[s.focus]
        focus = Focus(
            s.focus,
            causal[-1].matrix[s.focus],
            attention.mix(causal[-1].matrix, trace.values)[s.focus],
            "" if s.fill == "-inf" else f"With the 0 fill it is {fmt.vec(leak)}: the future leaks in.",
        )
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
        largest=largest,
        largest_text=diff_text(largest),
        undefined=undefined_note(masking.undefined_rows(naive[-1].matrix)),
        prose=stage_prose(efficient[-1].matrix, s.fill == "-inf", largest),
        future={
            "-inf": masking.future_share(causal[-1].matrix),
            "zero": masking.future_share(zero[-1].matrix),
        },
        focus=focus,
        logits=logits,
        box_warning=box_warning,
        softmax=softmax_extended(logits),
        book=book(),
    )
