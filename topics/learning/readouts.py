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

from typing import Any

import pandas as pd
import streamlit as st

from topics.learning.view import View
from ui import format as fmt
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
    """4 decimals, or scientific below 1e-3: Adam drives easy targets to 1e-5 and below. A loss of
    exactly 0 (one token: its one weight is its target) prints as 0.0000."""
    return fmt.num(v) if v >= 1e-3 or v == 0 else fmt.sci(v, 1)


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


PROOF = (
    "Draw an arrow from each token to the token it should attend to most (tokens that attend to "
    "themselves get none). Under tying every arrow must point to a strictly longer query, so arrows "
    "that come back round, a cycle, are out of reach: the first query would have to be longer than "
    "itself. At least one row of every cycle is wrong, at any width, divisor or not. For two tokens "
    "this is $\\Omega_{ij}^2 \\le \\Omega_{ii}\\,\\Omega_{jj}$: no two tokens can each attend to "
    "the other more than to themselves. That is all the proof forbids."
)


def limits_section(v: View, table: Any) -> None:
    """The proof for tied weights, the evidence per mode (``table``: :func:`evidence_table`, as
    kept in Arrow), and the sentences computed from it."""
    st.header("What each mode can reach")
    st.markdown(
        "Tie W_k to W_q and every score is a dot product of two queries, $\\Omega_{ij} = q_i \\cdot q_j$. "
        "Token $i$ attends most to another token $j$ only if $q_i\\cdot q_j > q_i\\cdot q_i = |q_i|^2$, "
        "and the Cauchy–Schwarz inequality caps the left side:"
    )
    st.latex(
        r"q_i \cdot q_j \;\le\; |q_i|\,|q_j| \quad\Longrightarrow\quad "
        r"q_i\cdot q_j > |q_i|^2 \text{ only if } |q_j| > |q_i|"
    )
    st.markdown(f"{PROOF} {v.prose.cycle}")
    st.dataframe(table, width="stretch")
    st.caption(v.prose.search)
    if v.prose.no_search is not None:
        st.caption(v.prose.no_search)
    if v.prose.verdict:  # none at the uniform target, or past the search's token limit
        st.markdown("\n\n".join(v.prose.verdict))


def gradient_section() -> None:
    """The loss and its gradient written out, as :func:`topics.learning.training.loss_and_grad` has them."""
    st.header("The loss and its gradient, by hand")
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
