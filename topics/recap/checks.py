"""The Recap's checks against the post's recap of section 3.3 and the audit's weight, from the view."""

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
            "Weight journey → starts, no divisor",
            book.COMPUTED["journey_to_starts_recap"],
            live.weight_journey_starts,
            source=checks.HERE,
            note=f"Three matrices reads {fmt.num(live.fig01_weight_journey_starts)}: it divides by √2 first",
        ),
    ]


NOTE = (
    "Quoted: the post's recap of section 3.3, and the audit's weight. Live: computed from the book's inputs."
)
