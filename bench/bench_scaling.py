"""Figure 02's speed: the two samplers at d_k = 64, 4,096 and 65,536, and the page's warm rerun.

Targets (issue 3): the exact sampler at least 1,000,000 draws/s on one core at every d_k; brute
force at least 100 times slower at d_k = 4,096 (both measured in one run); the page's rerun
after a control change under 150 ms of server time with a warm cache.

Server time is the script run alone (``ScriptRunner._run_script``, timed around the call);
the AppTest figure adds the test harness's polling on top and is printed beside it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import partial

from bench import Figure, best_of
from core import scaling

D_KS = (64, 4096, 65536)
N_KEYS = 6  # the post's six tokens


def _exact_draws_with_statistic(rng, d_k: int, draws: int) -> None:
    """What the study pays per draw: the scores, then the statistic without and with the divisor."""
    w = scaling.sample_scores_exact(rng, d_k, draws, N_KEYS)
    scaling.log_largest_jacobian_entry(w)
    scaling.log_largest_jacobian_entry(w / d_k**0.5)


def samplers(quick: bool) -> Iterator[Figure]:
    exact_draws = 200_000 if quick else 1_000_000
    for d_k in D_KS:
        rng = scaling.generator(0, d_k)
        brute_draws = max(4, (4_000_000 if quick else 20_000_000) // ((N_KEYS + 1) * d_k))  # ~0.5-2 s
        exact = exact_draws / best_of(partial(scaling.sample_scores_exact, rng, d_k, exact_draws, N_KEYS))
        full = exact_draws / best_of(partial(_exact_draws_with_statistic, rng, d_k, exact_draws), repeat=3)
        brute = brute_draws / best_of(partial(scaling.sample_scores_brute, rng, d_k, brute_draws, N_KEYS), 2)
        yield Figure(f"scaling.exact_sampler.d_k={d_k}", exact, "draws/s")
        yield Figure(f"scaling.exact_with_statistic.d_k={d_k}", full, "draws/s")
        yield Figure(f"scaling.brute_sampler.d_k={d_k}", brute, "draws/s")
        yield Figure(f"scaling.exact_over_brute.d_k={d_k}", exact / brute, "x")


@contextmanager
def _script_timer() -> Iterator[list[float]]:
    """Record how long each script run takes inside the server (the page, not the test harness)."""
    from streamlit.runtime.scriptrunner import script_runner

    original = script_runner.ScriptRunner._run_script
    times: list[float] = []

    def timed(self, *args, **kwargs):
        t0 = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            times.append(time.perf_counter() - t0)

    script_runner.ScriptRunner._run_script = timed
    try:
        yield times
    finally:
        script_runner.ScriptRunner._run_script = original


def page(quick: bool) -> Iterator[Figure]:
    from tests.app.conftest import open_page, widget

    reruns = 20
    with _script_timer() as times:
        at = open_page("app_pages/scaling.py")
        for value in (768, 64):  # warm both views
            widget(at, "d_k").set_value(value).run()
        for value in (False, True):
            widget(at, "divisor").set_value(value).run()
        times.clear()
        walls = []
        for i in range(reruns):
            t0 = time.perf_counter()
            if i % 2:
                widget(at, "divisor").set_value(i % 4 == 1).run()
            else:
                widget(at, "d_k").set_value(768 if i % 4 == 0 else 64).run()
            walls.append(time.perf_counter() - t0)
        changed = statistics.median(times)
        times.clear()
        for _ in range(reruns):
            at.run()
        plain = statistics.median(times)
    yield Figure("scaling.page_rerun_after_control_change.server", 1000 * changed, "ms")
    yield Figure(
        "scaling.page_rerun_after_control_change.apptest_wall", 1000 * statistics.median(walls), "ms"
    )
    yield Figure("scaling.page_rerun_unchanged.server", 1000 * plain, "ms")


def run(quick: bool) -> Iterable[Figure]:
    yield from samplers(quick)
    yield from page(quick)
