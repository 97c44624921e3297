"""Masking the future's checks: every number figure 03 and section 3.5 print, beside the live one.

The live side is the view's :class:`~topics.masking.view.Book`, computed at the book's settings
whatever the controls say.
"""

from __future__ import annotations

import numpy as np

from core import book
from core.rounding import round_up
from topics.masking.view import Book
from ui import checks
from ui import format as fmt

NOTE = (
    "Quoted: the post's masking figure and what PyTorch prints for the book's section 3.5.1 and 3.5.3 "
    "code. Live: computed at the book's settings (sa_v2, seed 789; CausalAttention after "
    "torch.manual_seed(123)), whatever the controls say."
)
POST, PRINTED = checks.POST, checks.BOOK_CODE


def noise_row(quoted: str, largest: float, limit: float) -> checks.Check:
    """The two paths' largest difference: rounding noise, so quote and live value are held against a
    bound, not against each other.

    The post's 5.6e-17 is one machine's summation order (torch 2.13's float64 gives 5.55e-17);
    NumPy's order here gives other digits. None is *the* value: the two paths are equal in exact
    arithmetic. So the row is **within rounding** when both lie below the bound
    :func:`topics.masking.view.rounding_limit` states, and **differs** otherwise.
    """
    shown = fmt.noise(largest, limit)
    bound = fmt.sci(round_up(limit), 0)
    return checks.within(
        "Largest |naive − efficient|, float64",
        quoted,
        max(largest, float(quoted)),  # both the quote and the live value must lie below the bound
        0.0,
        limit,
        shown,
        source=checks.POST,
        note=(
            "The two paths are equal in exact arithmetic (the full-row denominator cancels); in float64 "
            "they differ by rounding alone, whose last digits depend on the order each machine sums in: "
            "NumPy's here, torch 2.13's float64 gives 5.55e-17, the post 5.6e-17. The bound, "
            f"{bound}, holds for any order: (n + 9)·ε·(1 + g), with n the tokens, ε = 2.2e-16 (float64's "
            "machine epsilon) and g how far a row's best hidden score tops its best visible one."
        ),
        why=f"both below {bound}" if max(largest, float(quoted)) <= limit else f"above the bound {bound}",
    )


def book_checks(b: Book) -> list[checks.Check]:
    """One row per quoted number, each with its source."""
    q, p = book.FIGURE_03, book.SECTION_3_5_1
    masked = b.efficient[-1].matrix
    rows = [
        checks.exact("softmax([1, 2, 3, 0, 0])", q["softmax_counterexample"], b.counterexample, POST),
        checks.exact("Naive path masks: first weight", q["naive_first_entry"], b.naive[1].matrix[0, 0], POST),
        checks.exact(
            "Efficient path masks: first score", q["efficient_first_entry"], b.efficient[0].matrix[0, 0], POST
        ),
        *(
            checks.exact(f"Masked weights, row {i + 1}", s, np.squeeze(masked[i, : i + 1]), POST)
            for i, s in enumerate(q["masked_rows"])
        ),
        noise_row(q["max_difference"], b.largest, b.limit),
        checks.exact("Zero fill: token 1 to the future", q["zero_fill_future"], b.zero_future, POST),
    ]
    for printed, stage_matrix, what in (
        (p["attn_weights"], b.naive[1].matrix, "print(attn_weights)"),
        (p["masked_simple"], b.naive[2].matrix, "print(masked_simple)"),
        (p["masked_scores"], b.efficient[1].matrix, "print(masked)"),
        (p["masked_weights"], masked, "print(attn_weights), after the −∞ fill"),
        (p["masked_weights"], b.naive[-1].matrix, "print(masked_simple_norm)"),
        (p["causal_attention_output"], b.causal_context, "CausalAttention, seed 123: context_vecs[0]"),
    ):
        rows += [
            checks.exact(f"{what}, row {i + 1}", s, stage_matrix[i], PRINTED) for i, s in enumerate(printed)
        ]
    return rows
