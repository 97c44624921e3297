"""Read along: chapter 3 in order, one step at a time, each with a live figure and, on most, a
prediction before the reveal. Layout only: every number and sentence comes from ``view.build``."""

import streamlit as st

from topics import page_of
from topics.read_along import view
from topics.read_along.drawings import draw
from topics.read_along.nav import back_and_next, step_control
from topics.read_along.predict import prediction
from topics.read_along.steps import STEPS
from ui import figures
from ui.sentence import sentence_control

s = sentence_control()
number = step_control(len(STEPS))
t = view.build(number, s)
d, step = t.definition, t.step
topic = page_of(d.topic)

st.title(d.title)
st.progress(t.number / t.total, text=f"Read along: {t.progress}")
st.markdown(step.text)


def figure() -> None:
    drawn = draw(step.figure)
    if drawn.figure is not None:  # named for a screen reader, in the reader's theme
        figures.show(drawn.figure, key=f"read_along_{d.key}", name=drawn.name)
        st.caption(step.figure.highlight)
        if drawn.note:
            st.caption(drawn.note)
        figures.values(drawn.table, drawn.table_name or drawn.name, key=f"read_along_{d.key}")
    else:  # the table is the figure: an HTML table, its headers named, whole on a phone and in print
        st.caption(f"{drawn.name}. {step.figure.highlight}")
        st.table(drawn.table)


if step.question is None:
    figure()
else:  # side by side on a desktop; on a phone the columns stack, so the figure comes first
    drawing, asking = st.columns([3, 2], gap="medium")
    with asking:
        shown = prediction(step.question, d.key)
    if shown:
        with drawing:
            figure()

st.caption("The whole page, at this step's settings:")
st.page_link(
    topic.path,
    label=topic.title,
    icon=":material/open_in_new:",
    help=f"Open {topic.title} with this step's settings and your sentence.",
    query_params=step.link,  # the sentence's keys are shared: Streamlit carries them itself
)
back_and_next(t.number, t.total)
