"""The page's heavy work declares a working set that bounds what it holds, and its reference file
is the reference the code computes (issue 25)."""

from __future__ import annotations

import math
import tracemalloc
from dataclasses import astuple

import pytest

from topics.scaling import monte_carlo as mc
from topics.scaling import stored, study, view


def peak_bytes(fn) -> int:
    fn()  # once first: NumPy's lazily built tables are not the call's working set
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def worst_studies() -> list[tuple[mc.StudyConfig, int]]:
    """The largest working sets the page can ask for: the most scores each sampler affords, at the
    largest d_k brute force reaches and at the last d_k of the exact grid, with two and 64 keys."""
    out = []
    for keys in (2, 64):
        draws = mc.affordable_draws(max(view.DRAWS), keys, view.DRAWS)
        for sampler in mc.SAMPLERS:
            config = mc.StudyConfig(draws, keys, 0, sampler)
            out.append((config, mc.study_grid(config)[-1]))
    brute = mc.StudyConfig(min(view.DRAWS), 2, 0, "brute")  # the fewest draws reach the widest d_k
    return [*out, (brute, mc.study_grid(brute)[-1])]


@pytest.mark.parametrize(("config", "d_k"), worst_studies(), ids=str)
def test_declared_working_set_bounds_the_measured_peak(config, d_k):
    declared = mc.working_set(config, d_k)
    assert peak_bytes(lambda: mc.study_at(config, d_k)) <= declared


@pytest.mark.parametrize(
    ("keys", "d_k", "sampler"), [(64, 65_536, "brute"), (2, 65_536, "brute"), (64, 65_536, "exact")]
)
def test_one_draw_declares_its_vectors(keys, d_k, sampler):
    declared = mc.draw_bytes(keys, d_k, sampler)
    assert peak_bytes(lambda: view.one_draw(keys, 0, sampler, d_k, False)) <= declared


def test_brute_force_runs_under_the_budget_and_light_work_does_not():
    brute = mc.StudyConfig(500, 6, 0, "brute")
    assert mc.working_set(brute, 4096) >= study.HEAVY_BYTES  # 16 MB of q and keys: it waits its turn
    assert mc.working_set(mc.StudyConfig(), 65_536) < study.HEAVY_BYTES  # the defaults never queue


def test_the_stored_reference_is_the_computed_one(refs):
    kept = stored.load()
    assert kept.keys() == refs.keys()
    for d in refs:  # exact here; a last-bit difference in another CPU's exp or log is not drift
        for got, want in zip(flat(astuple(kept[d])), flat(astuple(refs[d])), strict=True):
            assert got == want if not isinstance(want, float) else math.isclose(got, want, rel_tol=1e-9)
    assert stored.loads(stored.dumps(refs)) == refs


def flat(x):
    if isinstance(x, tuple | list):
        for item in x:
            yield from flat(item)
    else:
        yield x
