"""Learning to attend: one whole training run (all three modes, 5,000 steps), as the page runs it.

Goals from issue 9: all three modes at 5,000 steps under 1 s (held by ``st.cache_data`` on the
page), and a scrub of the step slider under 100 ms of server time with a warm cache; the scrub is
``page_learning_to_attend_*`` in ``bench_pages``. Issue 13: the search for what each mode can
reach (``reach.limits``: the seeded search and the linear program) adds to a first visit; with the
training it should stay under 2 s. The largest search is three swapped pairs (the most variants).
Both are the plain functions the page caches (``topics/learning/study.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from bench import Figure, best_of
from core import tokens, weights
from topics.learning import reach, training


def run(quick: bool) -> Iterator[Figure]:
    x, ws = tokens.inputs(), weights.section_3_4()

    def whole_run() -> object:
        return training.fit("previous", 0, "adam", 0.02, training.MAX_STEPS, ws.w_query, ws.w_key, x)

    repeat = 2 if quick else 5
    yield Figure("learning_train_three_modes_5000_steps_best", best_of(whole_run, repeat=repeat), "s")
    t0 = time.process_time()
    whole_run()
    yield Figure("learning_train_three_modes_5000_steps_cpu", time.process_time() - t0, "s")

    def limits() -> object:
        return reach.limits("swaps", 0, 2, x)

    yield Figure("learning_search_swaps_width_2_best", best_of(limits, repeat=repeat), "s")
