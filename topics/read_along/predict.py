"""The prediction box, as a tutor runs it: a guess, a hint after each wrong guess and another try
with a changed guess, then the computed answer with its explanation, revealed only by a right guess
or by "Show the answer"; the first try of each goes into the reader's progress (``progress``).

The figure stays on screen throughout with only the answer's part covered (``page.py``); the
verdict is drawn above it after the reveal, so a phone shows it without scrolling. Guesses and
the tally are the reader's own and stay out of the link: a shared step asks its question afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from topics.read_along import progress
from topics.read_along.step import Question
from ui import classroom

REVEALS = "_read_along_reveals"  # how many reveals this session: each scrolls its verdict into view once
_SAID, _HINT, _GUESS = "_read_along_said_", "_read_along_hint_", "_read_along_guess_"
PREFIXES = (_SAID, _HINT, _GUESS)  # what "Start over" forgets of the session
SHORT = 16  # options no longer than this sit on one line: the figure starts higher on a phone

# The verdict takes the question's place. A rerun that redraws the figure above it can leave the page
# scrolled elsewhere (on a 390 px phone it was found 954 px down, below the fold, after a reveal), so a
# Components v2 component just above the verdict brings its own box into view, once per reveal (its
# ``data`` changes), unless it is in the top half of the screen already. It moves no other element.
# A second look, 600 ms on, brings it up again only if a late layout pushed it down: a verdict above
# the screen by then means the reader has scrolled on (to Next), and pulling the page back moved
# Next from under a tap that was already on its way (a phone walk's Next missed in CI). The box
# stops 4rem below the screen's top: at 0, Streamlit's header covered the verdict's first line. On a
# phone, where the figure comes below the verdict, "in view" is at the top: a long verdict left in the
# top half pushed step 18's figure below the screen (CI, 905 px on an 844 px screen).
_IN_VIEW = st.components.v2.component(
    "read_along_verdict_in_view",
    html="<div></div>",
    js="""export default function ({ parentElement, data }) {
  const box = parentElement.host || parentElement;
  box.style.scrollMarginTop = "4rem";  // below the app's header, which would cover the verdict's first line
  // Where the columns stack (Streamlit's 640 px), the figure follows the verdict: the verdict goes to
  // the top, or a long one (step 18's) leaves the figure below the screen.
  const margin = () => parseFloat(getComputedStyle(box).scrollMarginTop);
  const low = () => (window.innerWidth < 640 ? 2 * margin() : window.innerHeight / 2);
  const bring = (again) => {
    const top = box.getBoundingClientRect().top;
    if ((!again && top < 0) || top > low()) box.scrollIntoView({ block: "start" });
  };
  if (data) { requestAnimationFrame(() => bring(false)); setTimeout(() => bring(true), 600); }
}""",
)


def _said(key: str) -> str:
    return _SAID + key


def _hint(key: str) -> str:
    return _HINT + key


def _guess(key: str) -> str:
    return _GUESS + key


def tally() -> Mapping[str, bool]:
    """Each prediction answered so far, and whether its first try was right."""
    return progress.tally()


def restore(at: Mapping[str, Any]) -> None:
    """Open the steps the browser had stored as answered at sentence ``at`` revealed, as they were."""
    for key, guess in progress.restored(at).items():
        st.session_state.setdefault(_said(key), guess)


def _revealed_now() -> None:
    st.session_state[REVEALS] = st.session_state.get(REVEALS, 0) + 1


def _show(key: str, at: Mapping[str, Any]) -> None:
    """Reveal the answer, judging the last guess checked (or none, for "Show the answer")."""
    _revealed_now()
    said = st.session_state.get(_hint(key))
    st.session_state[_said(key)] = said
    st.session_state.pop(_hint(key), None)
    progress.count(key, said, False, at)


def _changed(key: str) -> bool:
    """Whether the guess in the box is one not yet checked: only a changed guess is another try."""
    g = st.session_state.get(_guess(key))
    return g is not None and g != st.session_state.get(_hint(key))


def _check(key: str, q: Question, at: Mapping[str, Any]) -> None:
    if not _changed(key):  # the guess already judged: not another try
        return
    g = st.session_state[_guess(key)]
    right = q.right(g)
    if _hint(key) not in st.session_state:  # the first try: it counts, and a class keeps it
        progress.count(key, g, right, at)
        classroom.record_first_guess(key, g, right, len(q.options))
    if right:  # only a right guess or "Show the answer" reveals
        _revealed_now()
        st.session_state[_said(key)] = g
        st.session_state.pop(_hint(key), None)
    else:  # a wrong try: a hint; change the guess to try again, or see the answer
        st.session_state[_hint(key)] = g


def _again(key: str) -> None:
    st.session_state.pop(_said(key), None)
    st.session_state.pop(_hint(key), None)


def revealed(key: str) -> bool:
    return _said(key) in st.session_state


def verdict(q: Question, key: str) -> None:
    """The judged guess and the full explanation (drawn above the figure once revealed)."""
    said = st.session_state[_said(key)]
    if q.is_choice and said not in range(len(q.options)):  # a stored guess that no longer fits
        said = None
    j = q.judge(said)
    _IN_VIEW(key=f"_read_along_in_view_{key}", data=st.session_state.get(REVEALS, 0), height=1)
    box = st.success if j.right else st.info if j.right is None else st.warning
    box(f"**{j.headline}** {j.explanation}")
    st.button("Predict again", key=f"_read_along_again_{key}", on_click=_again, args=(key,))


def ask(q: Question, key: str, at: Mapping[str, Any]) -> None:
    """The question, its input and how close counts; after a wrong guess, a hint, and the check is
    enabled again once the guess is changed. ``at`` is the sentence it is asked at."""
    with st.container(border=True):
        st.markdown(f"**Predict first.** {q.prompt}")
        wrong = st.session_state.get(_hint(key))
        if q.is_choice:
            st.radio(
                "Your prediction",
                range(len(q.options)),
                index=None,
                format_func=q.options.__getitem__,
                key=_guess(key),
                horizontal=max(map(len, q.options)) <= SHORT,  # "6 × 2": a line, not four
                label_visibility="collapsed",  # named for a screen reader; the prompt stands above it
            )
        else:
            st.number_input(
                f"Your prediction{f' ({q.unit[1]})' if q.unit[1] else ''}",
                value=None,
                step=1.0 if q.whole else None,
                format="%.10g",  # as typed: 1.006 stays 1.006, 36864 stays 36864
                key=_guess(key),
            )
            st.caption(q.rule)
        if wrong is not None:
            said = q.options[int(wrong)] if q.is_choice else q.said(wrong)
            st.warning(
                f"**Not quite: you said {said}.** Hint: {q.hint} Change your prediction to check it "
                "again, or show the answer.",
                icon=":material/lightbulb:",
            )
        row = st.container(horizontal=True)  # side by side on a phone too: the figure starts higher
        row.button(
            "Check again" if wrong is not None else "Check my answer",
            key=f"_read_along_check_{key}",
            on_click=_check,
            args=(key, q, at),
            disabled=not _changed(key),
            width="stretch",
        )
        row.button(
            "Show the answer", key=f"_read_along_show_{key}", on_click=_show, args=(key, at), width="stretch"
        )
