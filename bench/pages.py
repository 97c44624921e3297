"""Server time of a page's script run, measured the way a user pays it: the whole run.

``AppTest`` runs the page script in-process exactly as the server would (st.navigation, the
page, every figure built and serialised), so its wall time is the server time of a rerun.
CPU time of the process is reported beside it: on a shared machine it is the steadier figure.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bench import Figure

BARE = """
import streamlit as st
x = st.slider("x", 0, 10, 5, key="x")
st.title("Bare")
st.write(f"x is {x}")
"""  # the yardstick: what any Streamlit rerun costs, with nothing of this app in it


SHELL = """
import streamlit as st

def first():
    st.title("First")
    st.write("A paragraph. " * 40)

def second():
    st.title("Second")

page = st.navigation([st.Page(first, title="First"), st.Page(second, title="Second")])
st.sidebar.slider("x", 0, 10, 5, key="x")
page.run()
"""  # Streamlit's multipage shell and nothing else: a sidebar with its page links and one control


def bare_rerun(repeats: int = 40) -> tuple[float, float]:
    """Median wall and CPU seconds of a rerun of :data:`BARE` after a slider change, in AppTest, in
    this process: every page's rerun is read as a multiple of this, measured in the same run."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(BARE)
    at.run()
    wall, cpu = [], []
    for i in range(repeats):
        at.slider(key="x").set_value(i % 10)
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


@dataclass(frozen=True)
class Timing:
    cold_s: float  # the first run of the page in a fresh session (caches may be cold)
    wall_s: list[float]  # each rerun after a control change, warm cache
    cpu_s: list[float]

    def figures(self, name: str, bare_s: float | None = None) -> Iterable[Figure]:
        """The figures; with ``bare_s`` (:func:`bare_rerun`'s median), the rerun as its multiple."""
        yield Figure(f"{name}_rerun_median", statistics.median(self.wall_s) * 1e3, "ms")
        if bare_s:
            yield Figure(f"{name}_rerun_vs_bare", statistics.median(self.wall_s) / bare_s, "x")
        yield Figure(f"{name}_rerun_p95", float(np.percentile(self.wall_s, 95)) * 1e3, "ms")
        yield Figure(f"{name}_rerun_cpu_median", statistics.median(self.cpu_s) * 1e3, "ms")
        yield Figure(f"{name}_first_run", self.cold_s * 1e3, "ms")


def rerun_times(
    path: str,
    key: str | None,
    values: Sequence[object],
    repeats: int = 20,
    query: dict[str, str | list[str]] | None = None,
) -> Timing:
    """Open ``path`` in a fresh AppTest session (with the URL query ``query``, e.g. a preset), then
    time ``repeats`` reruns, each after setting the widget ``key`` to the next of ``values`` (in
    turn); ``key=None`` reruns unchanged."""
    from tests.app.conftest import open_page, widget

    t0 = time.perf_counter()
    at = open_page(path, query)
    cold = time.perf_counter() - t0
    if at.exception:
        raise RuntimeError(f"{path} raised: {at.exception[0].message}")
    for v in values:  # warm every value's cache once, as a user's second visit would find it
        if key is not None:
            widget(at, key).set_value(v)
        at.run()
    wall, cpu = [], []
    for i in range(repeats):
        if key is not None:
            widget(at, key).set_value(values[i % len(values)])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    if at.exception:
        raise RuntimeError(f"{path} raised: {at.exception[0].message}")
    return Timing(cold, wall, cpu)
