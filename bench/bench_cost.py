"""What n² costs: the page's server time per rerun, and the exact arithmetic behind it.

``cost_page_rerun_*``: median and p95 of AppTest reruns after a control change (n moved along
the ladder, warm cache: the page has been run once before timing). ``cost_table_*``: building
the cost table, which is pure integer arithmetic plus a pandas frame.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable

from bench import Figure, best_of
from core import cost


def _rerun_times(reruns: int) -> list[float]:
    from tests.app.conftest import open_page, widget

    at = open_page("app_pages/cost.py")  # first run: imports, caches
    ladder = [n for n in cost.context_ladder() if n >= 1_024]
    times = []
    for i in range(reruns):
        widget(at, "n").set_value(ladder[(7 * i) % len(ladder)])
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, [e.value for e in at.exception]
    return times


def run(quick: bool) -> Iterable[Figure]:
    from ui import cost_figures, cost_table

    cfg = cost.CostConfig()
    yield Figure("cost_table_frame", best_of(lambda: cost_table.frame(cfg), repeat=5) * 1e3, "ms")
    yield Figure("cost_memory_chart", best_of(lambda: cost_figures.memory_chart(cfg), repeat=5) * 1e3, "ms")
    yield Figure(
        "cost_flops_chart", best_of(lambda: cost_figures.flops_chart(cfg.n, 768, 64), repeat=5) * 1e3, "ms"
    )
    times = sorted(_rerun_times(5 if quick else 20))
    yield Figure("cost_page_rerun_median", statistics.median(times) * 1e3, "ms")
    yield Figure(
        "cost_page_rerun_p95", times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] * 1e3, "ms"
    )
    yield Figure("cost_page_reruns", float(len(times)), "runs")
