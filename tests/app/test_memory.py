"""What a session leaves behind: Resample clicks hold no draws, and session state holds no arrays.

Memory is measured with ``tracemalloc`` (the bytes Python and NumPy still hold after a garbage
collection), not resident memory, which the allocator keeps high after a free; byte limits only,
no times. The server's resident memory is ``python -m bench memory``'s, and
``tests/e2e/test_memory.py`` holds it under a generous limit.
"""

from __future__ import annotations

import gc
import pickle
import random
import tracemalloc

import pytest

from bench.controls import random_setting, read_controls
from tests.app.conftest import assert_clean, metrics, open_page
from ui.pages import PAGES

MB = 2**20


def test_repeated_resamples_do_not_grow_memory():
    # Before the fix each click kept its 100,000 draws (28.8 MB) and its run's script namespace
    # alive: six clicks held over 170 MB. Now a click adds three cache entries of a few kilobytes.
    at = open_page("app_pages/dropout.py", {"generator": "PyTorch", "draws": "100000"})
    at.button(key="resample").click().run()  # imports and first entries, outside the count
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(6):
            at.button(key="resample").click().run()
        gc.collect()
        grown, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_clean(at)
    assert "Mean row sum over 100,000 draws" in metrics(at)  # the clicks did run the big study
    assert grown < 8 * MB, f"six resamples kept {grown / MB:.1f} MB"
    assert peak < 48 * MB, f"a resample allocated {peak / MB:.1f} MB at once"  # chunked draws


@pytest.mark.parametrize("info", [p for p in PAGES if p.url_path != "overview"], ids=lambda p: p.url_path)
def test_session_state_holds_no_large_values(info):
    # Per-session state is multiplied by the readers: after a few random settings (extremes
    # included) every value in it pickles to under 16 KB.
    controls = read_controls(info.path)
    rng = random.Random(info.url_path)
    for _ in range(3):
        at = open_page(info.path, random_setting(controls, rng, extreme_share=0.5))
        assert_clean(at)
        sizes = {k: len(pickle.dumps(v)) for k, v in at.session_state.items() if not k.startswith("$$")}
        assert sizes, "no session state read: the test would pass on anything"
        big = {k: s for k, s in sizes.items() if s > 16 * 1024}
        assert not big, big
