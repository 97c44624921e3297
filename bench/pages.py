"""Server time of a page's script run, measured the way a user pays it: the whole run.

``AppTest`` runs the page script in-process exactly as the server would (st.navigation, the
page, every figure built and serialised), so its wall time is the server time of a rerun.
CPU time of the process is reported beside it: on a shared machine it is the steadier figure.

Two differences are taken out, both work a server does once for the process:
- ``AppTest`` gives each run two new ``ScriptCache`` objects, so it compiles the entry script and
  the page's script again on every rerun (about 1 ms each, the page's more). :func:`server_script_cache`
  shares one cache between runs and between the two, for the bare script and the pages alike.
- Each new ``AppTest`` session reads the metadata of every installed distribution, looking for
  Streamlit components (about 90 ms with this project's development packages, torch among them),
  where a server reads it once, at startup. :func:`scan_components_once` keeps the first scan.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

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


def server_script_cache() -> None:
    """Every AppTest run in this process from now on shares one ``ScriptCache``, as a server's
    sessions do: a script is compiled once, not on every rerun. The component scan is kept too
    (:func:`scan_components_once`)."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    # The script runner's cache compiles the entry script; the pages manager's, which AppTest makes
    # apart, compiles the page script that st.navigation runs.
    local_script_runner.ScriptCache = lambda: shared  # type: ignore[assignment,misc]
    app_test.ScriptCache = lambda: shared  # type: ignore[assignment,misc]
    scan_components_once()


def scan_components_once() -> None:
    """Every new AppTest session in this process from now on reuses the first session's scan of
    the installed distributions for Streamlit components, as a server's sessions share the one scan
    made at its start. The installed packages do not change while the process runs, so neither does
    the scan's result."""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)


def bare_app() -> Any:
    """:data:`BARE` in an AppTest session of its own, run once: the yardstick, ready to time."""
    from streamlit.testing.v1 import AppTest

    server_script_cache()
    at = AppTest.from_string(BARE)
    at.run()
    return at


def bare_once(at: Any, i: int) -> tuple[float, float]:
    """Wall and CPU seconds of one rerun of :func:`bare_app`'s session after its slider moves to
    ``i`` (mod 10)."""
    at.slider(key="x").set_value(i % 10)
    t0, c0 = time.perf_counter(), time.process_time()
    at.run()
    return time.perf_counter() - t0, time.process_time() - c0


def bare_rerun(repeats: int = 40) -> tuple[float, float]:
    """Median wall and CPU seconds of a rerun of :data:`BARE` after a slider change, in AppTest, in
    this process: every page's rerun is read as a multiple of this, measured in the same run."""
    at = bare_app()
    wall, cpu = zip(*(bare_once(at, i) for i in range(repeats)), strict=True)
    return statistics.median(wall), statistics.median(cpu)


@dataclass(frozen=True)
class Timing:
    cold_s: float  # the first run of the page in a fresh session (caches may be cold)
    wall_s: list[float]  # each rerun after a control change, warm cache
    cpu_s: list[float]
    bare_s: list[float] = field(default_factory=list)  # the bare script's rerun just before each

    def figures(self, name: str) -> Iterable[Figure]:
        """The figures; with the bare script's reruns timed in turn (``interleave``), the page's
        rerun as a multiple of them."""
        yield Figure(f"{name}_rerun_median", statistics.median(self.wall_s) * 1e3, "ms")
        if self.bare_s:
            ratio = statistics.median(self.wall_s) / statistics.median(self.bare_s)
            yield Figure(f"{name}_rerun_vs_bare", ratio, "x")
        yield Figure(f"{name}_rerun_p95", float(np.percentile(self.wall_s, 95)) * 1e3, "ms")
        yield Figure(f"{name}_rerun_cpu_median", statistics.median(self.cpu_s) * 1e3, "ms")
        yield Figure(f"{name}_first_run", self.cold_s * 1e3, "ms")


def rerun_times(
    path: str,
    key: str | None,
    values: Sequence[object],
    repeats: int = 20,
    query: dict[str, str | list[str]] | None = None,
    *,
    interleave: bool = False,
) -> Timing:
    """Open ``path`` in a fresh AppTest session (with the URL query ``query``, e.g. a preset), then
    time ``repeats`` reruns, each after setting the widget ``key`` to the next of ``values`` (in
    turn); ``key=None`` reruns unchanged.

    With ``interleave``, a rerun of :data:`BARE` is timed just before each of the page's, so both
    meet the same moment of a shared machine: the speed of this one drifts by half within a minute,
    which a yardstick timed before the page took for the page's own."""
    from tests.app.conftest import open_page, widget

    bare_at = bare_app()
    t0 = time.perf_counter()
    at = open_page(path, query)
    cold = time.perf_counter() - t0
    if at.exception:
        raise RuntimeError(f"{path} raised: {at.exception[0].message}")
    for v in values:  # warm every value's cache once, as a user's second visit would find it
        if key is not None:
            widget(at, key).set_value(v)
        at.run()
    wall, cpu, bare = [], [], []
    for i in range(repeats):
        if interleave:
            bare.append(bare_once(bare_at, i)[0])
        if key is not None:
            widget(at, key).set_value(values[i % len(values)])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    if at.exception:
        raise RuntimeError(f"{path} raised: {at.exception[0].message}")
    return Timing(cold, wall, cpu, bare)
