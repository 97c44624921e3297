"""Read along: chapter 3 in order, one step at a time, each with a live figure and, on most, a
prediction made beside the figure with only the answer covered. Layout only: every number and
sentence comes from ``view.build`` and ``view.summary``."""

from dataclasses import replace

import streamlit as st

from topics import page_of
from topics.read_along import predict, progress, view
from topics.read_along.drawings import draw
from topics.read_along.nav import PAGE, back_and_next, landing, step_control
from topics.read_along.step import Figure
from topics.read_along.steps import STEPS
from ui import classroom, figures
from ui.sentence import sentence_control

FIGURE_KEY = "read_along_figure"  # every step's: Next hands the element a new spec, Plotly.react draws it
s = sentence_control()
number = step_control(len(STEPS))
at = progress.asked_at(s)  # the sentence a prediction is asked at, kept with its first guess
progress.keep(frozenset(view.asking()), predict.PREFIXES)  # in this browser's storage: sidebar
predict.restore(at)
t = view.build(number, s)
d, step, q = t.definition, t.step, t.step.question
topic = page_of(d.topic)
answered = q is not None and predict.revealed(d.key)

landing(number)  # Next, Back and the slider land on the new step's title
st.title(d.title)
st.progress(t.number / t.total, text=f"Read along: {t.progress}")
classroom.tour_notice()  # the class the learner is in (from ?class=), one line
if tally := predict.tally():  # from the first reveal on; in the reader's browser, never in the link
    st.caption(view.tally_text(tally, t.predictions), help="Counts each prediction's first try.")
st.markdown(step.text)


def figure(f: Figure) -> None:
    drawn = draw(f)
    said = f"Until you answer, {f.covered}" if f.hide else f.highlight  # the highlight may name the answer
    if drawn.figure is not None:  # named for a screen reader, in the reader's theme
        figures.show(drawn.figure, key=FIGURE_KEY, name=drawn.name)  # one element, updated in place
        st.caption(said)
        if drawn.note:
            st.caption(drawn.note)
        figures.values(drawn.table, drawn.table_name or drawn.name, key=f"read_along_{d.key}")
    else:  # the table is the figure: an HTML table, its headers named, whole on a phone and in print
        st.caption(f"{drawn.name}. {said}")
        st.table(drawn.table)


if q is None:
    figure(step.figure)
else:  # side by side on a desktop, the question first on a phone (within its first screen, the figure
    # starting below it), with only the answer's part covered; the verdict takes the question's place
    asking, drawing = st.columns([2, 3], gap="medium")
    with asking:
        predict.verdict(q, d.key) if answered else predict.ask(q, d.key, at)
    with drawing:
        figure(step.figure if answered else replace(step.figure, hide=True))

if (
    step.code is not None
):  # the book's lines, each with its result here; a prediction's part "?" until answered
    st.caption(f"The book's code ({step.code.section}), each line's result at your sentence:")
    st.code(step.code.text(hide=q is not None and not answered), language="python")

if number == t.total:  # the end: the six ideas, each with the step that taught it, and the misses
    end = view.summary(predict.tally())
    st.subheader(end.heading)
    for idea in end.ideas:
        st.markdown(idea.text)
        st.page_link(PAGE, label=idea.label, query_params={"step": str(idea.step)})
    if end.missed:
        st.markdown(end.missed_heading)
        for miss in end.missed:
            st.page_link(PAGE, label=miss.label, query_params={"step": str(miss.step)})

st.caption("The whole page, at this step's settings:")
st.page_link(
    topic.path,
    label=topic.title,
    icon=":material/open_in_new:",
    help=f"Open {topic.title} with this step's settings and your sentence.",
    query_params=step.link,  # the sentence's keys are shared: Streamlit carries them itself
)
back_and_next(t.number, t.total)
