"""The post's section "Divide by 1.4142": its Monte Carlo numbers, and which statistic each reads.

The post reads its numbers off one run of "hundreds" of draws of one query and six keys, so every
one is a sample of the truth, not the truth (issue #13): the page sets each beside a 10⁶-draw
reference (:func:`topics.scaling.monte_carlo.reference_at`). Only this page quotes that section, so
its quotes live here rather than in :mod:`core.book`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypedDict

from topics.scaling.monte_carlo import LIVE_THRESHOLD, TABLE_D_KS, Statistic


class PostQuotes(TypedDict):
    std_64: str
    std_4096: str
    median_raw_2: str
    median_raw_64: str
    median_raw_768: str
    median_raw_4096: str
    median_scaled: str
    live_share_raw_768: str
    mean_raw_2: str
    mean_raw_4096: str
    mean_fold: str


POST: PostQuotes = {
    "std_64": "7.890",
    "std_4096": "63.5",
    "median_raw_2": "0.220",
    "median_raw_64": "0.022",
    "median_raw_768": "3.1e-6",
    "median_raw_4096": "4.8e-14",
    "median_scaled": "0.23",
    "live_share_raw_768": "about a third",
    "mean_raw_2": "0.208",
    "mean_raw_4096": "0.0063",
    "mean_fold": "across four thousand-fold increases",  # from d_k = 2 to 4,096: 2,048-fold
}


@dataclass(frozen=True)
class Quote:
    """One Monte Carlo number of the post's section, and which statistic of the study it reads."""

    text: str  # as the post prints it
    d_k: int
    stat: Statistic
    label: str
    rounded: bool = False  # "≈0.23 at every d_k": a claim about the truth to two digits, not one run

    @property
    def value(self) -> float:
        """The post's words as a number: "about a third" is 1/3."""
        return 1 / 3 if self.text == "about a third" else float(self.text)


_STAT_LABELS: dict[Statistic, str] = {
    "std": "Std of q·k",
    "median_raw": "Median largest |J|, no divisor",
    "median_scaled": "Median largest |J|, ÷√d_k",
    "live_raw": f"Live draws (largest |J| ≥ 1e{round(math.log10(LIVE_THRESHOLD))}), no divisor",
    "mean_raw": "Mean largest |J|, no divisor",
}


def _quote(text: str, d_k: int, stat: Statistic, rounded: bool = False) -> Quote:
    return Quote(text, d_k, stat, f"{_STAT_LABELS[stat]}, d_k = {d_k:,}", rounded)


QUOTES: tuple[Quote, ...] = (
    _quote(POST["std_64"], 64, "std"),
    _quote(POST["std_4096"], 4096, "std"),
    _quote(POST["median_raw_2"], 2, "median_raw"),
    _quote(POST["median_raw_64"], 64, "median_raw"),
    _quote(POST["median_raw_768"], 768, "median_raw"),
    _quote(POST["median_raw_4096"], 4096, "median_raw"),
    *(_quote(POST["median_scaled"], d, "median_scaled", rounded=True) for d in TABLE_D_KS),
    _quote(POST["live_share_raw_768"], 768, "live_raw"),
    _quote(POST["mean_raw_2"], 2, "mean_raw"),
    _quote(POST["mean_raw_4096"], 4096, "mean_raw"),
)
