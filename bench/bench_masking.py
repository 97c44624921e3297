"""Masking the future: the page's view, the core paths it calls, and its rerun after the fill changes.

``view_build_6x6`` times what the page computes on every rerun at its defaults
(``topics.masking.view.build``); the core figures time both causal paths alone (6 × 6 at the
book's settings and 64 × 64) and the box's rejection of a hostile input, through the view's own
reader. The page figure (target: under 150 ms with a warm cache) is ``bench.pages.rerun_times``
for the mask-fill radio, the control ``bench_pages`` does not move (it moves the stage, as
``page_masking_*``): median and 95th percentile of AppTest reruns, with process CPU time beside
them because wall time on a shared machine includes waiting for a core.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from bench import Figure, best_of
from bench.pages import rerun_times
from core import attention, masking, tokens, weights
from topics.masking import view

PAGE = "topics/masking/page.py"


def run(quick: bool) -> Iterable[Figure]:
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    both = best_of(
        lambda: (masking.naive_path(tr.scores, tr.divisor), masking.efficient_path(tr.scores, tr.divisor)),
        repeat=5,
        number=200,
    )
    yield Figure("masking.both_paths_6x6", both * 1e6, "us")
    default = view.Settings()
    yield Figure("masking.view_build_6x6", best_of(lambda: view.build(default), number=200) * 1e6, "us")
    s64 = np.random.default_rng(0).standard_normal((64, 64))
    wide = best_of(lambda: (masking.naive_path(s64, 8.0), masking.efficient_path(s64, 8.0)), number=50)
    yield Figure("masking.both_paths_64x64", wide * 1e6, "us")
    hostile = " ".join(["1.5"] * 10_000)
    reject = best_of(lambda: view.read_box(hostile, view.LOGITS), number=20)
    yield Figure("masking.parse_reject_10000_numbers", reject * 1e3, "ms")

    timing = rerun_times(PAGE, "fill", ("zero", "-inf"), 5 if quick else 20)
    yield from timing.figures("masking.page_fill")
