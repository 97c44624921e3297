"""Every number the Dropout page shows (book section 3.5.2, the post's figure 04), from its settings.

:func:`build` turns the page's settings into a :class:`View`: the causal weights before dropout,
one draw after it, the statistics of many draws, the focus row's context vectors and the live
values of the checks. The page lays the view out; the tests and the Reproduce oracle read the
same view, so a change to the page's computation is a change they see.

The draws are the heavy part. :func:`build` takes them as ``run``: :func:`monte_carlo` by
default, the page's cached copy of it (``topics.dropout.study``) on the page: one code path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from core import attention, cell, masking, tokens, weights
from core.sentence import weights_for
from core.weights import WeightSet
from topics.dropout import sampling, text
from topics.dropout.sampling import BOOK_DROPOUT_SEED, BOOK_P, DropoutStats, Generator
from topics.dropout.sampling import GENERATORS as GENERATORS  # the Random numbers control's choices
from topics.dropout.uncertainty import estimate, estimate_percent, exact_percent
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel, Table, chosen_key

DRAWS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)  # the Draws control's ladder
DEFAULT_DRAWS = 10_000
SEED_MAX = 2**31 - 1  # the Seed control's largest value; Resample wraps to 0 after it
DEFAULT_SEED = BOOK_DROPOUT_SEED
DEFAULT_GENERATOR: Generator = "torch"  # with seed 123 and p = 0.5, the first draw is the book's printed one
MAX_CELLS = DRAWS[-1] * 6 * 6  # draws × n²: the book's 100,000 draws of 6 × 6, about 30 MB a pass
MAX_POINTS = 600  # a 100,000-draw running mean is recorded and drawn at this many log-spaced counts
CHECK_DRAWS = 20_000  # the post's zero-row figure is over 20,000 draws
CHECK_MEAN_DRAWS = 10_000  # and its mean row sums are read after 10,000


GENERATOR_NAMES: dict[Generator, str] = {"numpy": "NumPy", "torch": "PyTorch"}  # the URL holds these
GENERATOR_CAPTIONS: dict[Generator, str] = {
    "torch": "torch.manual_seed(seed): the book's stream",
    "numpy": "default_rng(seed): faster",
}

Run = Callable[[float, bool, int, int, Generator, np.ndarray], DropoutStats]
Checks = Callable[[int, Generator], "BookChecks"]


def draw_choices(n: int) -> tuple[int, ...]:
    """The draw counts a sentence of ``n`` tokens may ask for: at most :data:`MAX_CELLS` cells
    (2,000 draws at 32 tokens), so a long sentence costs no more than the book's."""
    return tuple(d for d in DRAWS if d * n * n <= MAX_CELLS)


def default_draws(n: int) -> int:
    """The Draws control's default: the post's 10,000, or the most a long sentence may have."""
    return min(DEFAULT_DRAWS, draw_choices(n)[-1])


def next_seed(seed: int) -> int:
    """What Resample sets: the next seed, wrapping to 0 after :data:`SEED_MAX`."""
    return (int(seed) + 1) % (SEED_MAX + 1)


def monte_carlo(
    p: float, scale: bool, seed: int, draws: int, generator: Generator, x: np.ndarray
) -> DropoutStats:
    """Dropout on the section 3.5 causal weights of inputs ``x`` (the weights redrawn at its width),
    ``draws`` times from ``seed``, summarised chunk by chunk.

    The running mean is kept at :data:`MAX_POINTS` log-spaced counts (what the chart draws) and
    after :data:`CHECK_MEAN_DRAWS` (what the checks read), never draw by draw.
    """
    w = masking.causal_weights(x, weights_for(weights.section_3_5(), x.shape[1]))
    record = sampling.log_spaced_counts(draws, MAX_POINTS, always=(CHECK_MEAN_DRAWS,))
    return sampling.dropout_study(w, seed, draws, p, scale, generator, record)


@dataclass(frozen=True, eq=False)
class Settings:
    """Every control of the page; the defaults are the page's (the book's sentence, p = 0.5, PyTorch's
    generator at seed 123: the draw section 3.5.2 prints)."""

    labels: tuple[str, ...] = tokens.TOKENS
    x: np.ndarray = field(default_factory=tokens.inputs)  # the sentence's embeddings [n, width]
    p: float = BOOK_P
    scale: bool = True  # survivors multiplied by 1/(1 − p), as nn.Dropout does
    generator: Generator = DEFAULT_GENERATOR
    seed: int = DEFAULT_SEED
    draws: int = DEFAULT_DRAWS
    focus: int | None = None  # the query row picked out, if any
    cell: int | None = None  # the key of the cell panel's cell, or None: the query's largest weight
    relative: str | None = None  # the weights' colours: None (0–1), "matrix" or "row" (ui.scale)


@dataclass(frozen=True, eq=False)
class Focus:
    """The focused query's row: its weights in the first draw and its context vector before and after."""

    row: int
    weights: np.ndarray  # the row of the first draw  [n]
    before: np.ndarray  # the context vector before dropout  [d_out]
    after: np.ndarray  # and after this draw's dropout  [d_out]
    most: str  # where its row of this draw goes (:func:`ui.format.most_weight`)


@dataclass(frozen=True, eq=False)
class BookChecks:
    """The checks' live values: the book's sentence at p = 0.5, on the page's seed and generator."""

    weights: np.ndarray  # the book's causal weights (section 3.5.1)  [6, 6]
    run: np.ndarray  # torch.manual_seed(123); nn.Dropout(0.5)(attn_weights), float32  [6, 6]
    keep: float  # 1 − p at p = 0.5
    factor: float  # 1/(1 − p) at p = 0.5: the post's worked case
    on: DropoutStats  # CHECK_DRAWS draws, scaling on
    off: DropoutStats  # the same masks, scaling off


@dataclass(frozen=True)
class Readout:
    """One ``st.metric``: its label, its value as shown, and its help."""

    label: str
    value: str
    help: str


@dataclass(frozen=True, eq=False)
class View:
    """Every number the page shows, in the order it shows them."""

    labels: tuple[str, ...]
    book_sentence: bool  # the book's six tokens, unedited
    settings: Settings  # what it was built from, without a focus (the focus is :func:`focused`'s)
    trace: attention.AttentionTrace  # the causal attention before dropout: Q, K, V, the weights
    weight_set: WeightSet  # section 3.5's sa_v2 at the sentence's width (the script rebuilds it)
    weights: np.ndarray  # causal weights before dropout  [n, n]
    first: np.ndarray  # the first draw after dropout  [n, n]
    first_keep: np.ndarray  # its keep mask, True where a weight survived  [n, n] bool
    row_sums: np.ndarray  # the first draw's row sums  [n]
    dead_rows: tuple[int, ...]  # the first draw's zero rows, numbered from 1
    book_draw: bool  # the first draw is the tensor section 3.5.2 prints
    draws: int
    mean_row_sum: float  # the mean row sum over all draws
    expectation: float  # its expectation: 1 with scaling, 1 − p without
    std: float  # the standard deviation of one draw's mean row sum
    running_at: np.ndarray  # the draw counts the running mean is recorded at  [m]
    running_mean: np.ndarray  # the running mean row sum at those counts  [m]
    zero_rate: np.ndarray  # the share of draws where row i is the zero vector  [n]
    zero_theory: np.ndarray  # p**i  [n]
    row_sum_mean: np.ndarray  # each row's mean sum over all draws  [n]
    p: float
    scale: bool
    keep: float  # 1 − p
    factor: float  # 1/(1 − p), whether or not the survivors are scaled
    survivor_factor: float  # what a survivor is multiplied by: the factor, or 1 with scaling off
    focus: Focus | None  # None without a focused query
    cell_key: int | None  # the column of the cell the panel works out (None without a focus)
    cell: Panel | None  # that cell through the softmax and this draw's dropout (None without a focus)
    checks: BookChecks
    # Standard errors of the Monte Carlo figures, from the exact variance of one draw
    mean_row_sum_se: float  # std/√draws
    zero_rate_se: np.ndarray  # √(pⁱ(1 − pⁱ)/draws)  [n]
    row_sum_se: np.ndarray  # each row's std/√draws  [n]
    # What the page says, built from the numbers above (topics.dropout.text)
    lead: str
    caption: str
    readouts: tuple[Readout, ...]
    draw_caption: str
    zero_rate_text: tuple[str, ...]  # "49.7% ± 0.4%"  [n]
    zero_theory_text: tuple[str, ...]  # "50%"  [n]
    row_sum_text: tuple[str, ...]  # "0.998 ± 0.012"  [n]
    formula: str  # LaTeX
    factor_text: str
    code_caption: str

    @property
    def dead(self) -> int:
        """How many rows of the first draw are the zero vector."""
        return len(self.dead_rows)

    @property
    def running_text(self) -> tuple[str, ...]:
        """The running mean at each recorded count with its standard error, "0.998 ± 0.012"  [m].
        Written when a chart asks: a few hundred strings, which a rerun whose charts are kept
        (``topics.dropout.charts``) would otherwise write again for nothing."""
        errors = self.std / np.sqrt(self.running_at)
        return tuple(estimate(m, e) for m, e in zip(self.running_mean, errors, strict=True))


def book_checks(seed: int, generator: Generator, run: Run = monte_carlo) -> BookChecks:
    """The live side of the checks: they stay at the book's settings whatever the page shows."""
    x, ws = tokens.inputs(), weights.section_3_5()
    return BookChecks(
        weights=masking.causal_weights(x, ws),
        run=sampling.book_dropout_run(x, ws),
        keep=1.0 - BOOK_P,
        factor=sampling.scale_factor(BOOK_P),
        on=run(BOOK_P, True, seed, CHECK_DRAWS, generator, x),
        off=run(BOOK_P, False, seed, CHECK_DRAWS, generator, x),
    )


def operand(weight: float, times: float, product: float) -> str:
    """The softmax weight as the panel's product line prints it: 4 decimals, as the book prints,
    or as many more as it takes for ``weight × times`` (``times`` as printed) to read as the printed
    ``product`` (the book's 0.7599 is 0.37995… × 2; "0.3800 × 2 = 0.7599" would read as a slip)."""
    for decimals in range(4, 10):
        if fmt.num(round(weight, decimals) * times) == fmt.num(product):
            return fmt.num(weight, decimals)
    return fmt.num(weight, 10)


def cell_panel(
    c: cell.Cell,
    labels: tuple[str, ...],
    kept: bool,
    s: Settings,
    before: np.ndarray,
    zero_theory: str,
    zero_measured: str,
    draws: int,
) -> Panel:
    """Cell ``(i, j)`` through the causal softmax, then through this draw's dropout: the softmax
    weight (a future key's is −∞, then exactly 0, before any dropout), the keep mask's bit, the
    factor, and the context vector summed from the dropped weights (``c`` was built from them)."""
    p, scale = float(s.p), bool(s.scale)
    keep, factor = 1.0 - p, sampling.scale_factor(p)
    d_k = len(c.key)
    notes = text.cell_notes(
        fmt.md(labels[c.i]),
        fmt.md(labels[c.j]),
        row=c.i + 1,
        masked=c.masked,
        kept=kept,
        softmax_weight=operand(
            c.softmax_weight, float(kept) * (float(f"{factor:.4g}") if scale else 1.0), c.weight
        ),
        dropped_weight=fmt.num(c.weight),
        p=p,
        scale=scale,
        keep=keep,
        factor=factor,
        generator_name=GENERATOR_NAMES[s.generator],
        seed=s.seed,
        row_dead=not c.row_weights.any(),
        zero_theory=zero_theory,
        zero_measured=zero_measured,
        draws=draws,
        before=fmt.short_vec(before),
    )
    panel = cell_text.panel(
        c,
        labels,
        labels,
        projected="x_{i} W_q and k_{j} = x_{j} W_k, with section 3.5's weights (sa_v2, seed 789)",
        divisor_name=f"√d_k = √{d_k}",
        notes=notes,
    )
    # The dropout lines are steps of the arithmetic, so they follow the softmax's, before the context
    # vector that sums their result; the table's weights are this draw's, and its header says so.
    mask, scaled, product, context = notes
    header = ("key", "weight after dropout", *panel.terms.header[2:])
    return replace(
        panel,
        weight=(*panel.weight, mask, scaled, product),
        terms=Table(header, panel.terms.rows),
        notes=(context,),
    )


def build(s: Settings, *, run: Run = monte_carlo, checks: Checks | None = None) -> View:
    """The page's view of settings ``s``; ``run`` draws and summarises, ``checks`` gives the checks
    at a seed and generator (:func:`book_checks` with ``run`` unless given; the page passes its
    caches of both).

    The same as :func:`focused` on :func:`build` without the focus: the page builds the view once
    and redraws only the focus when a reader moves it (its focus fragment)."""
    book = checks or partial(book_checks, run=run)
    v = _build(replace(s, focus=None, cell=None, relative=None), run, book)
    return focused(v, s.focus, s.cell, s.relative)


def lead(p: float) -> str:
    """The page's lead: it depends on the rate alone, so the page shows it before any draw."""
    return text.lead(p)


def default_key(drawn: np.ndarray, before: np.ndarray) -> int:
    """The panel's cell when the reader picks none: the key this draw's row gives most weight, by
    the focus note's rule (``ui.format.leaders``: ties on the printed value, the first of them), so
    the note and the panel name one key; a row the draw drops whole has no largest weight, and
    takes the key the weights before dropout give most."""
    if drawn.any():
        return int(fmt.leaders(drawn)[0])
    return int(np.argmax(before))


def focused(v: View, focus: int | None, cell_choice: int | None, relative: str | None = None) -> View:
    """``v`` with query ``focus`` picked out (None: no focus), the cell panel's key ``cell_choice``
    (None: :func:`default_key`, this draw's largest weight) and the weights coloured by
    ``relative`` (``ui.scale``, which the draw's caption names). Cheap: the draws are ``v``'s."""
    s = replace(v.settings, focus=focus, cell=cell_choice, relative=relative)
    caption = text.draw_caption(
        v.p, v.scale, v.keep, v.factor, v.dead_rows, v.book_sentence, v.book_draw, relative
    )
    if focus is None:
        return replace(v, settings=s, focus=None, cell_key=None, cell=None, draw_caption=caption)
    tr, w = v.trace, v.weights
    before, after = attention.mix(w, tr.values)[focus], attention.mix(v.first, tr.values)[focus]
    f = Focus(
        focus, v.first[focus], before, after, fmt.most_weight(v.first[focus], v.labels, "this draw's A")
    )
    picked = cell_choice is not None and 0 <= cell_choice < len(v.labels)
    cell_key = chosen_key(cell_choice, w[focus]) if picked else default_key(v.first[focus], w[focus])
    panel = None
    if cell_key is not None:
        the_cell = cell.cell(tr.queries, tr.keys, tr.values, focus, cell_key, tr.divisor, True, v.first)
        panel = cell_panel(
            the_cell, v.labels, bool(v.first_keep[focus, cell_key]), s, before,
            v.zero_theory_text[focus], v.zero_rate_text[focus], v.draws,
        )  # fmt: skip
        if not picked:
            panel = replace(panel, notes=(*panel.notes, text.default_cell_note(bool(v.first[focus].any()))))
    return replace(v, settings=s, focus=f, cell_key=cell_key, cell=panel, draw_caption=caption)


def _build(s: Settings, run: Run, book: Checks) -> View:
    x = np.asarray(s.x, dtype=np.float64)
    ws = weights_for(weights.section_3_5(), x.shape[1])
    tr = masking.causal_attention(x, ws)
    w = tr.weights
    stats = run(s.p, s.scale, s.seed, s.draws, s.generator, x)
    book_sentence = tuple(s.labels) == tokens.TOKENS and np.array_equal(x, tokens.inputs())
    p, scale, draws = float(s.p), bool(s.scale), stats.draws
    keep, factor = 1.0 - p, sampling.scale_factor(p)
    dead_rows = tuple(i + 1 for i, row in enumerate(stats.first) if not row.any())
    book_draw = book_sentence and (s.generator, s.seed, p, scale) == (
        "torch",
        BOOK_DROPOUT_SEED,
        BOOK_P,
        True,
    )
    root = np.sqrt(draws)
    mean_se = stats.std / root
    zero_se = sampling.zero_row_std(p, len(x)) / root
    row_se = sampling.row_sum_std(w, p, scale) / root
    mean = float(stats.running_mean[-1])
    zero_rate_text = tuple(estimate_percent(r, e) for r, e in zip(stats.zero_rate, zero_se, strict=True))
    zero_theory_text = tuple(exact_percent(t) for t in stats.zero_theory)
    row_sums = stats.first.sum(axis=1)
    readouts = (
        Readout(
            "Zero rows in this draw", f"{len(dead_rows)} of {len(x)}", "Rows whose every weight was dropped."
        ),
        Readout("Row 1 sum in this draw", fmt.num(row_sums[0]), "Row 1 has one weight, 1 before dropout."),
        Readout("Expected mean row sum", fmt.num(stats.expectation), text.expectation_help(p, scale)),
        # The estimate sits in the row of two: in a third of a phone's width its error was cut off.
        Readout(f"Mean row sum over {draws:,} draws", estimate(mean, mean_se), text.mean_help(draws, scale)),
        Readout(
            "Survivors multiplied by",
            text.worked_factor(keep, factor) if scale else "1",
            text.survivor_help(p, scale),
        ),
    )
    return View(
        labels=tuple(s.labels),
        book_sentence=book_sentence,
        settings=s,
        trace=tr,
        weight_set=ws,
        weights=w,
        first=stats.first,
        first_keep=stats.first_keep,
        row_sums=row_sums,
        dead_rows=dead_rows,
        book_draw=book_draw,
        draws=draws,
        mean_row_sum=mean,
        expectation=stats.expectation,
        std=stats.std,
        running_at=stats.running_at,
        running_mean=stats.running_mean,
        zero_rate=stats.zero_rate,
        zero_theory=stats.zero_theory,
        row_sum_mean=stats.row_sum_mean,
        p=p,
        scale=scale,
        keep=keep,
        factor=factor,
        survivor_factor=sampling.scale_factor(p, scale),
        focus=None,
        cell_key=None,
        cell=None,
        checks=book(s.seed, s.generator),
        mean_row_sum_se=mean_se,
        zero_rate_se=zero_se,
        row_sum_se=row_se,
        lead=text.lead(p),
        caption=text.weights_caption(x.shape[1], GENERATOR_NAMES[s.generator], s.seed),
        readouts=readouts,
        draw_caption=text.draw_caption(
            p, scale, keep, factor, dead_rows, book_sentence, book_draw, s.relative
        ),
        zero_rate_text=zero_rate_text,
        zero_theory_text=zero_theory_text,
        row_sum_text=tuple(estimate(m, e) for m, e in zip(stats.row_sum_mean, row_se, strict=True)),
        formula=text.formula(scale),
        factor_text=text.factor_paragraph(p, scale, keep, factor),
        code_caption=text.code_caption(book_draw),
    )
