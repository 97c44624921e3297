"""The checks of "Dropout" (figure 04): the book's printed run, the post's rates and sums, its factor.

Every row names its source: the causal weights and the dropped run are what the book prints for
its section 3.5 code (PyTorch 2.13 prints the same today); the rates, sums and the worked factor
1/0.5 = 2 are the post's figure 04. The statistical rows pass within 4 standard errors of the
exact expectation (p, p², 1 or 1 − p), because the post's own draws are one sample of it.
"""

from __future__ import annotations

import numpy as np

from core import book
from topics.dropout import sampling
from topics.dropout.study import CHECK_DRAWS_MEAN
from ui import checks
from ui import format as fmt

CHECK_DRAWS = 20_000  # the post's zero-row figure; its mean row sums are read after 10,000
SUM_DRAWS = CHECK_DRAWS_MEAN  # the running mean the study records for the checks


def worked_factor(p: float) -> str:
    """``1/(1 − p)`` worked as the post writes it at p = 0.5: ``1/0.5 = 2``."""
    return f"1/{1 - p:g} = {sampling.scale_factor(p):.4g}"


def book_checks(
    weights: np.ndarray, book_run: np.ndarray, on: sampling.DropoutStats, off: sampling.DropoutStats
) -> list[checks.Check]:
    """The rows of the expander; ``on`` and ``off`` are CHECK_DRAWS draws at p = 0.5, scaling on and off."""
    q, post, p = book.FIGURE_04, checks.POST, sampling.BOOK_P
    n = len(weights)
    rate_sd = sampling.zero_row_std(p, n)
    return [
        *(
            checks.exact(
                f"Causal weights, row {i + 1}", text, weights[i], checks.BOOK, "section 3.5.1, sa_v2"
            )
            for i, text in enumerate(q["book_attn_weights"])
        ),
        *(
            checks.exact(
                f"Book's dropout run, row {i + 1}", text, book_run[i], checks.BOOK, "torch.manual_seed(123)"
            )
            for i, text in enumerate(q["book_dropped"])
        ),
        checks.same(
            f"Survivors' factor at p = {p:g}", q["worked_factor"], worked_factor(p), post, "1/(1 − p)"
        ),
        *(
            checks.within(
                f"Row {i + 1} is the zero vector, p = {p:g}, {CHECK_DRAWS:,} draws",
                q[key],
                on.zero_rate[i],
                *sampling.sampling_band(on.zero_theory[i], rate_sd[i], CHECK_DRAWS),
                live=fmt.percent(on.zero_rate[i]),
                source=post,
                note=f"theory pⁱ = {fmt.percent(on.zero_theory[i])}",
            )
            for i, key in enumerate(("row1_zero_rate", "row2_zero_rate"))
        ),
        *(
            checks.within(
                f"Mean row sum, {SUM_DRAWS:,} draws, scaling {label}",
                q[key],
                stats.mean_after(SUM_DRAWS),
                *sampling.sampling_band(stats.expectation, stats.std, SUM_DRAWS),
                live=fmt.num(stats.mean_after(SUM_DRAWS), 3),
                source=post,
                note=f"expectation {fmt.num(stats.expectation, 3)}",
            )
            for stats, label, key in (
                (on, "on", "mean_row_sum_scaled"),
                (off, "off", "mean_row_sum_unscaled"),
            )
        ),
    ]
