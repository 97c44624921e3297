"""The prediction box: a choice or a number, then the computed answer judged against it.

The guess is kept at the click that reveals the answer, so the box can fold to the verdict alone
(a phone then shows the step's figure sooner) and "Predict again" opens it as it was. Guesses are
the reader's own and stay out of the link: a shared step asks its question afresh.
"""

from __future__ import annotations

import streamlit as st

from topics.read_along.step import Question


def _said(key: str) -> str:
    return f"_read_along_said_{key}"


def _reveal(key: str) -> None:
    st.session_state[_said(key)] = st.session_state.get(f"_read_along_guess_{key}")


def _again(key: str) -> None:
    st.session_state.pop(_said(key), None)


def prediction(q: Question, key: str) -> bool:
    """Draw the box for the step ``key``; True once its answer is shown."""
    with st.container(border=True):
        st.markdown(f"**Predict first.** {q.prompt}")
        if _said(key) in st.session_state:
            j = q.judge(st.session_state[_said(key)])
            box = st.success if j.right else st.info if j.right is None else st.warning
            box(f"**{j.headline}** {j.explanation}")
            st.button("Predict again", key=f"_read_along_again_{key}", on_click=_again, args=(key,))
            return True
        guess = (
            st.radio(
                "Your prediction",
                range(len(q.options)),
                index=None,
                format_func=q.options.__getitem__,
                key=f"_read_along_guess_{key}",
            )
            if q.is_choice
            else st.number_input(
                f"Your prediction{f' ({q.unit})' if q.unit else ''}",
                value=None,
                step=1 if q.whole else None,
                key=f"_read_along_guess_{key}",
            )
        )
        st.button(
            "Show the answer" if guess is None else "Check my answer",
            key=f"_read_along_check_{key}",
            on_click=_reveal,
            args=(key,),
        )
        return False
