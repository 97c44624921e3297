"""The readout table and the checks of "Divide by √d_k": the study at d_k = 2, 64, 768, 4,096 beside the post.

The post's numbers come from its own few hundred draws, so a check passes when the quote and
the live estimate differ by less than their combined sampling error allows
(:func:`core.scaling.agrees_statistically`), or, for its "~" quotes, when they agree to an
order of magnitude. A failed check is therefore possible for an unlucky seed, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from core import book, scaling
from ui import checks
from ui import format as fmt
from ui.scaling_figures import small

POST = book.FIGURE_02
POST_TABLE: dict[str, dict[int, str]] = {
    "std of q·k": {64: POST["std_64"], 4096: POST["std_4096"]},
    "median |J|, no divisor": {
        2: POST["median_raw_2"],
        64: POST["median_raw_64"],
        768: POST["median_raw_768"],
        4096: POST["median_raw_4096"],
    },
    "median |J|, ÷√d_k": {d: "≈" + POST["median_scaled"] for d in scaling.TABLE_D_KS},
    "mean |J|, no divisor": {2: POST["mean_raw_2"], 4096: POST["mean_raw_4096"]},
    "live draws, no divisor": {768: POST["live_share_raw_768"]},
}


def _live_cells(r: scaling.DkResult) -> dict[str, str]:
    return {
        "std of q·k": fmt.num(r.std),
        "median |J|, no divisor": small(r.raw.median),
        "median |J|, ÷√d_k": small(r.scaled.median),
        "mean |J|, no divisor": small(r.raw.mean),
        "live draws, no divisor": fmt.percent(r.raw.live_share),
    }


def readout_table(results: Mapping[int, scaling.DkResult]) -> pd.DataFrame:
    """Rows: each quantity live, then the post's value; columns: the four d_k the post quotes."""
    live = {d: _live_cells(results[d]) for d in scaling.TABLE_D_KS if d in results}
    index, rows = ["√d_k"], [[fmt.num(np.sqrt(d)) for d in scaling.TABLE_D_KS]]
    for name, quotes in POST_TABLE.items():
        index += [name, f"{name} (post)"]
        rows.append([live[d][name] if d in live else "over budget" for d in scaling.TABLE_D_KS])
        rows.append([quotes.get(d, "") for d in scaling.TABLE_D_KS])
    return pd.DataFrame(rows, index=index, columns=[f"d_k = {d:,}" for d in scaling.TABLE_D_KS])


def _quote(key: str) -> tuple[str, float, float]:
    """The post's text for ``key``, its value, and half a unit of its last printed digit."""
    text = POST[key]
    return text, float(text), 0.5 * 10.0 ** -fmt.decimals_of(text)


def _statistical(label: str, key: str, live: float, se: float, draws: int) -> checks.Check:
    text, value, half_unit = _quote(key)
    ok = scaling.agrees_statistically(live, se, draws, value, half_unit)
    shown = small(live) + f" ± {small(se) if se > 0 else '0'}"
    return checks.Check(label, "≈" + text, shown, ok, "within 3 combined standard errors")


def post_checks(results: Mapping[int, scaling.DkResult]) -> list[checks.Check]:
    """Every number the post quotes for figure 02, beside the live estimate (± one standard error)."""
    r2, r64, r768, r4096 = (results[d] for d in scaling.TABLE_D_KS)
    n = r2.draws
    out = [
        _statistical("Std of q·k at d_k = 64 (√d_k = 8)", "std_64", r64.std, r64.std_se, n),
        _statistical("Std of q·k at d_k = 4,096 (√d_k = 64)", "std_4096", r4096.std, r4096.std_se, n),
    ]
    for r in (r2, r64):
        label = f"Median largest |J|, no divisor, d_k = {r.d_k:,}"
        out.append(_statistical(label, f"median_raw_{r.d_k}", r.raw.median, r.raw.median_se, n))
    for r, magnitude in ((r768, "~1e-6"), (r4096, "~1e-14")):
        post = POST[f"median_raw_{r.d_k}"]
        out.append(
            checks.Check(
                f"Median largest |J|, no divisor, d_k = {r.d_k:,}",
                f"{magnitude} (post: {post})",
                small(r.raw.median),
                scaling.same_order_of_magnitude(r.raw.median, float(post)),
                "within a factor of 10 of the post's value",
            )
        )
    for r in (r2, r64, r768, r4096):
        label = f"Median largest |J|, ÷√d_k, d_k = {r.d_k:,}"
        out.append(_statistical(label, "median_scaled", r.scaled.median, r.scaled.median_se, n))
    live = r768.raw
    out.append(
        checks.Check(
            "Live draws at d_k = 768, no divisor",
            POST["live_share_raw_768"],
            f"{fmt.percent(live.live_share)} ± {fmt.percent(live.live_se)}",
            scaling.agrees_statistically(live.live_share, live.live_se, n, 1 / 3),
            "a third, within 3 combined standard errors",
        )
    )
    for r in (r2, r4096):
        label = f"Mean largest |J|, no divisor, d_k = {r.d_k:,}"
        out.append(_statistical(label, f"mean_raw_{r.d_k}", r.raw.mean, r.raw.mean_se, n))
    return out
