"""What n² costs: the exact arithmetic behind the page.

``cost_table_*`` and ``cost_*_chart``: building the cost table (pure integer arithmetic plus a
pandas frame) and the page's two charts. The page's server time per rerun after ``n`` moves is
``page_n_squared_*`` in ``bench_pages``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench import Figure, best_of
from topics.cost import arithmetic as cost


def run(quick: bool) -> Iterable[Figure]:
    from topics.cost import figures as cost_figures
    from topics.cost import table as cost_table

    cfg = cost.CostConfig()
    yield Figure("cost_table_frame", best_of(lambda: cost_table.frame(cfg), repeat=5) * 1e3, "ms")
    yield Figure("cost_memory_chart", best_of(lambda: cost_figures.memory_chart(cfg), repeat=5) * 1e3, "ms")
    yield Figure(
        "cost_flops_chart", best_of(lambda: cost_figures.flops_chart(cfg.n, 768, 64), repeat=5) * 1e3, "ms"
    )
