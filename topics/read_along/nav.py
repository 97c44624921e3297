"""The tour's controls: the step, bound to the URL as ``step``, and Back and Next.

A link's ``step`` value that is not a step number falls back to the nearest step there is
(``view.nearest``), with a message, before the control reads it: Streamlit alone would drop it and
open step 1. Back and Next change the bound control, so the address bar follows every move and is
a link to the step on screen.
"""

from __future__ import annotations

import streamlit as st

from topics.read_along.view import nearest
from ui import controls

KEY = "step"
NEXT_KEY, BACK_KEY = "read_along_next", "read_along_back"
_PROBLEM = "_read_along_link_problem"  # what was wrong with the link, said on the run after


def step_control(total: int) -> int:
    """The step on screen (1-based, of ``total``): the sidebar's slider, bound to ``?step=``."""
    values = st.query_params.get_all(KEY)
    at, problem = 1, None
    if len(values) > 1:
        problem = "The link gives the step more than once, so the tour starts at step 1."
    elif values:
        at, problem = nearest(values[0], total)
    if problem:  # write the nearest step into the link, then run again from it
        st.query_params[KEY] = str(at)
        st.session_state[_PROBLEM] = problem
        st.rerun()
    if (said := st.session_state.pop(_PROBLEM, None)) is not None:
        st.warning(said, icon=":material/link_off:")
    st.sidebar.header("Read along")
    return int(
        controls.slider(
            "Step",
            1,
            total,
            1,
            key=KEY,
            help="Jump to any step; Back and Next (keys B and N) walk one at a time.",
        )
    )


def _move(by: int, total: int) -> None:
    st.session_state[KEY] = min(max(int(st.session_state.get(KEY, 1)) + by, 1), total)


def back_and_next(number: int, total: int) -> None:
    """Back and Next, side by side, with keyboard shortcuts B and N."""
    left, right = st.columns(2)
    left.button(
        "Back",
        key=BACK_KEY,
        icon=":material/arrow_back:",
        on_click=_move,
        args=(-1, total),
        disabled=number == 1,
        shortcut="B",
        width="stretch",
    )
    right.button(
        "Next",
        key=NEXT_KEY,
        icon=":material/arrow_forward:",
        on_click=_move,
        args=(1, total),
        disabled=number == total,
        shortcut="N",
        type="primary",
        width="stretch",
    )
