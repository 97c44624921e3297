"""Figure 02's speed: the two samplers at d_k = 64, 4,096 and 65,536, and the page's warm rerun.

Targets (issue 3): the exact sampler at least 1,000,000 draws/s on one core at every d_k; brute
force at least 100 times slower at d_k = 4,096 (both measured in one run); the page's rerun
after a control change under 150 ms of server time with a warm cache.

The page figures are ``bench.pages.rerun_times`` (AppTest server time, warm cache) for the
divisor toggle; ``bench_pages`` moves d_k, as ``page_divide_by_sqrt_dk_*``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial

from bench import Figure, best_of
from bench.pages import rerun_times
from topics.scaling import monte_carlo as mc

D_KS = (64, 4096, 65536)
N_KEYS = 6  # the post's six tokens


def samplers(quick: bool) -> Iterator[Figure]:
    exact_draws = 200_000 if quick else 1_000_000
    for d_k in D_KS:
        rng = mc.generator(0, d_k)
        brute_draws = max(4, (4_000_000 if quick else 20_000_000) // ((N_KEYS + 1) * d_k))  # ~0.5-2 s
        exact = exact_draws / best_of(partial(mc.sample_scores_exact, rng, d_k, exact_draws, N_KEYS))
        # What the page pays per draw: its own study at one d_k (the function its cache wraps): the
        # scores, the statistic without and with the divisor, and the summaries.
        study = partial(mc.study_at, mc.StudyConfig(exact_draws, N_KEYS, 0, "exact"), d_k)
        full = exact_draws / best_of(study, repeat=3)
        brute = brute_draws / best_of(partial(mc.sample_scores_brute, rng, d_k, brute_draws, N_KEYS), 2)
        yield Figure(f"scaling.exact_sampler.d_k={d_k}", exact, "draws/s")
        yield Figure(f"scaling.exact_with_statistic.d_k={d_k}", full, "draws/s")
        yield Figure(f"scaling.brute_sampler.d_k={d_k}", brute, "draws/s")
        yield Figure(f"scaling.exact_over_brute.d_k={d_k}", exact / brute, "x")


def run(quick: bool) -> Iterable[Figure]:
    yield from samplers(quick)
    timing = rerun_times("topics/scaling/page.py", "divisor", (False, True), 5 if quick else 20)
    yield from timing.figures("scaling.page_divisor")
