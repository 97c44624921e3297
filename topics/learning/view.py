"""Learning to attend as numbers: every value the page shows, computed from the page's settings.

The page trains the book's trainable weights (chapter 3, section 3.4: W_q and W_k, in figure 01's
three modes) towards a target attention pattern.

The page (``topics/learning/page.py``) reads its controls into :class:`Settings`, calls
:func:`build` and draws the :class:`View`: the loss curves, the runs' table, the step shown, the
heatmaps, the focused query's context vector, the evidence of what each mode can reach, the
nearest pair of embeddings and the live side of the checks. The tests and the Reproduce oracle
(``tests/learning``) read the same view, so they check the page's own numbers, not a copy.

The two heavy computations, the training (:func:`topics.learning.training.fit`) and the search
with its linear program (:func:`topics.learning.reach.limits`), are keyword arguments: the plain
functions by default, the page's cached ones (``topics/learning/study.py``) on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from core import attention, tokens, weights
from core.attention import Mode
from core.sentence import nearest_pair, weights_for
from core.weights import WeightSet, init_weights
from topics.learning import one_cell, prose, reach, script, training
from topics.learning.numbers import Checks, Evidence, Numbers, Run, Settings
from topics.learning.prose import Prose
from topics.learning.reach import Found, Reach
from topics.learning.training import Optimiser as Optimiser  # the controls' types, as the tour names them
from topics.learning.training import Target as Target
from topics.learning.training import Trajectory
from ui import format as fmt
from ui.cell_text import chosen_key

# The controls' ladders: what a reader (and the oracle's random settings) can pick.
RATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
STEPS = (100, 200, 500, 1_000, 2_000, 5_000)
WIDTHS = (1, 2, 3, 4, 5, 6)  # d_out on offer; the book's d_in = 3, so 3 and up realise every M

Fit = Callable[..., tuple[np.ndarray, dict[Mode, Trajectory]]]
Limits = Callable[..., tuple[dict[Mode, Found] | None, Reach | None]]
Nudged = Callable[..., Mapping[Mode, Trajectory]]


@dataclass(frozen=True)
class View(Numbers):
    """Every number Learning to attend shows (:class:`Numbers`), and every sentence written from
    them (:attr:`prose`)."""

    prose: Prose = field(default_factory=Prose)


def widen(ws: WeightSet, width: int) -> WeightSet:
    """The weight set's seed and initialisation drawn at ``(d_in, width)``; the book's own at width 2."""
    if width == ws.w_query.shape[1]:
        return ws
    wide = init_weights(ws.seed, ws.init, ws.w_query.shape[0], width)
    return WeightSet(
        f"{ws.label}, drawn at width {width}", ws.seed, ws.init, wide.w_query, wide.w_key, wide.w_value
    )


def _names(rows: tuple[int, ...], labels: Sequence[str]) -> str:
    return ", ".join(f"“{labels[r]}”" for r in rows)


def _best_known(
    mode: Mode, here: int, found: Found | None, lp: Reach | None, width: int, labels: Sequence[str], d_in: int
) -> tuple[int, str]:
    """The most rows known for ``mode``: this run, the search, or the linear program's witness."""
    if mode == "none":
        return here, "no dials: the only value"
    if found is None:  # a sentence too long for the search
        return here, f"this run (no search past {reach.MAX_SEARCH_TOKENS} tokens)"
    rows = "row" if len(found.ignored) == 1 else "rows"
    ignored = f", {rows} {_names(found.ignored, labels)} left out of the loss" if found.ignored else ""
    best = (here, "this run")
    if found.rows > best[0]:
        best = (found.rows, f"search: start {found.start + 1} of {reach.SEARCH_STARTS}{ignored}")
    if mode == "three" and lp is not None and width >= d_in and lp.rows > best[0]:
        best = (lp.rows, "the linear program's witness, W_q = M, W_k = I")
    return best


def _bound(
    mode: Mode, here: int, v: tuple[int | None, int | None, bool], lp: Reach | None, d_in: int, n: int
) -> tuple[int | None, str]:
    """The proven most rows for ``mode`` and the reason, or ``None`` when nothing is proven.

    ``v`` is the tied bound, the ties' bound (every mode) and whether a repeated word's rows ask
    for several words. The linear program already counts ties: it tries every subset of rows."""
    tied_bound, ties, split = v
    if mode == "none":
        return here, "XXᵀ has no dials"
    if mode == "tied":
        if tied_bound is None:
            return None, ""
        if split:
            return tied_bound, "a repeated word's rows attend alike; Cauchy–Schwarz: no cycle of arrows"
        return tied_bound, "Cauchy–Schwarz: one row of every cycle is lost"
    if lp is not None:
        return lp.rows, f"linear program over every {d_in} × {d_in} M"
    if ties is not None and ties < n:
        return ties, "a repeated word's rows attend alike"
    return None, ""


def _checks(runs: Mapping[Mode, Trajectory], steps: int) -> Checks:
    v1, x = weights.section_3_4(), tokens.inputs()
    none, tied = runs["none"], runs["tied"].scores
    j, s = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")
    return Checks(
        tied_score_error=float(np.max(np.abs(tied - tied.swapaxes(-1, -2)))),  # every recorded step
        none_score_error=attention.asymmetry_error(none.scores[0]),
        none_weight_error=attention.asymmetry_error(training.attention(x, v1.w_query, v1.w_key, "none")),
        affinity_journey_starts=float(none.scores[none.at(steps), j, s]),
        attn_weights_2=training.attention(x, v1.w_query, v1.w_key, "three")[1],
    )


def build(s: Settings, *, fit: Fit = training.fit, limits: Limits = reach.limits) -> View:
    """The page's view of ``s``: every mode trained (``fit``), the evidence (``limits``), the step
    shown, and the focused query and its cell (:func:`focused`)."""
    return focused(base(s, fit=fit, limits=limits), s.focus, s.cell)


def focused(v: View, focus: int | None, cell: int | None) -> View:
    """``v`` with the focused query's row, its context vector and its cell at the step shown: cheap,
    so the page's focus and cell controls rerun only this and the figures that show it. Nothing
    else in the view depends on them."""
    s = replace(v.settings, focus=focus, cell=cell)
    if focus is None:
        return replace(v, settings=s)
    x, run = np.asarray(s.embeddings, dtype=np.float64), v.runs[s.mode]
    values = attention.attention_in_mode(x, v.ws, s.mode).values  # W_v is not trained: figure 01's
    chosen = one_cell.at_step(x, run, values, v.target, v.step, focus, chosen_key(cell, v.attention[focus]))
    return replace(
        v,
        settings=s,
        focus_weights=v.attention[focus],
        focus_most=fmt.most_weight(v.attention[focus], s.labels),
        focus_context=attention.mix(v.attention, values)[focus],
        cell_key=chosen.arithmetic.j,
        cell_at_step=chosen,
        cell=one_cell.panel(chosen, s.labels),
    )


def base(s: Settings, *, fit: Fit = training.fit, limits: Limits = reach.limits) -> View:
    """Everything of :func:`build` that does not depend on the focus or the cell (both left out)."""
    s = replace(s, focus=None, cell=None)
    labels, x = s.labels, np.asarray(s.embeddings, dtype=np.float64)
    token = s.token if s.target == "token" else 0
    ws = widen(weights_for(s.weights, x.shape[1]), s.width)
    target, runs = fit(s.target, token, s.optimiser, s.lr, s.steps, ws.w_query, ws.w_key, x)
    every = training.record_every(s.steps, len(x))
    run = runs[s.mode]
    asked = min(max(s.step, 0), s.steps)  # a value kept from a longer run or typed into a URL
    step = asked if asked == s.steps else asked // every * every  # recorded: every ``every``, and the last
    if run.diverged_at is not None:  # the run stopped: its last good state is its last record
        step = min(step, run.diverged_at - 1)
    a, omega = run.attention[run.at(step)], run.scores[run.at(step)]  # the snapshot at the step shown
    big = float(np.abs(omega).max())
    found, lp = limits(s.target, token, s.width, x)
    words = training.words(x)
    tied_bound, ties = reach.tied_row_bound(target, words), reach.ties_bound(target, words)
    counts = reach.asked(target, words)
    split = tuple(
        (int(c), int(counts[c].sum()), tuple(int(d) for d in np.flatnonzero(counts[c])), int(counts[c].max()))
        for c in range(len(x))
        if counts is not None and np.count_nonzero(counts[c]) > 1
    )
    table = tuple(
        Run(
            m,
            float(r.losses[0]),
            float(r.losses[-1]),
            tuple(training.rows_right(r.attention[-1], target, words=words).tolist()),
            r.diverged_at,
        )
        for m, r in runs.items()
    )
    evidence = []
    for row in table:
        best, how = _best_known(
            row.mode, row.rows, found[row.mode] if found else None, lp, s.width, labels, x.shape[1]
        )
        most, why = _bound(row.mode, row.rows, (tied_bound, ties, bool(split)), lp, x.shape[1], len(x))
        evidence.append(Evidence(row.mode, row.rows, best, how, most, why))
    on_book = labels == tokens.TOKENS and np.array_equal(x, tokens.inputs())
    book_runs = runs
    if not on_book:  # the checks quote the book's six tokens: the same settings, trained on them
        book_ws = widen(weights_for(s.weights, tokens.inputs().shape[1]), s.width)
        book_token = token if token < len(tokens.TOKENS) else 1
        book_runs = fit(
            s.target, book_token, s.optimiser, s.lr, s.steps, book_ws.w_query, book_ws.w_key, tokens.inputs()
        )[1]
    v = View(
        settings=s,
        token=token,
        ws=ws,
        target=target,
        runs=runs,
        floor=training.entropy_floor(target),
        table=table,
        every=every,
        step=step,
        loss=float(run.losses[step]),
        rows_right=int(training.rows_right(a, target, words=words).sum()),
        score_error=attention.asymmetry_error(omega),
        attention=a,
        scores=omega,
        asymmetry=attention.asymmetry(omega),
        decimals=4 if big < 10 else 2 if big < 1_000 else 0,
        focus_weights=None,
        focus_context=None,
        focus_most=None,
        gradient=training.score_gradient(a, target, int(ws.w_key.shape[-1])),
        cell_key=None,
        cell_at_step=None,
        cell=None,
        words=words,
        repeats=len(set(words.tolist())) < len(x),
        split_words=split,
        cycles=reach.word_cycles(target, words) or (),
        single=bool(reach.attends_most_to(target).min() >= 0),
        ties_bound=ties,
        tied_bound=tied_bound,
        found=found,
        reach=lp,
        evidence=tuple(evidence),
        nearest=nearest_pair(x),
        checks=_checks(book_runs, s.steps),
    )
    return replace(v, prose=prose.write(v))


def probe(v: View, *, nudged: Nudged = script.nudged) -> script.Drift:
    """How far this view's run moves when its starting weights are nudged by one unit in the last
    place: what the Reproduce expander says about PyTorch's numbers beside the page's. Trained only
    when a reader opens that expander, so it is not part of :func:`build`."""
    s = v.settings
    runs = nudged(s.target, v.token, s.optimiser, s.lr, s.steps, v.ws.w_query, v.ws.w_key, s.embeddings)
    return script.drift(v.runs, runs, s.mode, v.step)
