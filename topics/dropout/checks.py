"""The checks of "Dropout": the book's printed run, the post's rates and sums, its factor.

Every row names its source: the causal weights and the dropped run are what the book prints for
its section 3.5 code (PyTorch 2.13 prints the same today), checked exactly; the rates, sums and
the worked factor 1/0.5 = 2 are the post's dropout figure. The rates and sums are statistics of
random draws, so their rows are ``checks.sampled``: the live value against the exact expectation
(pⁱ, 1 or 1 − p) with the standard error of the draws, "within noise" with its percentile or
"differs". The post's own figures are one sample of the same distribution: each row shows the
expectation as the true value beside the quote, and its note says where the quote falls. The live
values are the view's (:class:`topics.dropout.view.BookChecks`).
"""

from __future__ import annotations

import math

from core import book
from topics.dropout import sampling, text
from topics.dropout.uncertainty import estimate, estimate_percent, exact_percent
from topics.dropout.view import BOOK_P, CHECK_DRAWS, CHECK_MEAN_DRAWS, BookChecks
from ui import checks
from ui import format as fmt

worked_factor = text.worked_factor  # the readout and the factor's row print it alike

Z_LIMIT = 4.0  # ui.checks.sampled's default: a correct mean falls outside on 6 runs in 100,000

NOTE = (
    "Quoted: PyTorch's printout of the book's section 3.5 code (run here) and the post's dropout "
    "figure. Live: the book's run is recomputed with the torch-compatible generator and compared "
    f"exactly; the statistical rows use p = {BOOK_P:g} on the book's sentence with the current seed "
    "and generator, each with its standard error (σ/√draws, σ exact), and are within noise when they "
    f"lie within {Z_LIMIT:g} standard errors of the exact expectation (pⁱ, 1 or 1 − p); the percentile "
    "says where in the sampling distribution the live value falls."
)


def _quote_note(quoted: str, expectation: float, std_error: float, percent: bool) -> str:
    """Where the post's own sample falls in the distribution of the same number of draws."""
    if quoted.lstrip().startswith(("≈", "~")):
        return f"the post's {quoted} is rounded"
    (value,) = checks.quoted_numbers(quoted)
    value = value / 100 if percent else value
    pct = min(99, max(1, round(checks.percentile((value - expectation) / std_error))))
    return f"the post's {quoted} is at the {checks.ordinal(pct)} percentile of such draws"


def book_checks(live: BookChecks) -> list[checks.Check]:
    """The rows of the expander: the book's run, then CHECK_DRAWS draws at p = 0.5, scaling on and off."""
    q, post, p, on = book.FIGURE_04, checks.POST, BOOK_P, live.on
    rate_se = sampling.zero_row_std(p, len(live.weights)) / math.sqrt(CHECK_DRAWS)
    rows = [
        *(
            checks.exact(
                f"Causal weights, row {i + 1}", quoted, live.weights[i], checks.BOOK, "section 3.5.1, sa_v2"
            )
            for i, quoted in enumerate(q["book_attn_weights"])
        ),
        *(
            checks.exact(
                f"Book's dropout run, row {i + 1}", quoted, live.run[i], checks.BOOK, "torch.manual_seed(123)"
            )
            for i, quoted in enumerate(q["book_dropped"])
        ),
        checks.same(
            f"Survivors' factor at p = {p:g}",
            q["worked_factor"],
            worked_factor(live.keep, live.factor),
            post,
            "1/(1 − p)",
        ),
    ]
    for i, quoted in enumerate((q["row1_zero_rate"], q["row2_zero_rate"])):
        rate, theory, se = float(on.zero_rate[i]), float(on.zero_theory[i]), float(rate_se[i])
        rows.append(
            checks.sampled(
                f"Row {i + 1} is the zero vector, p = {p:g}, {CHECK_DRAWS:,} draws",
                quoted,
                rate,
                theory,
                se,
                live=estimate_percent(rate, se),
                source=post,
                note=f"true value: pⁱ, exactly; {_quote_note(quoted, theory, se, percent=True)}",
                true=exact_percent(theory),
                z_limit=Z_LIMIT,
            )
        )
    for stats, label, quoted in (
        (on, "on", q["mean_row_sum_scaled"]),
        (live.off, "off", q["mean_row_sum_unscaled"]),
    ):
        mean, se = stats.mean_after(CHECK_MEAN_DRAWS), stats.std / math.sqrt(CHECK_MEAN_DRAWS)
        target = "1, the expectation with the factor" if stats.scale else "1 − p, the expectation without it"
        rows.append(
            checks.sampled(
                f"Mean row sum, {CHECK_MEAN_DRAWS:,} draws, scaling {label}",
                quoted,
                mean,
                stats.expectation,
                se,
                live=estimate(mean, se),
                source=post,
                note=f"true value: {target}; {_quote_note(quoted, stats.expectation, se, percent=False)}",
                true=fmt.num(stats.expectation, 1),
                z_limit=Z_LIMIT,
            )
        )
    return rows
