"""The Recap's checks against the post's recap of section 3.3 and the book's section 3.3.1, from the view."""

from __future__ import annotations

from core import book
from topics.recap.view import BookChecks
from ui import checks
from ui import format as fmt


def rows(live: BookChecks) -> list[checks.Check]:
    """The quoted numbers beside the view's live ones, computed on the book's sentence."""
    q, c = book.RECAP, live.collapse
    assert c.spread_in is not None and c.spread_out is not None and c.spread_share is not None  # six tokens
    nearest = "starts, all six" if set(c.nearest) == {"starts"} else ", ".join(c.nearest)
    return [
        checks.exact(
            "Context vector for journey", q["context_journey"], live.context_journey, source=checks.POST
        ),
        checks.exact("Mean pairwise distance, inputs", q["spread_inputs"], c.spread_in, source=checks.POST),
        checks.exact(
            "Mean pairwise distance, outputs", q["spread_outputs"], c.spread_out, source=checks.POST
        ),
        checks.same("Outputs' spread / inputs'", q["spread_ratio"], fmt.percent(c.spread_share), checks.POST),
        checks.same("Nearest input embedding of every output", q["nearest"], nearest, checks.POST),
        checks.exact(
            "Raw affinity journey–starts",
            q["affinity_journey_starts"],
            live.affinity_journey_starts,
            source=checks.POST,
        ),
        checks.exact(
            "Weights of journey, no divisor",
            book.SECTION_3_3["attn_weights_2"],
            live.weights_journey,
            source=checks.BOOK,
            note=f"Section 3.3.1's torch.softmax(attn_scores_2): journey → starts is "
            f"{fmt.num(live.weight_journey_starts)}. Three matrices reads "
            f"{fmt.num(live.fig01_weight_journey_starts)} for it: it divides by √2 first",
        ),
    ]


NOTE = (
    "Quoted: the post's recap of section 3.3, and the weights the book prints in section 3.3.1. "
    "Live: computed from the book's inputs."
)
