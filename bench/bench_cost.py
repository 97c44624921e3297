"""What n² costs: the exact arithmetic behind the page.

``cost_view``: the page's view (every count, the cost table's rows and both charts' values, in
ints and Fractions). ``cost_table_frame`` and ``cost_*_chart``: turning that view into the pandas
table and the two charts. The page's server time per rerun after ``n`` moves is
``page_n_squared_*`` in ``bench_pages``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench import Figure, best_of
from topics.cost import view


def run(quick: bool) -> Iterable[Figure]:
    from topics.cost import figures, table

    s = view.Settings()
    v = view.build(s)
    yield Figure("cost_view", best_of(lambda: view.build(s), repeat=5) * 1e3, "ms")
    yield Figure("cost_table_frame", best_of(lambda: table.frame(v), repeat=5) * 1e3, "ms")
    yield Figure("cost_memory_chart", best_of(lambda: figures.memory_chart(v), repeat=5) * 1e3, "ms")
    yield Figure("cost_flops_chart", best_of(lambda: figures.flops_chart(v), repeat=5) * 1e3, "ms")
