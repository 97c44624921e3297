"""The whole layer at a glance: the book's CausalAttention from X to Z, one small live heatmap a
stage, a query followed through all of them. Layout only: the numbers come from ``view.build``."""

import streamlit as st

from topics import page_of, tour_step
from topics.layer import checks as layer_checks
from topics.layer import figures as layer_figures
from topics.layer import script, view
from ui import checks, figures
from ui import reproduce as reproduce_ui
from ui.figures import picked
from ui.focus import focus_control
from ui.sentence import checks_note, sentence_control
from ui.weights import weight_set_caption, weight_set_control

FOCUS = "layer_focus"
# The pipeline, read left to right and then down as the book's forward runs: X and the three
# small weight matrices, Q K V, the three query-by-key stages (three to a row: a 6 × 6 heatmap's
# printed cells need a third of the page), then dropout and Z. A phone stacks them in this order.
ROWS = (4, 3, 3, 2)

s = sentence_control()
chosen = weight_set_control(prefix="layer_")
focus_slot = st.sidebar.container()  # the focus control, drawn by the fragment below
TOUR = page_of("read_along")

st.title("The whole layer at a glance")
base = view.build(view.Settings(s.labels, s.embeddings, chosen))
st.markdown(base.lead)
weight_set_caption(base.weight_set)


def pick(key: str) -> None:
    """A click on a token heatmap's cell follows that cell's query."""
    cell = picked(st.session_state.get(key))
    if cell is not None:
        st.session_state[FOCUS] = cell[1]


def teachers(stage: view.Stage) -> None:
    """The tour step and the page that teach ``stage``."""
    number, title = tour_step(stage.step)
    st.page_link(
        TOUR.path, label=f"Step {number}: {title}", icon=TOUR.icon, query_params={"step": str(number)}
    )
    page = page_of(stage.topic)
    st.page_link(page.path, label=page.title, icon=page.icon)


@st.fragment
def pipeline() -> None:
    """Every stage, with the focus: a pick reruns this alone."""
    focus = focus_control(base.labels, key=FOCUS, where=focus_slot)
    v = view.build(view.Settings(s.labels, s.embeddings, chosen, focus))
    st.markdown(v.focus_note)
    charts = layer_figures.charts(v)
    starts = [sum(ROWS[:i]) for i in range(len(ROWS))]
    for first, count in zip(starts, ROWS, strict=True):
        row = v.stages[first : first + count]
        for col, stage in zip(st.columns(len(row)), row, strict=True):
            with col:
                on_click = (lambda k=stage.key: pick(k)) if stage.by_token else None
                figures.show(charts[stage.key], key=stage.key, pick=on_click)
                st.code(stage.code, language="python", wrap_lines=True)
                teachers(stage)


pipeline()
reproduce_ui.expander(
    "layer", lambda: script.build(s.labels, s.embeddings, chosen, view.P, view.DROPOUT_SEED)
)
checks.expander(layer_checks.book_checks(), note=checks_note(s, layer_checks.NOTE))
