"""The prediction box, as a tutor runs it: a guess, a hint after a wrong first guess, then the
computed answer with its explanation; and the tally of first tries, kept in the session.

The figure stays on screen throughout with only the answer's part covered (``page.py``); the
verdict is drawn above it after the reveal, so a phone shows it without scrolling. Guesses and
the tally are the reader's own and stay out of the link: a shared step asks its question afresh.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from topics.read_along.step import Question
from ui import classroom

TALLY = "_read_along_tally"  # {step key: right at the first try}, one entry per prediction revealed
REVEALS = "_read_along_reveals"  # how many reveals this session: each scrolls its verdict into view once

# The verdict takes the question's place. A rerun that redraws the figure above it can leave the page
# scrolled elsewhere (on a 390 px phone it was found 954 px down, below the fold, after a reveal), so a
# Components v2 component just above the verdict brings its own box into view, once per reveal (its
# ``data`` changes), unless it is in the top half of the screen already. It moves no other element.
_IN_VIEW = st.components.v2.component(
    "read_along_verdict_in_view",
    html="<div></div>",
    js="""export default function ({ parentElement, data }) {
  const box = parentElement.host || parentElement;
  const bring = () => {
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) box.scrollIntoView({ block: "start" });
  };
  if (data) { requestAnimationFrame(bring); setTimeout(bring, 600); }
}""",
)


def _said(key: str) -> str:
    return f"_read_along_said_{key}"


def _hint(key: str) -> str:
    return f"_read_along_hint_{key}"


def _guess(key: str) -> str:
    return f"_read_along_guess_{key}"


def tally() -> Mapping[str, bool]:
    """Each prediction revealed so far, and whether its first try was right."""
    return dict(st.session_state.get(TALLY, {}))


def _count(key: str, right: bool) -> None:
    """The first try of ``key`` goes into the tally; later tries do not change it."""
    st.session_state[TALLY] = {**tally(), key: tally().get(key, right)}


def _revealed_now() -> None:
    st.session_state[REVEALS] = st.session_state.get(REVEALS, 0) + 1


def _show(key: str) -> None:
    """Reveal the answer, judging the last guess checked (or none, for "Show the answer")."""
    _revealed_now()
    st.session_state[_said(key)] = st.session_state.get(_hint(key))
    st.session_state.pop(_hint(key), None)
    _count(key, False)


def _check(key: str, q: Question) -> None:
    g = st.session_state.get(_guess(key))
    if g is None:
        return
    right = q.right(g)
    classroom.record_first_guess(key, g, right, len(q.options))  # issue 45: kept only if it is the first
    _count(key, right)
    if right or _hint(key) in st.session_state:  # right, or the second wrong try: the answer
        _revealed_now()
        st.session_state[_said(key)] = g
        st.session_state.pop(_hint(key), None)
    else:  # a wrong first try: a hint, then try again or see the answer
        st.session_state[_hint(key)] = g


def _again(key: str) -> None:
    st.session_state.pop(_said(key), None)
    st.session_state.pop(_hint(key), None)


def revealed(key: str) -> bool:
    return _said(key) in st.session_state


def verdict(q: Question, key: str) -> None:
    """The judged guess and the full explanation (drawn above the figure once revealed)."""
    j = q.judge(st.session_state[_said(key)])
    _IN_VIEW(key=f"_read_along_in_view_{key}", data=st.session_state.get(REVEALS, 0), height=1)
    box = st.success if j.right else st.info if j.right is None else st.warning
    box(f"**{j.headline}** {j.explanation}")
    st.button("Predict again", key=f"_read_along_again_{key}", on_click=_again, args=(key,))


def ask(q: Question, key: str) -> None:
    """The question, its input and how close counts; after a wrong first guess, a hint."""
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
            st.warning(f"**Not quite: you said {said}.** Hint: {q.hint}", icon=":material/lightbulb:")
        left, right = st.columns(2)
        left.button(
            "Try again" if wrong is not None else "Check my answer",
            key=f"_read_along_check_{key}",
            on_click=_check,
            args=(key, q),
            disabled=st.session_state.get(_guess(key)) is None,
            width="stretch",
        )
        right.button(
            "Show the answer", key=f"_read_along_show_{key}", on_click=_show, args=(key,), width="stretch"
        )
