"""The checks of "Three matrices": every number the post prints for its three modes and the book
prints for sections 3.4 and 3.5, beside the view's live value at the book's settings."""

from __future__ import annotations

from core import book
from topics.three_matrices.readouts import count_text
from topics.three_matrices.view import BookNumbers
from ui import checks

NOTE = (
    "Each quoted number beside this page's own value at the book's settings, whatever the controls "
    "above say: the book's six tokens, section 3.4's weights (SelfAttention_v1, seed 123), and "
    "section 3.5's sa_v2 (SelfAttention_v2, seed 789) for its outputs. The quotes come from the post, "
    "the book, and, for the softmax denominators, this page's own computation (computed here: the "
    "row's note says how)."
)


def book_checks(b: BookNumbers) -> list[checks.Check]:
    """Quoted against live, row by row; the live side is ``b``, computed by the view."""
    f01, quoted, post = book.FIGURE_01, book.SECTION_3_4, checks.POST
    return [
        checks.exact("Score error, no matrices", f01["score_error_none"], b.score_error_none, post),
        checks.exact("Score error, tied W_q = W_k", f01["score_error_tied"], b.score_error_tied, post),
        checks.exact(
            "Row sums of XXᵀ",
            f01["row_sums"],
            b.row_sums,
            post,
            note="The post's explanation of the weight error; softmax divides by the denominators below",
        ),
        checks.exact(
            "Softmax denominators Σⱼ exp(ωᵢⱼ/√2), no matrices",
            book.COMPUTED["denominators_none"],
            b.denominators_none,
            checks.HERE,
            note=(
                "Computed here: exp(xᵢ·xⱼ/√2) summed over j for each of the book's six inputs, no "
                "matrices; the quote is PyTorch's sum to 2 decimals, the live value NumPy's in float64. "
                "Softmax divides row i by it, so the weights are symmetric only if all six are equal"
            ),
        ),
        checks.exact("Weight error, no matrices", f01["weight_error_none"], b.weight_error_none, post),
        checks.exact("journey → starts, no matrices", f01["journey_to_starts"], b.journey_to_starts, post),
        checks.exact("starts → journey, no matrices", f01["starts_to_journey"], b.starts_to_journey, post),
        checks.same(
            "Operations in the forward pass, three matrices",
            f01["five_ops"],
            count_text(b.three_matmuls, b.three_transposes),
            post,
            note="Counted as the forward runs: 3 projections, Kᵀ, QKᵀ, AV",
        ),
        checks.exact("query_2 (section 3.4)", quoted["query_2"], b.query_2, checks.BOOK, "x_2 @ W_query"),
        checks.exact("ω22", quoted["omega_22"], b.omega_22, checks.BOOK, "query_2.dot(keys[1])"),
        checks.exact("attn_weights_2", quoted["attn_weights_2"], b.attn_weights_2, checks.BOOK),
        checks.exact("context_vec_2", quoted["context_vec_2"], b.context_vec_2, checks.BOOK),
        *(
            checks.exact(
                f"SelfAttention_v1 output, row {i + 1}", q, b.sa_v1_output[i], checks.BOOK, "seed 123"
            )
            for i, q in enumerate(quoted["sa_v1_output"])
        ),
        *(
            checks.exact(
                f"SelfAttention_v2 output, row {i + 1}", q, b.sa_v2_output[i], checks.BOOK, "seed 789"
            )
            for i, q in enumerate(book.SECTION_3_5["sa_v2_output"])
        ),
    ]
