"""Learning to attend's readouts: the runs' table, and what each mode can reach.

Issue 13, item 4: the tied mode's 2 of 6 on the previous-token target is where Adam stalls from
the book's start, not what one matrix can do. This module puts three kinds of evidence side by
side, each labelled for what it is: the run on screen, the best of a seeded search
(:func:`core.search`, a lower bound), and what is proven (Cauchy–Schwarz for tied
weights, a linear program over every ``M`` for three matrices, :func:`core.linear_reach`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from core import attention, book, tokens, weights
from core.weights import WeightSet, init_weights
from topics.learning import training as learning
from topics.learning.reach import (
    MAX_SEARCH_TOKENS,
    SEARCH,
    SEARCH_STARTS,
    Found,
    Reach,
    attends_most_to,
    cycles,
    linear_reach,
    search,
    tied_row_bound,
)
from topics.learning.training import Trajectory
from ui import cache, checks
from ui import format as fmt
from ui.cache import KB
from ui.sentence import md
from ui.weights import MODE_LABELS

WIDTHS = (1, 2, 3, 4, 5, 6)  # d_out on offer; the book's d_in = 3, so 3 and up realise every M
SEARCH_SPINNER = (
    f"Searching: Adam from {SEARCH_STARTS} starts per mode, each row left out of the loss "
    "in turn, and a linear program over every d_in × d_in M…"
)


def widen(ws: WeightSet, width: int) -> WeightSet:
    """The weight set's seed and initialisation drawn at ``(d_in, width)``; the book's own at width 2."""
    if width == ws.w_query.shape[1]:
        return ws
    wide = init_weights(ws.seed, ws.init, ws.w_query.shape[0], width)
    return WeightSet(
        f"{ws.label}, drawn at width {width}", ws.seed, ws.init, wide.w_query, wide.w_key, wide.w_value
    )


# The search and linear program, for up to MAX_SEARCH_TOKENS tokens: 7.1 KB at 8 × 16.
@cache.data(
    entry_bytes=16 * KB,
    entries=32,
    worst=lambda: [("previous", 0, 6, cache.largest_sentence()[1][:MAX_SEARCH_TOKENS])],
    show_spinner=SEARCH_SPINNER,
)
def limits(kind: str, token: int, width: int, x: np.ndarray) -> tuple[dict[str, Found] | None, Reach | None]:
    """The search's best per mode at ``width`` and the linear program's reach on inputs ``x``
    (cached: ~0.5 s for the book's six tokens); neither past ``MAX_SEARCH_TOKENS``."""
    if len(x) > MAX_SEARCH_TOKENS:
        return None, None
    target = learning.target_pattern(kind, len(x), token)  # type: ignore[arg-type]
    return dict(search(x, target, width)), linear_reach(x, target)


def loss_text(v: float) -> str:
    """4 decimals, or scientific below 1e-3: Adam drives easy targets to 1e-5 and below."""
    return fmt.num(v) if v >= 1e-3 else fmt.sci(v, 1)


def run_table(
    runs: Mapping[str, Trajectory], target: np.ndarray, steps: int, labels: Sequence[str]
) -> pd.DataFrame:
    """Each mode's run: loss at both ends, rows right and still wrong, where it diverged."""
    rows = []
    for m, r in runs.items():
        right = learning.rows_right(r.attention[-1], target)
        rows.append(
            {
                "mode": MODE_LABELS[m],
                "loss at step 0": loss_text(r.losses[0]),
                f"loss at step {steps}": loss_text(r.losses[-1]),
                "rows right": f"{right.sum()} of {len(labels)}",
                "rows still wrong": ", ".join(t for t, ok in zip(labels, right, strict=True) if not ok)
                or "none",
                "diverged at step": "" if r.diverged_at is None else str(r.diverged_at),
            }
        )
    return pd.DataFrame(rows).set_index("mode")


def _names(rows: tuple[int, ...], labels: Sequence[str]) -> str:
    return ", ".join(f"“{labels[r]}”" for r in rows)


@dataclass(frozen=True)
class Best:
    """One mode's best known result and where it came from."""

    rows: int
    how: str


def best_known(
    mode: str,
    run_rows: int,
    found: Found | None,
    reach: Reach | None,
    width: int,
    labels: Sequence[str],
    d_in: int,
) -> Best:
    """The most rows right known for ``mode``: this run, the search, or the linear program's witness."""
    if mode == "none":
        return Best(run_rows, "no dials: the only value")
    if found is None:  # a sentence too long for the search
        return Best(run_rows, f"this run (no search past {MAX_SEARCH_TOKENS} tokens)")
    rows = "row" if len(found.ignored) == 1 else "rows"
    ignored = f", {rows} {_names(found.ignored, labels)} left out of the loss" if found.ignored else ""
    best = Best(run_rows, "this run")
    if found.rows > best.rows:
        best = Best(found.rows, f"search: start {found.start + 1} of {SEARCH_STARTS}{ignored}")
    if mode == "three" and reach is not None and width >= d_in and reach.rows > best.rows:
        best = Best(reach.rows, "the linear program's witness, W_q = M, W_k = I")
    return best


def bound(mode: str, run_rows: int, target, reach: Reach | None, d_in: int) -> tuple[int | None, str]:
    """The proven most rows for ``mode`` and the reason, or ``None`` when nothing is proven."""
    if mode == "none":
        return run_rows, "XXᵀ has no dials"
    if mode == "tied":
        b = tied_row_bound(target)
        return b, ("Cauchy–Schwarz: one row of every cycle is lost" if b is not None else "")
    return (reach.rows, f"linear program over every {d_in} × {d_in} M") if reach is not None else (None, "")


def table(
    runs: Mapping[str, Trajectory],
    target,
    found: Mapping[str, Found] | None,
    reach: Reach | None,
    width: int,
    labels: Sequence[str],
    d_in: int,
) -> tuple[pd.DataFrame, dict[str, tuple[int, int, int | None]]]:
    """The evidence per mode, and (this run, best known, proven bound) for the prose."""
    rows, numbers, n = [], {}, len(labels)
    for mode, run in runs.items():
        here = int(learning.rows_right(run.attention[-1], target).sum())
        best = best_known(mode, here, found[mode] if found else None, reach, width, labels, d_in)
        most, why = bound(mode, here, target, reach, d_in)
        numbers[mode] = (here, best.rows, most)
        rows.append(
            {
                "mode": MODE_LABELS[mode],
                "this run": f"{here} of {n}",
                "best found": f"{best.rows} of {n}",
                "found by": best.how,
                "proven: at most": "—" if most is None else f"{most} of {n}",
                "proof": why or "none known",
            }
        )
    return pd.DataFrame(rows).set_index("mode"), numbers


def cycle_text(target, labels: Sequence[str]) -> str:
    """The target's cycles in words, with what the proof concludes for tied weights."""
    cyc = cycles(target)
    if attends_most_to(target).min() < 0:
        return "This target has no single token per row, so the argument has nothing to say about it."
    if not cyc:
        return (
            "This target's arrows form no cycle, so the argument rules nothing out: every row may be "
            "reachable with one matrix, if the query lengths can be arranged."
        )
    names = "; ".join(" → ".join(md(labels[i]) for i in (*c, c[0])) for c in cyc)
    b = tied_row_bound(target)
    return (
        f"This target's arrows have {len(cyc)} {'cycle' if len(cyc) == 1 else 'cycles'} ({names}), so "
        f"tied weights get at most **{b} of {len(labels)}** rows right, at any width."
    )


def verdict(
    numbers: Mapping[str, tuple[int, int, int | None]], reach: Reach | None, width: int, n: int, d_in: int
) -> list[str]:
    """Sentences computed from the evidence: where a run stalls, what width does, what separates."""
    out = []
    here, best, most = numbers["tied"]
    if best > here:
        out.append(
            f"The tied run above ends at {here} of {n} rows; the search found {best} of {n} with one "
            f"matrix, so {here} of {n} is where Adam stalls from this start, not what tied weights can do."
        )
    if most is not None and best == most:
        out.append(f"Tied weights: {best} of {n} found and at most {most} proven, so exactly {most}.")
    _, t_best, _ = numbers["three"]
    if reach is not None:
        if width >= d_in:
            out.append(
                f"Three matrices at d_out = {width} ≥ d_in = {d_in} can make any score matrix X M Xᵀ, so "
                f"the linear program's {reach.rows} of {n} is exactly what they can do at this width."
            )
        elif t_best == reach.rows:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width}, yet the search found "
                f"{t_best} of {n}, the most any {d_in} × {d_in} M reaches: the narrow width costs "
                "nothing here."
            )
        else:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width} and the search found "
                f"{t_best} of {n}, against {reach.rows} of {n} for an unrestricted M. Rank or search: "
                "this does not say which; widen d_out to see what three matrices then reach."
            )
    if most is not None and t_best > most:
        out.append(
            f"This target separates the modes: three matrices get {t_best} of {n} rows right "
            f"(found), tied weights at most {most} (proven)."
        )
    return out


PROOF = (
    "Draw an arrow from each token to the token it should attend to most (tokens that attend to "
    "themselves get none). Under tying every arrow must point to a strictly longer query, so arrows "
    "that come back round, a cycle, are out of reach: the first query would have to be longer than "
    "itself. At least one row of every cycle is wrong, at any width, divisor or not. For two tokens "
    "this is $\\Omega_{ij}^2 \\le \\Omega_{ii}\\,\\Omega_{jj}$: no two tokens can each attend to "
    "the other more than to themselves. That is all the proof forbids."
)


def limits_section(
    runs: Mapping[str, Trajectory],
    target: np.ndarray,
    kind: str,
    token: int,
    width: int,
    x: np.ndarray,
    labels: Sequence[str],
) -> None:
    """The proof for tied weights, the evidence per mode, and the sentences computed from it."""
    st.subheader("What each mode can reach")
    st.markdown(
        "Tie W_k to W_q and every score is a dot product of two queries, $\\Omega_{ij} = q_i \\cdot q_j$. "
        "Token $i$ attends most to another token $j$ only if $q_i\\cdot q_j > q_i\\cdot q_i = |q_i|^2$, "
        "and the Cauchy–Schwarz inequality caps the left side:"
    )
    st.latex(
        r"q_i \cdot q_j \;\le\; |q_i|\,|q_j| \quad\Longrightarrow\quad "
        r"q_i\cdot q_j > |q_i|^2 \text{ only if } |q_j| > |q_i|"
    )
    st.markdown(f"{PROOF} {cycle_text(target, labels)}")
    found, reach = limits(kind, token, width, x)
    d_in = x.shape[1]
    evidence, numbers = table(runs, target, found, reach, width, labels, d_in)
    st.dataframe(evidence, width="stretch")
    st.caption(
        f"*This run*: the curves above. *Best found*: the most rows over this run and a seeded search "
        f"(Adam, {SEARCH.steps:,} steps at rate {SEARCH.lr}, from "
        f"{SEARCH_STARTS} starts, the book's draw first, each trained on the whole target and "
        "with each row left out in turn): a lower bound, not a limit. *Proven*: an upper bound that "
        "holds for every matrix of the mode."
    )
    if found is None:
        st.caption(
            f"The search and the linear program try every subset of rows and every row left out, so they "
            f"run for sentences of up to {MAX_SEARCH_TOKENS} tokens; this one has {len(labels)}."
        )
    st.markdown("\n\n".join(verdict(numbers, reach, width, len(labels), d_in)))


def nearest_pair_text(x: np.ndarray, labels: Sequence[str], p: int, q: int, gap: float) -> str:
    """The two tokens a key tells apart least (``core.sentence.nearest_pair``), in words."""
    seen = f"({fmt.vec(x[p], 2)} and {fmt.vec(x[q], 2)})"
    a, b = md(labels[p]), md(labels[q])
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


CHECKS_NOTE = (
    "Quoted: the post's recap and figure 01, and PyTorch's print of the book's section 3.4 code. "
    "Live: this run's trajectories, and the section 3.4 start at the book's width whatever the "
    "controls say."
)


def book_checks(runs: Mapping[str, Trajectory], steps: int) -> list[checks.Check]:
    """The quoted numbers this page can reproduce, beside the live ones."""
    v1 = weights.section_3_4()
    x = tokens.inputs()
    none, tied = runs["none"], runs["tied"]
    j, s = tokens.TOKENS.index("journey"), tokens.TOKENS.index("starts")
    return [
        checks.exact(
            "Score error, tied W_q = W_k, worst recorded step of this run",
            book.FIGURE_01["score_error_tied"],
            max(attention.asymmetry_error(o) for o in tied.scores),
            source=checks.POST,
        ),
        checks.exact(
            "Score error, no matrices",
            book.FIGURE_01["score_error_none"],
            attention.asymmetry_error(none.scores[0]),
            source=checks.POST,
        ),
        checks.exact(
            "Weight error, no matrices, divided by √2 as figure 01 does",
            book.FIGURE_01["weight_error_none"],
            attention.asymmetry_error(learning.attention(x, v1.w_query, v1.w_key, "none")),
            source=checks.POST,
        ),
        checks.exact(
            "Raw affinity journey–starts, no matrices, at the last step",
            book.RECAP["affinity_journey_starts"],
            none.scores[none.at(steps), j, s],
            source=checks.POST,
            note="the post's recap; no dial: it never moves",
        ),
        checks.exact(
            "attn_weights_2 at step 0, three matrices, section 3.4 weights",
            book.SECTION_3_4["attn_weights_2"],
            learning.attention(x, v1.w_query, v1.w_key, "three")[1],
            source=checks.BOOK_CODE,
        ),
    ]
