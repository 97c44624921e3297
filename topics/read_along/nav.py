"""The tour's controls: the step, read from the URL's ``step``, and Back and Next.

A link's ``step`` value that is not a step number falls back to the nearest step there is
(``view.nearest``), with a message. The step is not a bound control: ``st.switch_page`` cannot set
a bound key, and a bound control's change is written with ``replaceState`` (no history entry).
Instead Back, Next and the sidebar's slider write ``st.query_params["step"]`` in their callback
(``st.query_params``, Streamlit 1.67's documented way to set the URL), so the run they start reads
the new step and Streamlit pushes the new address; ``ui.links`` keeps a push that changes ``step``
as its own history entry. So the browser's Back and Forward walk the tour, a reload stays on the
step, the session (the tally) is kept (no page reload), and ``?step=N`` stays the link.
"""

from __future__ import annotations

import streamlit as st

from topics.read_along.view import nearest

PAGE = "topics/read_along/page.py"
KEY = "step"
SLIDER_KEY = "_read_along_step"
NEXT_KEY, BACK_KEY = "read_along_next", "read_along_back"
_PROBLEM = "_read_along_link_problem"  # what was wrong with the link, said on the run after


# A new step keeps the old one's scroll position (on a desktop it opened 123-265 px below its title), so a
# Components v2 element just above the title brings itself, and so the title, to the top of the screen
# whenever the step it is handed differs from the last one it was handed in this tab (Next, Back, the
# slider, the browser's Back and Forward); never on the first load or on a rerun of the same step (a
# reveal). It moves no other element.
_LANDING = st.components.v2.component(
    "read_along_landing",
    html="<div></div>",
    js="""let shown = null;
export default function ({ parentElement, data }) {
  const box = parentElement.host || parentElement;
  const moved = shown !== null && shown !== data;
  shown = data;
  if (!moved) return;
  const land = () => {
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 3) box.scrollIntoView({ block: "start" });
  };
  requestAnimationFrame(land);
  setTimeout(land, 400);
}""",
)


def landing(number: int) -> None:
    """Above the title: the page lands on it when the step changes."""
    if st.runtime.exists():
        _LANDING(key="_read_along_landing", data=number, height=1)


def step_control(total: int) -> int:
    """The step on screen (1-based, of ``total``), read from the link's ``step``; the sidebar's
    slider jumps to any step as Next does, as a new history entry."""
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
    st.session_state[SLIDER_KEY] = at  # the slider shows the step the link holds
    st.sidebar.slider(
        "Step",
        1,
        total,
        key=SLIDER_KEY,
        on_change=_slid,
        help="Jump to any step; Back and Next (keys B and N) walk one at a time.",
    )
    return at


def go(number: int) -> None:
    """Move to step ``number``: a callback, so the run it starts reads the new step, and Streamlit
    pushes the new address as a history entry (``ui.links`` keeps a step change as one)."""
    st.query_params[KEY] = str(number)


def _slid() -> None:
    go(int(st.session_state[SLIDER_KEY]))


def back_and_next(number: int, total: int) -> None:
    """Back and Next, side by side, with keyboard shortcuts B and N."""
    left, right = st.columns(2)
    left.button(
        "Back",
        key=BACK_KEY,
        on_click=go,
        args=(number - 1,),
        icon=":material/arrow_back:",
        disabled=number == 1,
        shortcut="B",
        width="stretch",
        help="The previous step of the tour (key B)",
    )
    right.button(
        "Next",
        key=NEXT_KEY,
        on_click=go,
        args=(number + 1,),
        icon=":material/arrow_forward:",
        disabled=number == total,
        shortcut="N",
        type="primary",
        width="stretch",
        help="The next step of the tour (key N)",
    )
