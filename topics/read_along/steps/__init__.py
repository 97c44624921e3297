"""The tour, in the chapter's order: recap, the three projections and their asymmetry, the forward
pass and learning, √d_k, masking, dropout, multi-head attention, the cost, what comes next.

Each part lives beside the topics it walks through and lists its steps in ``STEPS``.
"""

from __future__ import annotations

from topics.read_along.coded import with_code
from topics.read_along.step import StepDef
from topics.read_along.steps import cost_next, dropout_heads, foundations, scaling_masking

STEPS: tuple[StepDef, ...] = tuple(
    with_code(d)
    for d in (
        *foundations.STEPS,
        *scaling_masking.STEPS,
        *dropout_heads.STEPS,
        *cost_next.STEPS,
    )
)
