"""Masking the future: the core paths the page calls, and its rerun after the fill changes.

The core figures time both causal paths (6 × 6 and 64 × 64) and the rejection of a hostile
input. The page figure (target: under 150 ms with a warm cache) is ``bench.pages.rerun_times``
for the mask-fill radio, the control ``bench_pages`` does not move (it moves the stage, as
``page_masking_*``): median and 95th percentile of AppTest reruns, with process CPU time beside
them because wall time on a shared machine includes waiting for a core.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

import numpy as np

from bench import Figure, best_of
from bench.pages import rerun_times
from core import attention, masking, tokens, weights

PAGE = "topics/masking/page.py"


def run(quick: bool) -> Iterable[Figure]:
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    both = best_of(
        lambda: (masking.naive_path(tr.scores, tr.divisor), masking.efficient_path(tr.scores, tr.divisor)),
        repeat=5,
        number=200,
    )
    yield Figure("masking.both_paths_6x6", both * 1e6, "us")
    s64 = np.random.default_rng(0).standard_normal((64, 64))
    wide = best_of(lambda: (masking.naive_path(s64, 8.0), masking.efficient_path(s64, 8.0)), number=50)
    yield Figure("masking.both_paths_64x64", wide * 1e6, "us")
    hostile = " ".join(["1.5"] * 10_000)

    def reject() -> None:
        with contextlib.suppress(ValueError):
            masking.parse_numbers(hostile)

    yield Figure("masking.parse_reject_10000_numbers", best_of(reject, number=20) * 1e3, "ms")

    timing = rerun_times(PAGE, "fill", ("zero", "-inf"), 5 if quick else 20)
    yield from timing.figures("masking.page_fill")
