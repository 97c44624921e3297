"""The Multi-head page's Measure button: both classes timed on this server within a budget
(``topics.multihead.speed``), then the verdict, a chart per mode and the measured times.

A fragment: pressing Measure reruns this section only. The timing runs through
:func:`topics.multihead.study.measure`, cached per grid and per reuse window and run under the
heavy-work budget, so a second reader who presses Measure soon after is shown the same timings at
once, and the page says whose press measured them and when. The reader's result lives in session
state (``mh_timings``) and stays on screen while other controls move.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from topics.multihead import figures as mf
from topics.multihead import speed, study
from ui import budget, figures
from ui.budget import unrecorded  # the bar is drawn from inside the cached call, never replayed

KEY, LABEL = "mh_measure", "Measure"  # the button: stable, for tests and `bench interference`
RESULT = "mh_timings"


@dataclass(frozen=True)
class Shown:
    """What one reader's press of Measure got: the measurement and when they pressed."""

    measurement: study.Measurement
    asked: float  # wall clock (time.time()) of the press

    @property
    def fresh(self) -> bool:
        """Whether this press measured (the timing began after it), or was shown an earlier one."""
        return self.measurement.started >= self.asked

    @property
    def reuse_until(self) -> float:
        """The end of the press's reuse window: the first press after it measures again."""
        return (self.asked // speed.PAGE_REUSE_S + 1) * speed.PAGE_REUSE_S


def clock(t: float, fmt: str = "%H:%M:%S UTC") -> str:
    """``03:20:11 UTC``: a wall-clock time as the page prints it."""
    return time.strftime(fmt, time.gmtime(t))


def _ago(seconds: float) -> str:
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} second{'s' * (s != 1)}"
    m = round(s / 60)
    return f"{m} minute{'s' * (m != 1)}"


def provenance(shown: Shown) -> str:
    """Where and when the timings on screen were measured, and whether they were this reader's."""
    m = shown.measurement
    until = clock(shown.reuse_until, "%H:%M UTC")
    if shown.fresh and not m.conclusive:
        return (
            f"Measured on this server for your press, at {clock(m.started)}, in {m.seconds:.1f} s. "
            "Too few rounds to tell, so these timings are not kept for other readers: the next press "
            "measures again."
        )
    if shown.fresh:
        return (
            f"Measured on this server for your press, at {clock(m.started)}, in {m.seconds:.1f} s. "
            f"Anyone who presses Measure before {until} is shown these same timings from the cache; "
            "the first press after that measures again."
        )
    done = m.started + m.seconds
    return (
        f"Measured on this server at {clock(m.started)}, {_ago(shown.asked - done)} before you "
        f"pressed Measure, for the first reader who asked: these are that reader's timings, shown to "
        f"you from the cache, not measured again, and the server's load may differ now. The first "
        f"press after {until} measures again."
    )


def _measure() -> Shown:
    """The page's grid, timed (or found in the cache), with a progress bar while it is timed."""
    ns, heads, d, budget_s = speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D, speed.PAGE_BUDGET_S
    cells = speed.page_cells(ns, heads, d)
    slot = st.empty()  # the bar: a press that finds the timings cached clears it at once
    slot.progress(
        0.0, text="Timing both classes on this server, or fetching the timings another reader's press took…"
    )

    def progress(i: int | None, r: int, elapsed: float) -> None:
        if i is None:
            text, done = f"Warming up both classes, then timing them for {budget_s:g} s…", 0.0
        else:
            case, mode = cells[i]
            text = (
                f"Round {r + 1}: wrapper vs split, {speed.MODE_TITLES[mode].split(' (')[0].lower()}, "
                f"H = {case.heads}, n = {case.n:,} ({elapsed:.1f} of {budget_s:g} s)"
            )
            done = min(elapsed / budget_s, 1.0)
        with unrecorded():
            slot.progress(done, text=text)

    asked = time.time()
    key = (ns, heads, d, budget_s, int(asked // speed.PAGE_REUSE_S))
    with budget.waiting_room():
        m = study.measure(*key, progress)
    if not m.conclusive:  # too busy to tell: not kept for the next reader, who measures again
        study.measure.clear(*key)  # type: ignore[attr-defined]  # a CachedFunc clears one entry
    slot.empty()
    return Shown(m, asked)


@st.fragment
def section(intro: str) -> None:
    """The stopwatch: ``intro`` (the view's), the button, then the verdict per mode and the times."""
    st.header("Measure on this machine")
    st.markdown(intro)
    if st.button(LABEL, key=KEY, icon=":material/timer:"):
        st.session_state[RESULT] = _measure()
    shown = st.session_state.get(RESULT)
    if not isinstance(shown, Shown):
        return
    st.caption(provenance(shown))
    results = shown.measurement.results
    for col, mode in zip(st.columns(2), speed.MODES, strict=True):
        mine = [p for p in results if p.mode == mode]
        with col:
            if any(p.interval is not None for p in mine):  # an empty chart would say nothing
                figures.show(mf.speedup_chart(mine, title=speed.MODE_TITLES[mode]), key=f"mh_speed_{mode}")
            else:
                st.markdown(f"**{speed.MODE_TITLES[mode]}**")
            st.markdown(speed.verdict(mine))
    with st.expander("The measured times"):
        st.dataframe(pd.DataFrame(speed.rows(results)), hide_index=True, width="stretch")
