"""Readouts and checks of "Three matrices" (figure 01), computed from the controls.

Where the post is loose (issue #13, item 3) the page says what is true beside it: the weight error
comes from softmax's row denominators ``Σ_j exp(ω_ij/√d_k)``, not from the row sums of ``XXᵀ``
the post cites; "never symmetric" holds for these inputs, not in general; and the same pair reads
differently here and on the Recap because this page divides by ``√d_k``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core import attention, book, tokens, weights
from core.attention import AttentionTrace
from core.weights import WeightSet
from ui import checks
from ui import format as fmt
from ui.sentence import md
from ui.weights import MODE_LABELS

T = tokens.TOKENS
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def denominators(tr: AttentionTrace) -> np.ndarray:  # -> [n]
    """What softmax divides each row by in this trace, as its natural log: ``log Σ_j exp(ω_ij / divisor)``
    (finite even where the sum itself overflows float64)."""
    return attention.log_softmax_denominators(tr.scores, tr.divisor)


def den_text(log_z: float) -> str:
    """A denominator to 2 decimals, or as a power of e where float64 cannot hold it (past e^709)."""
    return fmt.num(float(np.exp(log_z)), 2) if log_z < 709 else f"e^{fmt.num(log_z, 1)}"


def dens_text(log_z: np.ndarray) -> str:
    return ", ".join(den_text(v) for v in log_z)


def modes_table(x: np.ndarray, ws: WeightSet, labels: Sequence[str], pair: tuple[int, int]) -> pd.DataFrame:
    """Figure 01's three modes side by side: both errors, one pair of tokens both ways (the post's
    journey and starts for the book's sentence), the denominators."""
    j, s = pair
    a, b = labels[j], labels[s]
    rows = []
    for m in attention.MODES:
        t = attention.attention_in_mode(x, ws, m)
        rows.append(
            {
                "mode": MODE_LABELS[m],
                "score error": fmt.num(attention.asymmetry_error(t.scores)),
                "weight error": fmt.num(attention.asymmetry_error(t.weights)),
                f"{a} → {b}": fmt.num(t.weights[j, s]),
                f"{b} → {a}": fmt.num(t.weights[s, j]),
                "row denominators Σⱼ exp(ωᵢⱼ/√d_k)": f"[{dens_text(denominators(t))}]",
            }
        )
    return pd.DataFrame(rows).set_index("mode")


def when_symmetric(tr: AttentionTrace, mode: str) -> str:
    """Exactly when the weights would be symmetric, and whether these are: the weight error's help."""
    dens = denominators(tr)
    spread = f"here they run from {den_text(dens.min())} to {den_text(dens.max())}"
    if mode == "three":
        return (
            "With asymmetric scores, A = Aᵀ needs (ωᵢⱼ − ωⱼᵢ)/√d_k = log Zᵢ − log Zⱼ for every pair, "
            f"where Zᵢ is row i's denominator; {spread}."
        )
    return (
        f"With symmetric scores, A = Aᵀ exactly when all {_count(len(dens))} row denominators Zᵢ are "
        f"equal; {spread}."
    )


def denominators_paragraph(
    x: np.ndarray, ws: WeightSet, labels: Sequence[str], pair: tuple[int, int], is_book: bool
) -> str:
    """Why the weights are not symmetric with symmetric scores: the true denominators, the post's sums
    (named as the post's only when the book's sentence is on screen)."""
    none = attention.attention_in_mode(x, ws, "none")
    j, s = pair
    a, b = labels[j], labels[s]
    recap = attention.attention_without_weights(x)
    n = len(labels)
    e = "e^{\\omega_{ij}/\\sqrt{d_k}}"
    dens = denominators(none)
    distinct = "all different" if len(np.unique(dens)) == len(dens) else "not all equal"
    if np.all(dens == dens[0]):
        distinct = "all equal"
    return (
        "With symmetric scores the weights are still not symmetric, and the reason is the softmax's "
        f"denominators. It divides row $i$ by $Z_i = \\sum_j {e}$, and "
        f"$A_{{ij}} = {e}/Z_i$ while $A_{{ji}} = {e}/Z_j$ (the scores are symmetric): "
        f"the two agree exactly when $Z_i = Z_j$. With no matrices the {_count(n)} denominators are "
        f"{dens_text(dens)}, {distinct}, so the weight error is "
        f"{fmt.num(attention.asymmetry_error(none.weights))}. Inputs whose denominators were all equal "
        'would give a weight error of exactly 0: not symmetric "in any mode" is a fact about these '
        f"{_count(n)} tokens, not about attention.\n\n"
        "The post explains the same error with the row sums of $XX^{\\top}$, "
        f"{fmt.vec(none.scores.sum(axis=1))[1:-1]} ("
        + ("the post's numbers, and correct as sums" if is_book else "here for your sentence")
        + "). They are sums of scores, not what the softmax divides by: the right conclusion from the "
        "wrong quantity.\n\n"
        f"With no matrices, {md(a)} gives {md(b)} **{fmt.num(none.weights[j, s])}** here but "
        f"**{fmt.num(recap.weights[j, s])}** on the Recap. Same inputs, same scores: this page divides every "
        f"mode's scores by √d_k = {fmt.num(none.divisor)} before the softmax, as section 3.4 does, while the "
        "Recap follows section 3.3, which has no divisor. Dividing narrows the gaps between scores, "
        "which flattens each row's softmax toward uniform."
    )


def _count(n: int) -> str:
    return WORDS[n] if n < len(WORDS) else f"{n:,}"


def count_text(tr: AttentionTrace) -> str:
    """``five matrix multiplications and a transpose``: the recorded operations in the post's words."""
    matmuls, transposes = tr.count("matmul"), tr.count("transpose")
    words = lambda k: WORDS[k] if k < len(WORDS) else f"{k:,}"  # noqa: E731
    plural = "" if matmuls == 1 else "s"
    tail = "a transpose" if transposes == 1 else f"{words(transposes)} transposes"
    return f"{words(matmuls)} matrix multiplication{plural} and {tail}"


def ops_table(tr: AttentionTrace) -> pd.DataFrame:
    """The operations the forward pass ran, in order, with their shapes and multiply-adds."""
    return pd.DataFrame(
        {
            "operation": [op.code for op in tr.ops],
            "kind": [op.kind for op in tr.ops],
            "result": [" × ".join(str(d) for d in op.shape) for op in tr.ops],
            "multiply-adds": [f"{op.macs:,}" if op.kind == "matmul" else "0 (metadata)" for op in tr.ops],
        },
        index=range(1, len(tr.ops) + 1),
    )


def book_checks(x: np.ndarray) -> list[checks.Check]:
    """Every number the post and the book print for figure 01, at the book's settings."""
    v1 = weights.section_3_4()
    none_v1, tied_v1, three_v1 = (attention.attention_in_mode(x, v1, m) for m in ("none", "tied", "three"))
    sa_v1 = attention.self_attention(x, v1)
    sa_v2 = attention.self_attention(x, weights.section_3_5())
    j, s = T.index("journey"), T.index("starts")
    f01, quoted, post = book.FIGURE_01, book.SECTION_3_4, checks.POST
    return [
        checks.exact(
            "Score error, no matrices",
            f01["score_error_none"],
            attention.asymmetry_error(none_v1.scores),
            post,
        ),
        checks.exact(
            "Score error, tied W_q = W_k",
            f01["score_error_tied"],
            attention.asymmetry_error(tied_v1.scores),
            post,
        ),
        checks.exact(
            "Row sums of XXᵀ",
            f01["row_sums"],
            none_v1.scores.sum(axis=1),
            post,
            note="The post's explanation of the weight error; softmax divides by the denominators below",
        ),
        checks.exact(
            "Softmax denominators Σⱼ exp(ωᵢⱼ/√2), no matrices",
            book.AUDIT["denominators_none"],
            np.exp(denominators(none_v1)),
            checks.AUDIT,
            note="What each row is divided by: the weights are symmetric only if all six are equal",
        ),
        checks.exact(
            "Weight error, no matrices",
            f01["weight_error_none"],
            attention.asymmetry_error(none_v1.weights),
            post,
        ),
        checks.exact("journey → starts, no matrices", f01["journey_to_starts"], none_v1.weights[j, s], post),
        checks.exact("starts → journey, no matrices", f01["starts_to_journey"], none_v1.weights[s, j], post),
        checks.same(
            "Operations in the forward pass, three matrices",
            f01["five_ops"],
            count_text(three_v1),
            post,
            note="Counted as the forward runs: 3 projections, Kᵀ, QKᵀ, AV",
        ),
        checks.exact(
            "query_2 (section 3.4)", quoted["query_2"], sa_v1.queries[1], checks.BOOK, "x_2 @ W_query"
        ),
        checks.exact("ω22", quoted["omega_22"], sa_v1.scores[1, 1], checks.BOOK, "query_2.dot(keys[1])"),
        checks.exact("attn_weights_2", quoted["attn_weights_2"], sa_v1.weights[1], checks.BOOK),
        checks.exact("context_vec_2", quoted["context_vec_2"], sa_v1.context[1], checks.BOOK),
        *(
            checks.exact(
                f"SelfAttention_v1 output, row {i + 1}", q, sa_v1.context[i], checks.BOOK, "seed 123"
            )
            for i, q in enumerate(quoted["sa_v1_output"])
        ),
        *(
            checks.exact(
                f"SelfAttention_v2 output, row {i + 1}", q, sa_v2.context[i], checks.BOOK, "seed 789"
            )
            for i, q in enumerate(book.SECTION_3_5["sa_v2_output"])
        ),
    ]
