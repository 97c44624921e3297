"""The table and the checks of "Divide by √d_k": each quoted number, the truth, the live value.

The post's numbers come from its own run of a few hundred draws, so they are samples of the truth,
not the truth (issue #13). The table shows each quote beside the 10⁶-draw reference, the live
value at the page's controls, and the quote's place among 500-draw runs. Each check is a sample
against its expectation (:func:`ui.checks.sampled`): the live value at the post's setting (500
draws of six keys) is **within noise** when it lies within
:data:`topics.scaling.monte_carlo.Z_TOLERANCE` (4) standard errors of the reference, with its
percentile in that scatter, and **differs** otherwise. The standard error is a 500-draw run's,
measured over the reference's 2,000 runs, with the reference's own added; a median's is in
decades, so its percentile is too. Every number comes from the view's rows
(:class:`topics.scaling.view.Row`).
"""

from __future__ import annotations

import pandas as pd

from topics.scaling import text
from topics.scaling.view import View
from ui import checks


def reference_table(v: View) -> pd.DataFrame:
    """One row per quote: the quote, the truth (± its standard error), the live value, and why they differ."""
    live_column = f"live ({v.draws:,} draws of {v.settings.n_keys})"
    rows = []
    for row in v.rows:
        q = row.quote
        rows.append(
            {
                "quantity": q.label,
                "quoted": ("≈" if q.rounded else "") + q.text,
                "true value": text.true_text(row),
                live_column: "over budget"
                if row.live is None
                else text.value_text(q.stat, row.live, row.live_se),
                "the quoted value": text.reading(row),
            }
        )
    return pd.DataFrame(rows).set_index("quantity")


def post_checks(v: View) -> list[checks.Check]:
    """Every Monte Carlo number the post quotes: the quote, the truth, and the live estimate's verdict."""
    out = []
    for row in v.rows:
        q, true = row.quote, row.true
        note = (
            f"The quoted value: {text.reading(row)}. A {row.check_draws}-draw run scatters by "
            f"{text.band_text(row)} (one standard error) about the truth."
        )
        if q.text == "about a third":
            note += " " + text.third_sentence(v)
        out.append(
            checks.sampled(
                q.label,
                ("≈" if q.rounded else "") + q.text,
                true.scale(row.check),
                true.scale(true.value),
                row.band,
                live=text.value_text(q.stat, row.check, row.check_se),
                source=checks.POST,
                note=note,
                true=text.true_text(row),
                z_limit=v.z_tolerance,
            )
        )
    return out
