"""Learning to attend's sentences, written from the view's values (issue 24: every sentence true at
every setting).

Each sentence that states a number or a claim is built here from a field of the view's numbers
(:class:`topics.learning.numbers.Numbers`); a claim with a condition is written only when the
numbers say it holds, and its true counterpart otherwise. :func:`topics.learning.view.build` calls
:func:`write` and keeps the result in ``View.prose``, so the page and the tests read the same words.
This module reads the numbers and never the view, so nothing imports back (no import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass

from topics.learning.numbers import Numbers
from topics.learning.reach import MAX_SEARCH_TOKENS, SEARCH, SEARCH_STARTS
from topics.learning.training import MAX_LOSS, UNIFORM_TOL
from ui import format as fmt

md = fmt.md  # a reader's word with every Markdown-active character escaped: shown as typed


@dataclass(frozen=True)
class Prose:
    """Every sentence of the page that states a number or a claim, in the order the page shows them."""

    lead: str = ""
    floor: str | None = None  # the uniform target's entropy floor, when it is above 0
    right: str = ""  # what "a row is right" means here
    at_step: str = ""  # the heading's "at step N": the step the numbers below belong to
    step: str | None = None  # why that step is not the one asked for, when it is not
    cycle: str = ""  # what the proof concludes for this target and sentence
    search: str = ""  # how the search ran
    no_search: str | None = None  # why there is no search, past its token limit
    verdict: tuple[str, ...] = ()
    nearest: str | None = None  # the two tokens a key tells apart least


def _word(v: Numbers, i: int) -> str:
    return f"“{md(v.settings.labels[i])}”"


def _of(k: int, n: int) -> str:
    return f"{k} of {n}"


def lead(v: Numbers) -> str:
    tokens = "token" if v.n == 1 else f"{v.n} tokens"
    return (
        "The recap ended on a complaint: attention without weights has no dial for gradient descent to "
        "turn. Three matrices added the dials. Here they turn. Pick the attention pattern you want the "
        f"{tokens} to have; gradient descent then fits W_q and W_k to it in each of the three modes (no "
        "matrices, tied, three matrices), from the same starting weights, and the curves show how far "
        "each one gets."
    )


def floor(v: Numbers) -> str | None:
    if v.floor <= 0:
        return None
    return (
        f"The uniform target's rows have entropy log {v.n} = {fmt.num(v.floor)}, the lowest "
        "cross-entropy any attention can reach, so the chart draws the cross-entropy above it."
    )


def right(v: Numbers) -> str:
    if not v.single:
        return (
            "The uniform target has no single token per row, so a row is right when every weight is "
            f"within {UNIFORM_TOL} of 1/{v.n}."
        )
    out = "A row is right when its largest weight sits on the target's token"
    if v.repeats:
        out += (
            ", or on a repeat of its word: a repeated word has one embedding, so its keys are one key "
            "and get the same weight, and its rows are one query and attend alike"
        )
    return out + "."


def step(v: Numbers) -> tuple[str, str | None]:
    """The heading's step, and why it differs from the step asked for when it does."""
    s, run = v.settings, v.runs[v.settings.mode]
    asked = min(max(s.step, 0), s.steps)
    note = None
    if run.diverged_at is not None and asked >= run.diverged_at:
        note = (
            f"This mode's run diverged at step {run.diverged_at} (its loss passed {MAX_LOSS:.0e}) and "
            f"stopped there, so the numbers below are its last good state, step {v.step}."
        )
    elif asked != v.step:
        note = (
            f"Weights and attention are recorded every {v.every} steps and at the last, step {s.steps}; "
            f"step {asked} falls between two records, so the numbers below are step {v.step}'s."
        )
    return f"at step {v.step}", note


def _ties(v: Numbers) -> str:
    """Which repeated words ask for several words, and what that costs in every mode."""
    parts = []
    for word, rows, wanted, kept in v.split_words:
        names = ", ".join(_word(v, w) for w in wanted)
        parts.append(
            f"the {rows} rows of {_word(v, word)} ask for {names}, so at most {kept} of them can be right"
        )
    listed = "; ".join(parts)
    return (
        "A repeated word has one embedding, so its rows are one query against the same keys and attend "
        f"alike in every mode: {listed}. That leaves at most **{_of(v.ties_bound or 0, v.n)}** rows "
        "right in any mode, with or without matrices."
    )


def cycle(v: Numbers) -> str:
    """What the Cauchy–Schwarz argument concludes for this target on this sentence."""
    n, bound = v.n, v.tied_bound
    if not v.single or bound is None:
        return "This target has no single token per row, so the argument has nothing to say about it."
    if v.split_words:
        out = _ties(v)
        if bound < (v.ties_bound or n):
            return (
                f"{out} Tied weights must also leave the words' arrows without a cycle, which loses rows "
                f"the ties alone do not: at most **{_of(bound, n)}** rows right, at any width."
            )
        return (
            f"{out} The arrows can be chosen without a cycle, so the argument takes nothing more from "
            f"tied weights: at most **{_of(bound, n)}**."
        )
    among = " (a repeated word is one query, so the arrows run between words)" if v.repeats else ""
    if not v.cycles:
        return (
            f"This target's arrows{among} form no cycle, so the argument rules nothing out: every row "
            "may be reachable with one matrix, if the query lengths can be arranged."
        )
    names = "; ".join(" → ".join(md(v.settings.labels[i]) for i in (*c, c[0])) for c in v.cycles)
    count = "cycle" if len(v.cycles) == 1 else "cycles"
    return (
        f"This target's arrows{among} have {len(v.cycles)} {count} ({names}), so "
        f"tied weights get at most **{_of(bound, n)}** rows right, at any width."
    )


def search(v: Numbers) -> tuple[str, str | None]:
    caption = (
        f"*This run*: the curves above. *Best found*: the most rows over this run and a seeded search "
        f"(Adam, {SEARCH.steps:,} steps at rate {SEARCH.lr}, from {SEARCH_STARTS} starts, the book's "
        "draw first, each trained on the whole target and with each row left out in turn): a lower "
        "bound, not a limit. *Proven*: an upper bound that holds for every matrix of the mode."
    )
    if v.found is not None:
        return caption, None
    return caption, (
        f"The search and the linear program try every subset of rows and every row left out, so they "
        f"run for sentences of up to {MAX_SEARCH_TOKENS} tokens; this one has {v.n}."
    )


def verdict(v: Numbers) -> tuple[str, ...]:
    """Sentences from the evidence: where a run stalls, what width does, what separates the modes."""
    out = []
    n, width, d_in, lp = v.n, v.settings.width, v.d_in, v.reach
    tied, three = v.evidence_of("tied"), v.evidence_of("three")
    here, best, most = tied.this_run, tied.best, tied.most
    if best > here:
        out.append(
            f"The tied run above ends at {_of(here, n)} rows; the search found {_of(best, n)} with one "
            f"matrix, so {_of(here, n)} is where Adam stalls from this start, not what tied weights can do."
        )
    if most is not None and best == most:
        out.append(f"Tied weights: {_of(best, n)} found and at most {most} proven, so exactly {most}.")
    if lp is not None:
        if width >= d_in:
            out.append(
                f"Three matrices at d_out = {width} ≥ d_in = {d_in} can make any score matrix X M Xᵀ, so "
                f"the linear program's {_of(lp.rows, n)} is exactly what they can do at this width."
            )
        elif three.best == lp.rows:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width}, yet the search found "
                f"{_of(three.best, n)}, the most any {d_in} × {d_in} M reaches: the narrow width costs "
                "nothing here."
            )
        else:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width} and the search found "
                f"{_of(three.best, n)}, against {_of(lp.rows, n)} for an unrestricted M. Rank or search: "
                "this does not say which; widen d_out to see what three matrices then reach."
            )
    if most is not None and three.best > most:
        out.append(
            f"This target separates the modes: three matrices get {_of(three.best, n)} rows right "
            f"(found), tied weights at most {most} (proven)."
        )
    return tuple(out)


def nearest(v: Numbers) -> str | None:
    """The two tokens a key tells apart least (``core.sentence.nearest_pair``), in words."""
    if v.nearest is None:
        return None
    p, q, gap = v.nearest
    x = v.settings.embeddings
    seen = f"({fmt.vec(x[p], 2)} and {fmt.vec(x[q], 2)})"
    a, b = md(v.settings.labels[p]), md(v.settings.labels[q])
    if gap == 0:
        return (
            f"{a} and {b} have the same embedding {seen}, so their keys are the same key, and no "
            "matrix can make a token tell them apart: only position embeddings could."
        )
    if gap < 0.1:
        other = "its predecessor" if q == p + 1 else a
        return (
            f"{a} and {b} have almost the same embedding {seen}, so their keys are almost the same key, "
            f"and {b} cannot tell {other} from itself by much."
        )
    return (
        f"The closest two embeddings are {a}'s and {b}'s {seen}, {fmt.num(gap, 2)} apart: the pair a key "
        "tells apart least."
    )


def write(v: Numbers) -> Prose:
    at_step, step_note = step(v)
    caption, no_search = search(v)
    return Prose(
        lead=lead(v),
        floor=floor(v),
        right=right(v),
        at_step=at_step,
        step=step_note,
        cycle=cycle(v),
        search=caption,
        no_search=no_search,
        verdict=verdict(v),
        nearest=nearest(v),
    )
