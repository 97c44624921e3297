"""The checks of "Dropout" (figure 04): the book's printed run, the post's rates and sums, its factor.

Every row names its source: the causal weights and the dropped run are what the book prints for
its section 3.5 code (PyTorch 2.13 prints the same today); the rates, sums and the worked factor
1/0.5 = 2 are the post's figure 04. The statistical rows pass within 4 standard errors of the
exact expectation (p, p², 1 or 1 − p), because the post's own draws are one sample of it. The live
values are the view's (:class:`topics.dropout.view.BookChecks`).
"""

from __future__ import annotations

from core import book
from topics.dropout import sampling
from topics.dropout.view import BOOK_P, CHECK_DRAWS, CHECK_MEAN_DRAWS, BookChecks
from ui import checks
from ui import format as fmt


def worked_factor(keep: float, factor: float) -> str:
    """``1/(1 − p)`` worked as the post writes it at p = 0.5: ``1/0.5 = 2``."""
    return f"1/{keep:g} = {factor:.4g}"


def book_checks(live: BookChecks) -> list[checks.Check]:
    """The rows of the expander: the book's run, then CHECK_DRAWS draws at p = 0.5, scaling on and off."""
    q, post, p, on = book.FIGURE_04, checks.POST, BOOK_P, live.on
    rate_sd = sampling.zero_row_std(p, len(live.weights))
    return [
        *(
            checks.exact(
                f"Causal weights, row {i + 1}", text, live.weights[i], checks.BOOK, "section 3.5.1, sa_v2"
            )
            for i, text in enumerate(q["book_attn_weights"])
        ),
        *(
            checks.exact(
                f"Book's dropout run, row {i + 1}", text, live.run[i], checks.BOOK, "torch.manual_seed(123)"
            )
            for i, text in enumerate(q["book_dropped"])
        ),
        checks.same(
            f"Survivors' factor at p = {p:g}",
            q["worked_factor"],
            worked_factor(live.keep, live.factor),
            post,
            "1/(1 − p)",
        ),
        *(
            checks.within(
                f"Row {i + 1} is the zero vector, p = {p:g}, {CHECK_DRAWS:,} draws",
                quoted,
                on.zero_rate[i],
                *sampling.sampling_band(on.zero_theory[i], rate_sd[i], CHECK_DRAWS),
                live=fmt.percent(on.zero_rate[i]),
                source=post,
                note=f"theory pⁱ = {fmt.percent(on.zero_theory[i])}",
            )
            for i, quoted in enumerate((q["row1_zero_rate"], q["row2_zero_rate"]))
        ),
        *(
            checks.within(
                f"Mean row sum, {CHECK_MEAN_DRAWS:,} draws, scaling {label}",
                quoted,
                stats.mean_after(CHECK_MEAN_DRAWS),
                *sampling.sampling_band(stats.expectation, stats.std, CHECK_MEAN_DRAWS),
                live=fmt.num(stats.mean_after(CHECK_MEAN_DRAWS), 3),
                source=post,
                note=f"expectation {fmt.num(stats.expectation, 3)}",
            )
            for stats, label, quoted in (
                (on, "on", q["mean_row_sum_scaled"]),
                (live.off, "off", q["mean_row_sum_unscaled"]),
            )
        ),
    ]
