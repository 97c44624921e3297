"""The table and the checks of "Divide by √d_k": each of the post's numbers, the truth, the live value.

The post's numbers come from its own few hundred draws, so they are samples of the truth, not the
truth (issue #13). The table shows each quote beside the 10⁶-draw reference of
:mod:`ui.scaling_reference`, the live value at the page's controls, and the quote's place among
500-draw runs. A check passes when the live value (500 draws of six keys, the post's setting)
lies within :data:`core.scaling.Z_TOLERANCE` (4) standard errors of the reference: those of a
500-draw run, measured over the reference's 2,000 runs, and the reference's own.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from topics.scaling import monte_carlo as scaling
from topics.scaling import text as sr
from ui import checks


def live_value(stat: str, r: scaling.DkResult) -> float:
    """The study's estimate of one statistic of :data:`core.scaling.STATISTICS`."""
    if stat == "std":
        return r.std
    kind, divisor = stat.split("_")
    summary = r.summary(divisor == "scaled")
    return {"median": summary.median, "mean": summary.mean, "live": summary.live_share}[kind]


def reference_table(
    results: Mapping[int, scaling.DkResult], refs: Mapping[int, scaling.Reference], draws: int, n_keys: int
) -> pd.DataFrame:
    """One row per quote: the post, the truth (± its standard error), the live value, and why they differ."""
    rows = []
    for q in sr.QUOTES:
        ref, r = refs[q.d_k][q.stat], results.get(q.d_k)
        live = sr.value_text(q.stat, live_value(q.stat, r)) if r else "over budget"
        rows.append(
            {
                "quantity": q.label,
                "the post": ("≈" if q.rounded else "") + q.text,
                "true value": sr.true_text(q.stat, ref, q.d_k, refs[q.d_k].draws),
                f"live ({draws:,} draws of {n_keys})": live,
                "the post's value": sr.reading(q, ref),
            }
        )
    return pd.DataFrame(rows).set_index("quantity")


def post_checks(
    results: Mapping[int, scaling.DkResult], refs: Mapping[int, scaling.Reference]
) -> list[checks.Check]:
    """Every number the post quotes for figure 02: its quote, the truth, and the live estimate."""
    out = []
    for q in sr.QUOTES:
        ref, r = refs[q.d_k][q.stat], results[q.d_k]
        live = live_value(q.stat, r)
        out.append(
            checks.Check(
                q.label,
                ("≈" if q.rounded else "") + q.text,
                sr.value_text(q.stat, live),
                ref.agrees(live, r.draws),
                checks.POST,
                note=f"The post's value: {sr.reading(q, ref)}. Live passes within "
                f"{sr.tolerance_text(q.stat, ref, r.draws)} of the truth "
                f"({scaling.Z_TOLERANCE:g} standard errors).",
                true=sr.true_text(q.stat, ref, q.d_k, refs[q.d_k].draws),
            )
        )
    return out
