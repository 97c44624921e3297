"""The tables and prose of "Three matrices", written from its view's numbers.

Where the post is loose (issue #13, item 3) the page says what is true beside it: the weight error
comes from softmax's row denominators ``Σ_j exp(ω_ij/√d_k)``, not from the row sums of ``XXᵀ``
the post cites; "never symmetric" holds for these inputs, not in general; and the same pair reads
differently here and on the Recap because this page divides by ``√d_k``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from topics.three_matrices.view import View
from ui import format as fmt
from ui.sentence import md
from ui.weights import MODE_LABELS

WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count(n: int) -> str:
    """``six``: a count in words up to ten, in figures past it."""
    return WORDS[n] if n < len(WORDS) else f"{n:,}"


def den_text(log_z: float) -> str:
    """A denominator to 2 decimals, or as a power of e where float64 cannot hold it (past e^709)."""
    return fmt.num(float(np.exp(log_z)), 2) if log_z < 709 else f"e^{fmt.num(log_z, 1)}"


def dens_text(log_z: np.ndarray) -> str:
    return ", ".join(den_text(v) for v in log_z)


def count_text(matmuls: int, transposes: int) -> str:
    """``five matrix multiplications and a transpose``: the recorded operations in the post's words."""
    plural = "" if matmuls == 1 else "s"
    tail = "a transpose" if transposes == 1 else f"{count(transposes)} transposes"
    return f"{count(matmuls)} matrix multiplication{plural} and {tail}"


def modes_table(v: View) -> pd.DataFrame:
    """Figure 01's three modes side by side: both errors, one pair of tokens both ways (the post's
    journey and starts for the book's sentence), the denominators."""
    j, s = v.pair
    a, b = v.labels[j], v.labels[s]
    rows = [
        {
            "mode": MODE_LABELS[r.mode],
            "score error": fmt.num(r.score_error),
            "weight error": fmt.num(r.weight_error),
            f"{a} → {b}": fmt.num(r.forward),
            f"{b} → {a}": fmt.num(r.backward),
            "row denominators Σⱼ exp(ωᵢⱼ/√d_k)": f"[{dens_text(r.log_denominators)}]",
        }
        for r in v.modes
    ]
    return pd.DataFrame(rows).set_index("mode")


def when_symmetric(v: View) -> str:
    """Exactly when the weights would be symmetric, and whether these are: the weight error's help."""
    dens = v.log_denominators
    spread = f"here they run from {den_text(dens.min())} to {den_text(dens.max())}"
    if v.mode == "three":
        return (
            "With asymmetric scores, A = Aᵀ needs (ωᵢⱼ − ωⱼᵢ)/√d_k = log Zᵢ − log Zⱼ for every pair, "
            f"where Zᵢ is row i's denominator; {spread}."
        )
    return (
        f"With symmetric scores, A = Aᵀ exactly when all {count(len(dens))} row denominators Zᵢ are "
        f"equal; {spread}."
    )


def denominators_paragraph(v: View) -> str:
    """Why the weights are not symmetric with symmetric scores: the true denominators, the post's sums
    (named as the post's only when the book's sentence is on screen)."""
    none = v.row("none")
    j, s = v.pair
    a, b = v.labels[j], v.labels[s]
    n = len(v.labels)
    e = "e^{\\omega_{ij}/\\sqrt{d_k}}"
    dens = none.log_denominators
    distinct = "all different" if len(np.unique(dens)) == len(dens) else "not all equal"
    if np.all(dens == dens[0]):
        distinct = "all equal"
    return (
        "With symmetric scores the weights are still not symmetric, and the reason is the softmax's "
        f"denominators. It divides row $i$ by $Z_i = \\sum_j {e}$, and "
        f"$A_{{ij}} = {e}/Z_i$ while $A_{{ji}} = {e}/Z_j$ (the scores are symmetric): "
        f"the two agree exactly when $Z_i = Z_j$. With no matrices the {count(n)} denominators are "
        f"{dens_text(dens)}, {distinct}, so the weight error is "
        f"{fmt.num(none.weight_error)}. Inputs whose denominators were all equal "
        'would give a weight error of exactly 0: not symmetric "in any mode" is a fact about these '
        f"{count(n)} tokens, not about attention.\n\n"
        "The post explains the same error with the row sums of $XX^{\\top}$, "
        f"{fmt.vec(v.row_sums)[1:-1]} ("
        + ("the post's numbers, and correct as sums" if v.is_book else "here for your sentence")
        + "). They are sums of scores, not what the softmax divides by: the right conclusion from the "
        "wrong quantity.\n\n"
        f"With no matrices, {md(a)} gives {md(b)} **{fmt.num(none.forward)}** here but "
        f"**{fmt.num(v.recap_forward)}** on the Recap. Same inputs, same scores: this page divides every "
        f"mode's scores by √d_k = {fmt.num(v.trace.divisor)} before the softmax, as section 3.4 does, while "
        "the Recap follows section 3.3, which has no divisor. Dividing narrows the gaps between scores, "
        "which flattens each row's softmax toward uniform."
    )


def ops_table(v: View) -> pd.DataFrame:
    """The operations the forward pass ran, in order, with their shapes and multiply-adds."""
    return pd.DataFrame(
        {
            "operation": [op.code for op in v.ops],
            "kind": [op.kind for op in v.ops],
            "result": [" × ".join(str(d) for d in op.shape) for op in v.ops],
            "multiply-adds": [f"{op.macs:,}" if op.kind == "matmul" else "0 (metadata)" for op in v.ops],
        },
        index=range(1, len(v.ops) + 1),
    )
