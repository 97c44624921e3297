"""Each page's slowest legal setting, found from the page's own control ranges, and what it costs.

Targets (issue 25): the slowest setting's first run under 2 s on this 2-core machine, its warm
rerun at most 20× a bare Streamlit rerun (:data:`bench.pages.BARE`, timed in turn with it in the
same process), and any first run over 0.5 s under a spinner or progress bar.

How the setting is found. The controls and their ranges are read from the page through AppTest
(:mod:`bench.controls`), never listed here, with the sentence as a ladder of lengths (1, 6: the
book's, 12, 26 and 32 tokens, every one tried) and the embedding width (``dim``) at both ends of
what ``core.sentence`` allows. The search is a coordinate ascent over their
extremes: start at the defaults (and again at every ordered control's high end, and its low
end: see :func:`starts`); for each control in turn try each of its extremes (both ends of
a slider or ladder, every option of a radio or select box, both toggle states) with every other
control where the search left it, and keep a value when the page's first run gets slower by more
than 15% (noise on a shared machine); repeat until a whole pass changes nothing (at most three
passes). Each trial is a *first* run: every ``st.cache_data`` and ``st.cache_resource`` is cleared
and the page is opened in a fresh session from its URL, as a reader following a link to a view
nobody has asked for yet. Buttons and free text boxes other than the sentence are not searched
(see :mod:`bench.controls`). A trial's setting is the one the page ran, read back from its
widgets: a page narrows a range to what the rest allows (Dropout's draws to the sentence).

Printed, one line per page: first-run ms (the faster of two fresh cold runs), the warm median of
reruns at that setting and its multiple of the bare rerun, each with the process's CPU ms beside
it (the machine is shared: wall time rises with other people's load, CPU time much less; the
search compares CPU times), and the
process's peak resident MB during the first run with, in brackets, how much of it the run itself
added. The bench process holds AppTest and every page's
imports, so the absolute peak reads higher than a server's; the added MB is the run's own.
A second line per page names the most memory-hungry setting: of every trial the search ran, the
one whose run added the most MB (the search is steered by time; memory rides along with it).
In ``--quick`` mode one pass from the defaults and the high ends (not the low ends).
"""

from __future__ import annotations

import gc
import json
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

from bench import rss
from bench.controls import Control, Setting, describe, query, ran_at, read_controls

SLOWER = 1.15  # a trial replaces the current worst only when this much slower (plus 5 ms)


@dataclass(frozen=True)
class Trial:
    setting: Setting
    first_s: float  # wall time of the first run
    cpu_s: float  # the process's CPU time over it: steadier than wall time on a shared machine
    peak_mb: float  # the process's peak resident memory during the run
    added_mb: float  # that peak minus the resident memory just before the run


HUNGRIEST: dict[str, Trial] = {}  # page path -> the trial of the search that added the most memory


def cold_run(path: str, setting: Setting, timeout: float = 900, controls: list[Control] | None = None):
    """Clear every cache, open ``path`` at ``setting`` in a fresh session; the trial and the AppTest.
    With ``controls``, the URL leaves out the values at their default, as the app's own links do.
    The session's first run is the page's (as ``tests.app.conftest.open_page`` opens it): the
    sentence and the width are the session's, read from the URL on its first run only."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest
    from streamlit.testing.v1.app_test import calc_hash

    from tests.app.conftest import APP
    from topics import PAGES

    st.cache_data.clear()
    st.cache_resource.clear()
    page_hash = calc_hash(next(p.url_path for p in PAGES if p.path == path))
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update(query(setting, controls) if controls else setting)
    at._page_hash = page_hash
    gc.collect()
    before = rss.current()
    rss.reset_peak()
    t0, c0 = time.perf_counter(), time.process_time()
    at.run()
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = rss.peak()
    if at.exception:
        raise RuntimeError(f"{path} at {setting} raised: {at.exception[0].message}")
    if at._finished_page_script_hash != page_hash:
        raise RuntimeError(f"AppTest did not open {path}")
    trial = Trial(ran_at(at, setting.keys()), elapsed, cpu, peak / rss.MB, (peak - before) / rss.MB)
    HUNGRIEST[path] = max(HUNGRIEST.get(path, trial), trial, key=lambda t: t.added_mb)
    return trial, at


def starts(controls: list[Control], quick: bool = False) -> list[Setting]:
    """Where the ascent starts: the defaults, every ordered control at its high end, and at its low
    end. One start is not enough: from the defaults, Divide by √d_k's brute-force sampler is the
    slowest single move, and from there more draws only make it faster (its grid shrinks), so the
    exact sampler's corner (100,000 draws of 64 keys) is reached only from the high end."""
    defaults = {c.key: c.default for c in controls}
    high = {c.key: c.values[-1] if c.ordered else c.default for c in controls}
    low = {c.key: c.values[0] if c.ordered else c.default for c in controls}
    out: list[Setting] = []
    for s in (defaults, high) if quick else (defaults, high, low):
        if s not in out:
            out.append(s)
    return out


def ascend(path: str, controls: list[Control], start: Setting, passes: int) -> Trial:
    """Coordinate ascent from ``start`` over the controls' extremes (module docstring)."""
    worst, _ = cold_run(path, start, controls=controls)
    for _ in range(passes):
        moved = False
        for c in controls:
            for value in c.extremes:
                if value == worst.setting[c.key]:
                    continue
                trial, _ = cold_run(path, {**worst.setting, c.key: value}, controls=controls)
                if trial.cpu_s > worst.cpu_s * SLOWER + 0.005:
                    worst, moved = trial, True
        if not moved:
            break
    return worst


def search(path: str, controls: list[Control], passes: int = 3, quick: bool = False) -> Trial:
    """The slowest setting: the slowest end point of an ascent from each of :func:`starts`."""
    cold_run(path, {})  # imports the page's modules, so no trial pays for them
    HUNGRIEST.pop(path, None)
    ends = [ascend(path, controls, s, passes) for s in starts(controls, quick)]
    return max(ends, key=lambda t: t.cpu_s)


def warm_median(at, repeats: int) -> tuple[float, float, float]:
    """Median wall and CPU seconds of a rerun at the same setting with every cache warm, and the
    median wall seconds of :data:`bench.pages.BARE`'s rerun timed in turn with them (the machine's
    speed drifts within a minute; the two meet the same moments of it)."""
    from bench.pages import bare_app, bare_once

    bare_at = bare_app()
    wall, cpu, bare = [], [], []
    for i in range(repeats):
        bare.append(bare_once(bare_at, i)[0])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), statistics.median(bare)


@dataclass(frozen=True)
class Row:
    page: str
    settings: str
    first_ms: float
    first_cpu_ms: float
    warm_ms: float
    warm_cpu_ms: float
    warm_vs_bare: float  # the warm median over a bare Streamlit rerun's, timed in turn with it
    peak_mb: float
    added_mb: float
    hungriest: str  # the setting whose run added the most memory, and what it added

    def line(self) -> str:
        return (
            f"worst {self.page}: first run {self.first_ms:,.0f} ms (cpu {self.first_cpu_ms:,.0f}), "
            f"warm median {self.warm_ms:,.0f} ms (cpu {self.warm_cpu_ms:,.0f}) = "
            f"{self.warm_vs_bare:.1f}x bare, "
            f"peak {self.peak_mb:,.0f} MB (+{max(self.added_mb, 0):,.0f}) | {self.settings}\n"
            f"hungriest {self.page}: {self.hungriest}"
        )


def worst_settings(quick: bool = False) -> Iterator[tuple[str, Setting, list[Control]]]:
    """Each page's url path, its slowest setting, and its controls (for other benches)."""
    from topics import PAGES

    for info in PAGES:
        controls = read_controls(info.path, sentence=True)
        yield info.url_path, search(info.path, controls, 1 if quick else 3, quick).setting, controls


FOUND = "artifacts/worst.json"  # the settings found, for bench memory's readers


def run(quick: bool) -> Iterator[Row]:
    from bench.pages import server_script_cache
    from tests.e2e.conftest import ROOT
    from topics import PAGES

    server_script_cache()
    paths = {p.url_path: p.path for p in PAGES}
    found: dict[str, Setting] = {}
    for page, setting, controls in worst_settings(quick):
        found[page] = query(setting, controls)
        (ROOT / FOUND).parent.mkdir(exist_ok=True)
        (ROOT / FOUND).write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
        (a, _), (b, at) = (cold_run(paths[page], setting, controls=controls) for _ in range(2))
        first = min((a, b), key=lambda t: t.first_s)
        warm, warm_cpu, bare = warm_median(at, 9 if quick else 21)
        hungry = HUNGRIEST[paths[page]]
        yield Row(
            page,
            describe(setting, controls),
            first.first_s * 1e3,
            first.cpu_s * 1e3,
            warm * 1e3,
            warm_cpu * 1e3,
            warm / bare,
            max(a.peak_mb, b.peak_mb),
            max(a.added_mb, b.added_mb),
            f"peak {hungry.peak_mb:,.0f} MB (+{max(hungry.added_mb, 0):,.0f}) "
            f"| {describe(hungry.setting, controls)}",
        )
