""" "What comes next" (figure 07): its view in isolation, and the page's rerun per control.

The core figures time the view's shuffle section (the permutation test, both masks, and what
the prose reads from it, on section 3.4's weights), the block's parameter count the view reads,
and the whole view at its defaults. The
page figures are ``bench.pages.rerun_times`` (AppTest server time of a rerun, warm cache; median,
p95, process CPU median, first run) for the two controls ``bench_pages`` does not move: the
preset box (stepped through every GPT-2 preset) and the shuffle text (five rotations in turn).
``bench_pages`` moves the cached tokens, as ``page_what_comes_next_*``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench import Figure, best_of
from bench.pages import rerun_times
from core import weights
from topics.next import block, equivariance, view

PAGE = "topics/next/page.py"


def _rotation(i: int) -> tuple[int, ...]:
    k = 1 + i % 5  # never the identity
    return tuple((j + k) % 6 for j in range(6))


def run(quick: bool) -> Iterable[Figure]:
    reruns = 5 if quick else 20
    yield from rerun_times(PAGE, "block", list(block.GPT2_PRESETS), reruns).figures("next_page_preset")
    shuffles = [equivariance.format_permutation(_rotation(i)) for i in range(5)]
    yield from rerun_times(PAGE, "perm", shuffles, reruns).figures("next_page_perm")

    s, ws = view.Settings(), weights.section_3_4()
    yield Figure(
        "next_permutation_test_both_masks",
        1e6 * best_of(lambda: view.shuffle(s.labels, s.embeddings, ws, s.perm), 5, 200),
        "us",
    )
    cfg = block.GPT2_PRESETS["GPT-2 XL (1558M)"]
    yield Figure("next_block_params", 1e6 * best_of(lambda: block.block_params(cfg).total, 5, 2000), "us")
    yield Figure("next_view_build", 1e6 * best_of(lambda: view.build(s), 5, 200), "us")
