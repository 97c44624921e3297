"""The checks of "The whole layer": the book's printed tensors beside this page's stages at the
book's settings (its six tokens; section 3.4's weights for Q and Ω, section 3.5's sa_v2 for the
causal weights), whatever the controls say."""

from __future__ import annotations

from core import book, tokens
from core.weights import section_3_4, section_3_5
from topics.layer import view
from ui import checks

NOTE = (
    "Each quoted number beside this page's own stage at the book's settings, whatever the controls "
    "above say: the book's six tokens, section 3.4's weights (SelfAttention_v1, seed 123) for the "
    "query and the score, section 3.5's sa_v2 (seed 789) for the causal weights."
)


def book_checks() -> list[checks.Check]:
    """Quoted against live, row by row; the live side is the view's stages at the book's settings."""
    v34 = view.build(view.Settings(tokens.TOKENS, tokens.inputs(), section_3_4()))
    v35 = view.build(view.Settings(tokens.TOKENS, tokens.inputs(), section_3_5()))
    q, scores = v34.stage("fig_layer_q").matrix, v34.stage("fig_layer_scores").matrix
    weights = v35.stage("fig_layer_weights").matrix
    s34, s351 = book.SECTION_3_4, book.SECTION_3_5_1
    return [
        checks.exact("query_2 (section 3.4), row 2 of Q", s34["query_2"], q[1], checks.BOOK, "x_2 @ W_query"),
        checks.exact("ω22 (section 3.4), Ω[2, 2]", s34["omega_22"], scores[1, 1], checks.BOOK),
        *(
            checks.exact(f"Causal weights (sa_v2), row {i + 1} of A", quote, weights[i], checks.BOOK)
            for i, quote in enumerate(s351["masked_weights"])
        ),
    ]
