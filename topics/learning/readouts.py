"""Learning to attend's readouts: the runs' table, and what each mode can reach, written from the view.

Issue 13, item 4: the tied mode's 2 of 6 on the previous-token target is where Adam stalls from
the book's start, not what one matrix can do. The page puts three kinds of evidence side by side,
each labelled for what it is: the run on screen, the best of a seeded search
(:func:`topics.learning.reach.search`, a lower bound), and what is proven (Cauchy–Schwarz for tied
weights, a linear program over every ``M`` for three matrices,
:func:`topics.learning.reach.linear_reach`). Every number here is a field of
:class:`topics.learning.view.View`; this module only writes them out.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from topics.learning.reach import MAX_SEARCH_TOKENS, SEARCH, SEARCH_STARTS
from topics.learning.view import View
from ui import format as fmt
from ui.sentence import md
from ui.weights import MODE_LABELS

# The controls' options as the page names them; the label is also what a share link carries.
TARGET_LABELS = {
    "previous": "Previous token",
    "first": "First token",
    "last": "Last token",
    "token": "A token you pick",
    "uniform": "Uniform",
    "pair": "Tokens 1 ↔ 2, others themselves",
    "swaps": "Three pairs swapped",
}
OPTIMISER_LABELS = {"adam": "Adam", "gd": "Gradient descent"}


def loss_text(v: float) -> str:
    """4 decimals, or scientific below 1e-3: Adam drives easy targets to 1e-5 and below."""
    return fmt.num(v) if v >= 1e-3 else fmt.sci(v, 1)


def run_table(v: View) -> pd.DataFrame:
    """Each mode's run: loss at both ends, rows right and still wrong, where it diverged."""
    labels = v.settings.labels
    rows = [
        {
            "mode": MODE_LABELS[r.mode],
            "loss at step 0": loss_text(r.first_loss),
            f"loss at step {v.settings.steps}": loss_text(r.last_loss),
            "rows right": f"{r.rows} of {v.n}",
            "rows still wrong": ", ".join(t for t, ok in zip(labels, r.right, strict=True) if not ok)
            or "none",
            "diverged at step": "" if r.diverged_at is None else str(r.diverged_at),
        }
        for r in v.table
    ]
    return pd.DataFrame(rows).set_index("mode")


def evidence_table(v: View) -> pd.DataFrame:
    """The evidence per mode: this run, the best known and where from, the proven bound and why."""
    rows = [
        {
            "mode": MODE_LABELS[e.mode],
            "this run": f"{e.this_run} of {v.n}",
            "best found": f"{e.best} of {v.n}",
            "found by": e.found_by,
            "proven: at most": "—" if e.most is None else f"{e.most} of {v.n}",
            "proof": e.proof or "none known",
        }
        for e in v.evidence
    ]
    return pd.DataFrame(rows).set_index("mode")


def cycle_text(v: View) -> str:
    """The target's cycles in words, with what the proof concludes for tied weights."""
    if not v.single:
        return "This target has no single token per row, so the argument has nothing to say about it."
    if not v.cycles:
        return (
            "This target's arrows form no cycle, so the argument rules nothing out: every row may be "
            "reachable with one matrix, if the query lengths can be arranged."
        )
    labels = v.settings.labels
    names = "; ".join(" → ".join(md(labels[i]) for i in (*c, c[0])) for c in v.cycles)
    count = "cycle" if len(v.cycles) == 1 else "cycles"
    return (
        f"This target's arrows have {len(v.cycles)} {count} ({names}), so "
        f"tied weights get at most **{v.tied_bound} of {v.n}** rows right, at any width."
    )


def verdict(v: View) -> list[str]:
    """Sentences from the evidence: where a run stalls, what width does, what separates the modes."""
    out = []
    n, width, d_in, lp = v.n, v.settings.width, v.d_in, v.reach
    tied, three = v.evidence_of("tied"), v.evidence_of("three")
    here, best, most = tied.this_run, tied.best, tied.most
    if best > here:
        out.append(
            f"The tied run above ends at {here} of {n} rows; the search found {best} of {n} with one "
            f"matrix, so {here} of {n} is where Adam stalls from this start, not what tied weights can do."
        )
    if most is not None and best == most:
        out.append(f"Tied weights: {best} of {n} found and at most {most} proven, so exactly {most}.")
    if lp is not None:
        if width >= d_in:
            out.append(
                f"Three matrices at d_out = {width} ≥ d_in = {d_in} can make any score matrix X M Xᵀ, so "
                f"the linear program's {lp.rows} of {n} is exactly what they can do at this width."
            )
        elif three.best == lp.rows:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width}, yet the search found "
                f"{three.best} of {n}, the most any {d_in} × {d_in} M reaches: the narrow width costs "
                "nothing here."
            )
        else:
            out.append(
                f"At d_out = {width}, M = W_q W_kᵀ has rank at most {width} and the search found "
                f"{three.best} of {n}, against {lp.rows} of {n} for an unrestricted M. Rank or search: "
                "this does not say which; widen d_out to see what three matrices then reach."
            )
    if most is not None and three.best > most:
        out.append(
            f"This target separates the modes: three matrices get {three.best} of {n} rows right "
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


def limits_section(v: View) -> None:
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
    st.markdown(f"{PROOF} {cycle_text(v)}")
    st.dataframe(evidence_table(v), width="stretch")
    st.caption(
        f"*This run*: the curves above. *Best found*: the most rows over this run and a seeded search "
        f"(Adam, {SEARCH.steps:,} steps at rate {SEARCH.lr}, from "
        f"{SEARCH_STARTS} starts, the book's draw first, each trained on the whole target and "
        "with each row left out in turn): a lower bound, not a limit. *Proven*: an upper bound that "
        "holds for every matrix of the mode."
    )
    if v.found is None:
        st.caption(
            f"The search and the linear program try every subset of rows and every row left out, so they "
            f"run for sentences of up to {MAX_SEARCH_TOKENS} tokens; this one has {v.n}."
        )
    st.markdown("\n\n".join(verdict(v)))


def nearest_pair_text(v: View) -> str | None:
    """The two tokens a key tells apart least (``core.sentence.nearest_pair``), in words."""
    if v.nearest is None:
        return None
    p, q, gap = v.nearest
    x, labels = v.settings.embeddings, v.settings.labels
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


def gradient_section() -> None:
    """The loss and its gradient written out, as :func:`topics.learning.training.loss_and_grad` has them."""
    st.subheader("The loss and its gradient, by hand")
    st.latex(
        r"L = -\frac{1}{n}\sum_{i,j} T_{ij}\,\log A_{ij},\qquad "
        r"A = \mathrm{softmax}\!\left(\frac{XW_q(XW_k)^{\top}}{\sqrt{d_k}}\right)"
    )
    st.latex(
        r"\frac{\partial L}{\partial \Omega} = \frac{A - T}{n\sqrt{d_k}},\quad "
        r"\frac{\partial L}{\partial W_q} = X^{\top}\frac{\partial L}{\partial \Omega}XW_k,\quad "
        r"\frac{\partial L}{\partial W_k} = X^{\top}\Big(\frac{\partial L}{\partial \Omega}\Big)^{\!\top}XW_q"
    )
    st.caption(
        "Tied: one matrix on both paths, so its gradient is the sum of the two. No matrices: no "
        "gradient at all, a flat line. Checked against finite differences and PyTorch's autograd."
    )
