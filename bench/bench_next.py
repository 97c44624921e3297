""" "What comes next" (figure 07): the page's server time per rerun, and its core in isolation.

Server time is what AppTest measures for a rerun after a control change, with the app's modules
imported and every cache warm: the median and 95th percentile of ``reruns`` reruns, each after
one control change (the preset box, the shuffle text, the cached tokens, in turn). The ``_cpu``
figures are the process's CPU time for the same reruns (AppTest runs the script in a thread of
this process), which a machine shared with other jobs inflates far less than wall time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable

from bench import Figure, best_of
from core import block, equivariance, tokens, weights


def _page_reruns(reruns: int) -> tuple[list[float], list[float]]:
    from tests.app.conftest import open_page, widget

    at = open_page("app_pages/next.py")
    presets = list(block.GPT2_PRESETS)
    for name in presets:  # warm: every preset once
        widget(at, "preset").set_value(name).run()
    changes = (
        lambda i: widget(at, "preset").set_value(presets[i % len(presets)]),
        lambda i: widget(at, "perm").set_value(equivariance.format_permutation(_rotation(i))),
        lambda i: widget(at, "kv_tokens").set_value(1024 + i),
    )
    wall, cpu = [], []
    for i in range(reruns):
        changed = changes[i % len(changes)](i)
        t0, c0 = time.perf_counter(), time.process_time()
        changed.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        assert not at.exception, [e.value for e in at.exception]
    return wall, cpu


def _rotation(i: int) -> tuple[int, ...]:
    k = 1 + i % 5  # never the identity
    return tuple((j + k) % 6 for j in range(6))


def run(quick: bool) -> Iterable[Figure]:
    reruns = 5 if quick else 20
    wall, cpu = _page_reruns(reruns)
    for name, times in (("", sorted(wall)), ("_cpu", sorted(cpu))):
        yield Figure(f"next_page_rerun{name}_median", 1e3 * statistics.median(times), "ms")
        yield Figure(f"next_page_rerun{name}_p95", 1e3 * times[round(0.95 * (len(times) - 1))], "ms")

    x, ws, perm = tokens.inputs(), weights.section_3_4(), (5, 4, 3, 2, 1, 0)
    yield Figure(
        "next_permutation_test_both_masks",
        1e6 * best_of(lambda: [equivariance.permutation_test(x, ws, perm, c) for c in (False, True)], 5, 200),
        "us",
    )
    cfg = block.GPT2_PRESETS["GPT-2 XL (1558M)"]
    yield Figure("next_block_params", 1e6 * best_of(lambda: block.block_params(cfg).total, 5, 2000), "us")
