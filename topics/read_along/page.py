"""Read along: chapter 3 in order, one step at a time, each with a live figure and, on most, a
prediction before the reveal. Layout only: every number and sentence comes from ``view.build``."""

import streamlit as st

from topics import page_of
from topics.read_along import view
from topics.read_along.drawings import draw
from topics.read_along.nav import back_and_next, step_control
from topics.read_along.steps import STEPS
from ui.sentence import sentence_control

s = sentence_control()
number = step_control(tuple(d.title for d in STEPS))
t = view.build(number, s)
d, step = t.definition, t.step
topic = page_of(d.topic)

st.title("Read along")
st.progress(t.number / t.total, text=t.progress)
st.header(d.title)
st.markdown(step.text)


def figure() -> None:
    drawn = draw(step.figure)
    if drawn.figure is not None:
        st.plotly_chart(drawn.figure, key=f"read_along_{d.key}", config={"displayModeBar": False})
        st.caption(step.figure.highlight)
        with st.expander("Values as a table"):
            st.dataframe(drawn.table, width="stretch")
    else:
        st.caption(f"{step.figure.name}. {step.figure.highlight}")
        st.dataframe(drawn.table, width="stretch")


q = step.question
if q is None:
    figure()
else:
    shown_key = f"_read_along_shown_{d.key}"
    with st.container(border=True):
        st.markdown(f"**Predict first.** {q.prompt}")
        guess = (
            st.radio(
                "Your prediction",
                range(len(q.options)),
                index=None,
                format_func=q.options.__getitem__,
                key=f"_read_along_guess_{d.key}",
            )
            if q.is_choice
            else st.number_input(
                f"Your prediction{f' ({q.unit})' if q.unit else ''}",
                value=None,
                step=1 if q.whole else None,
                key=f"_read_along_guess_{d.key}",
            )
        )
        if st.button(
            "Check my answer" if guess is not None else "Show the answer", key=f"_read_along_check_{d.key}"
        ):
            st.session_state[shown_key] = True
        if st.session_state.get(shown_key):
            j = q.judge(guess)
            box = st.success if j.right else st.info if j.right is None else st.warning
            box(f"**{j.headline}** {j.explanation}")
    if st.session_state.get(shown_key):
        figure()

st.page_link(
    topic.path,
    label=f"Open {topic.title} at these settings",
    icon=":material/open_in_new:",
    query_params=step.link,  # the sentence's keys are shared: Streamlit carries them itself
)
back_and_next(t.number, t.total)
