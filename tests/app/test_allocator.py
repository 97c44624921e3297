"""allocator.py, beside the entry point: after glibc is tuned, freed NumPy arrays leave the process.

Run in a fresh interpreter each, so the thresholds start as glibc sets them. The pattern is what
a session does: one big array raises glibc's threshold to its size (here 16 MB), then arrays of
a few megabytes come and go between small objects that stay. Untuned, they come from the heap
and the freed memory stays resident behind the survivors; tuned, each is its own mapping and
goes back to the OS when freed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.app.conftest import ROOT

SCRIPT = """
import sys
import numpy as np
from bench import rss
import allocator
if sys.argv[1] == "tuned":
    assert allocator.tune() and allocator.tune()  # True, and once is enough
big = np.ones(2**21); del big  # 16 MB: glibc's threshold rises to this, untuned
base = rss.current()
arrays, kept = [], []
for _ in range(40):  # 40 arrays of 4 MB (160 MB), each followed by a small array that stays
    arrays.append(np.ones(2**19))
    kept.append(np.ones(2**13))  # 64 KB: too big for a gap left by the imports
del arrays  # freed between survivors: the heap cannot shrink past them
print((rss.current() - base) / 2**20)
"""


def _kept_mb(mode: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_freed_arrays_go_back_to_the_os_once_tuned():
    assert _kept_mb("untuned") > 100  # the behaviour tune() exists for: 160 MB kept
    assert _kept_mb("tuned") < 16


FREEZE = """
import gc
import pandas, plotly.graph_objects, streamlit  # what the app imports before its first run
import allocator

gc.collect()
walked = len(gc.get_objects())  # what a collection walks: every object the collector tracks
assert allocator.freeze_imports() and not allocator.freeze_imports()  # True once, per process
left = len(gc.get_objects())

class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the freeze: still garbage the collector finds
del a, b
print(walked, left, gc.get_freeze_count(), gc.collect())
"""


def test_after_the_freeze_a_collection_walks_none_of_the_imports_and_still_frees_new_cycles():
    out = subprocess.run([sys.executable, "-c", FREEZE], cwd=ROOT, capture_output=True, text=True, check=True)
    walked, left, frozen, freed = (int(x) for x in out.stdout.split())
    assert walked > 50_000 and frozen > 0.99 * walked  # the libraries' objects, all frozen
    assert left < walked / 100  # a collection now walks almost nothing
    assert freed >= 2  # the two nodes of the new cycle
