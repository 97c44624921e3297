"""Learning to attend's "Checks against the sources": the quoted numbers beside the view's live ones."""

from __future__ import annotations

from core import book
from topics.learning.view import Checks
from ui.checks import BOOK_CODE, POST, Check, exact

NOTE = (
    "Quoted: the post's recap and its figure of the three modes (Three matrices here), and PyTorch's "
    "print of the book's section 3.4 code. "
    "Live: this run's trajectories, and the section 3.4 start at the book's width whatever the "
    "controls say."
)


def rows(live: Checks) -> list[Check]:
    """The quoted numbers this page can reproduce, beside the live ones (on the book's sentence)."""
    return [
        exact(
            "Score error, tied W_q = W_k, worst recorded step of this run",
            book.FIGURE_01["score_error_tied"],
            live.tied_score_error,
            source=POST,
        ),
        exact(
            "Score error, no matrices",
            book.FIGURE_01["score_error_none"],
            live.none_score_error,
            source=POST,
        ),
        exact(
            "Weight error, no matrices, divided by √2 as the post's figure of the three modes does",
            book.FIGURE_01["weight_error_none"],
            live.none_weight_error,
            source=POST,
        ),
        exact(
            "Raw affinity journey–starts, no matrices, at the last step",
            book.RECAP["affinity_journey_starts"],
            live.affinity_journey_starts,
            source=POST,
            note="the post's recap; no dial: it never moves",
        ),
        exact(
            "attn_weights_2 at step 0, three matrices, section 3.4 weights",
            book.SECTION_3_4["attn_weights_2"],
            live.attn_weights_2,
            source=BOOK_CODE,
        ),
    ]
