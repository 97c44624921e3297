"""The table and the checks of "Divide by √d_k": each of the post's numbers, the truth, the live value.

The post's numbers come from its own few hundred draws, so they are samples of the truth, not the
truth (issue #13). The table shows each quote beside the 10⁶-draw reference, the live value at the
page's controls, and the quote's place among 500-draw runs. A check passes when the live value
(500 draws of six keys, the post's setting) lies within
:data:`topics.scaling.monte_carlo.Z_TOLERANCE` (4) standard errors of the reference: those of a
500-draw run, measured over the reference's 2,000 runs, and the reference's own. Every number
comes from the view's rows (:class:`topics.scaling.view.Row`).
"""

from __future__ import annotations

import pandas as pd

from topics.scaling import text
from topics.scaling.view import View
from ui import checks


def reference_table(v: View) -> pd.DataFrame:
    """One row per quote: the post, the truth (± its standard error), the live value, and why they differ."""
    live_column = f"live ({v.draws:,} draws of {v.settings.n_keys})"
    rows = []
    for row in v.rows:
        q = row.quote
        rows.append(
            {
                "quantity": q.label,
                "the post": ("≈" if q.rounded else "") + q.text,
                "true value": text.true_text(row),
                live_column: "over budget" if row.live is None else text.value_text(q.stat, row.live),
                "the post's value": text.reading(row),
            }
        )
    return pd.DataFrame(rows).set_index("quantity")


def post_checks(v: View) -> list[checks.Check]:
    """Every number the post quotes for figure 02: its quote, the truth, and the live estimate."""
    out = []
    for row in v.rows:
        q = row.quote
        out.append(
            checks.Check(
                q.label,
                ("≈" if q.rounded else "") + q.text,
                text.value_text(q.stat, row.check),
                checks.Verdict.NOISE if row.agrees else checks.Verdict.DIFFERS,
                checks.POST,
                note=f"The post's value: {text.reading(row)}. Live passes within "
                f"{text.tolerance_text(q.stat, row.true, row.tolerance)} of the truth "
                f"({v.z_tolerance:g} standard errors).",
                true=text.true_text(row),
            )
        )
    return out
