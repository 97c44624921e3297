"""The Multi-head page's Measure button: both classes timed on this machine within a budget
(``topics.multihead.speed``), then the verdict, a chart per mode and the measured times.

The timings are a measurement, not a function of the page's settings, so they live in session
state (``mh_timings``) and stay on screen while other controls move.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from topics.multihead import figures as mf
from topics.multihead import speed
from ui import figures


def _measure() -> list[speed.Paired]:
    """Every cell of the page's grid, interleaved, within ``PAGE_BUDGET_S``, with a progress bar."""
    budget = speed.PAGE_BUDGET_S
    cells = [
        (case, mode)
        for mode in speed.MODES
        for case in speed.grid(speed.PAGE_NS, speed.PAGE_HEADS, (1,), speed.PAGE_D)
    ]
    bar = st.progress(0.0, text=f"Warming up both classes, then timing them for {budget:g} s…")

    def progress(i: int, r: int, elapsed: float) -> None:
        case, mode = cells[i]
        bar.progress(
            min(elapsed / budget, 1.0),
            text=f"Round {r + 1}: wrapper vs split, {speed.MODE_TITLES[mode].split(' (')[0].lower()}, "
            f"H = {case.heads}, n = {case.n:,} ({elapsed:.1f} of {budget:g} s)",
        )

    results = speed.measure_interleaved(cells, budget, progress=progress)
    bar.empty()
    return results


def section(intro: str) -> None:
    """The stopwatch: ``intro`` (the view's), the button, then the verdict per mode and the times."""
    st.header("Measure on this machine")
    st.markdown(intro)
    if st.button("Measure", key="mh_measure", icon=":material/timer:"):
        st.session_state["mh_timings"] = _measure()
    results = st.session_state.get("mh_timings")
    if not results:
        return
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
