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
import streamlit as st

from bench.controls import random_setting, read_controls
from tests.app.conftest import assert_clean, charts, metrics, open_page
from topics import PAGES

MB = 2**20


def test_repeated_resamples_do_not_grow_memory():
    # Before the fix each click kept its 100,000 draws (28.8 MB) and its run's script namespace
    # alive: six clicks held over 170 MB. Now a click adds three cache entries of a few kilobytes.
    at = open_page("topics/dropout/page.py", {"generator": "PyTorch", "draws": "100000"})
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


@pytest.mark.parametrize("info", PAGES, ids=lambda p: p.url_path)
def test_session_state_holds_no_large_values(info):
    # Per-session state is multiplied by the readers: after a few random settings (extremes
    # included) every value in it pickles to under 16 KB.
    controls = read_controls(info.path)
    rng = random.Random(info.url_path)
    for _ in range(3):
        at = open_page(info.path, random_setting(controls, rng, extreme_share=0.5))
        assert_clean(at)
        # A chart element's state is a dict subclass local to Streamlit: measured as the dict it is.
        sizes = {
            k: len(pickle.dumps(dict(v) if isinstance(v, dict) else v))
            for k, v in at.session_state.items()
            if not k.startswith("$$")
        }
        assert sizes, "no session state read: the test would pass on anything"
        big = {k: s for k, s in sizes.items() if s > 16 * 1024}
        assert not big, big


# The heaviest computation of each page that has one: Divide by √d_k at 100,000 draws of 64 keys
# and with brute force at d_k = 65,536 (one draw of q and 64 keys is 34 MB, the largest single
# array in the app), Dropout at 100,000 PyTorch draws, Multi-head's largest drawable W_q.
HEAVY = [
    ("topics/scaling/page.py", {"keys": "64", "d_k": "65536", "draws": "100000", "divisor": "false"}),
    (
        "topics/scaling/page.py",
        {"sampler": "Brute force: q and keys", "keys": "64", "d_k": "65536", "draws": "100"},
    ),
    ("topics/dropout/page.py", {"generator": "PyTorch", "p": "0.9", "draws": "100000"}),
    # Issue #25: 26 tokens at the most draws that fit, PyTorch's generator (84 MB before the
    # pieces were bounded in cells rather than draws).
    ("topics/dropout/page.py", {"text": " ".join(f"w{i}" for i in range(26)), "drop_draws": "5000"}),
    (
        "topics/multihead/page.py",
        {"preset": "Custom", "kind": "Wrapper", "d_in": "384", "d_out": "384", "heads": "9"},
    ),
]


@pytest.mark.parametrize(
    ("path", "query"), HEAVY, ids=["exact", "brute", "dropout", "dropout-26", "multihead"]
)
def test_no_computation_allocates_more_than_about_50_mb_at_once(path, query):
    # Ten readers at once multiply a transient; before the fix brute force took 128 MB chunks and
    # Dropout made 100,000 draws as whole arrays (over 100 MB).
    open_page(path)  # the page's imports, outside the count
    st.cache_data.clear()
    st.cache_resource.clear()
    gc.collect()
    tracemalloc.start()
    try:
        at = open_page(path, query)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_clean(at)
    assert charts(at), "the heavy view drew nothing: the test measured nothing"
    assert peak < 50 * MB, f"{peak / MB:.1f} MB at once"
