"""Learning to attend (beyond the post): gradient descent turns the dials figure 01 adds.

Layout only: the controls, then :func:`topics.learning.view.build`, then what it returns drawn.
"""

import streamlit as st

from core import attention
from topics.learning import charts, study, training, view
from topics.learning import checks as learning_checks
from topics.learning import readouts as rd
from ui import cell as cell_ui
from ui import checks, controls, figures, theme
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, pick, sentence_control
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

sentence = sentence_control()
T = sentence.labels

kind = controls.select(
    "Target pattern",
    training.TARGETS,
    key="target",
    default="previous",
    format_func=rd.TARGET_LABELS.__getitem__,
)
token = (
    T.index(controls.select("Token", T, key="token", default=pick(sentence, "journey", 1)))
    if kind == "token"
    else 0
)
mode = controls.radio(
    "Mode shown in the heatmaps",
    attention.MODES,
    key="learn_mode",
    default="three",
    format_func=MODE_LABELS.__getitem__,
)
optimiser = controls.radio(
    "Optimiser",
    training.OPTIMISERS,
    key="optimiser",
    default="adam",
    format_func=rd.OPTIMISER_LABELS.__getitem__,
    horizontal=True,
)
lr = controls.select_slider(
    "Learning rate",
    view.RATES,
    key="lr",
    default=0.02,
    help="Adam moves each weight by about this much a step; plain gradient "
    "descent needs a larger rate here (try 1).",
)
steps = controls.select_slider("Steps", view.STEPS, key="steps", default=5_000)
width = controls.select_slider(
    "Projection width d_out",
    view.WIDTHS,
    key="learn_width",
    default=2,
    help="The width of W_q and W_k. The book's is 2; from d_in on, three matrices can make any "
    "score matrix X M Xᵀ.",
)
ws3 = weight_set_control(prefix="learn_")  # d_in = 3, as the book's sentence takes them
every = training.record_every(steps, sentence.n)
step = controls.slider(
    "Step shown",
    0,
    steps,
    steps,
    key="learn_step",
    step=every,
    help=f"Weights and attention are recorded every {every} steps.",
)
focus_slot = st.sidebar.container()  # the focus and cell controls, drawn by the fragment below
relative = scale_control("learn_scale")

st.title("Learning to attend")
s = view.Settings(T, sentence.embeddings, kind, token, mode, optimiser, lr, steps, step, width, weights=ws3)
v = study.build(s)  # everything but the focus and the cell, which only the fragment below reads
n = v.n

st.markdown(v.prose.lead)
weight_set_caption(v.ws)
figures.show(charts.loss(v, theme.active().mode), key="learn_loss")
if v.prose.floor is not None:
    st.caption(v.prose.floor)

runs, evidence = charts.run_tables(v)
st.dataframe(runs, width="stretch")
st.caption(v.prose.right)

st.header(f"{MODE_LABELS[mode]} {v.prose.at_step}")
if v.prose.step is not None:
    st.caption(v.prose.step)
m1, m2, m3 = st.columns(3)
m1.metric("Loss", rd.loss_text(v.loss))
m2.metric("Rows right", f"{v.rows_right} of {n}")
m3.metric("Score error max|Ω − Ωᵀ|", fmt.num(v.score_error))


@st.fragment
def focused(v: view.View) -> None:
    """The heatmaps, the context note and the cell panel: a focus or cell click reruns only these."""
    fq, cell = cell_ui.controls(T, where=focus_slot, focus_key="learn_focus", cell_key="learn_cell")
    f = view.focused(v, fq, cell)
    figs = charts.heatmaps(f, relative, theme.active().mode)
    for row in (("learn_attention", "learn_target"), ("learn_scores", "learn_asym")):
        for col, key in zip(st.columns(2), row, strict=True):
            with col:
                figures.show(figs[key], key=key, pick=cell_ui.picker(key, "learn_focus", "learn_cell"))
        if row[0] == "learn_attention" and (hint := pale_hint(n, relative)):
            st.caption(hint)
        if row[0] == "learn_attention" and fq is not None and f.focus_context is not None:
            context_note(T, fq, f.focus_context, most=f.focus_most or "", extra="W_v is not trained here.")
    if f.cell is not None:
        cell_ui.panel(f.cell)
    else:
        st.caption(
            "Click any cell, or pick a query to focus on, to see its arithmetic and its gradient "
            "at this step."
        )


focused(v)

rd.limits_section(v, evidence)
if v.prose.nearest is not None:  # the two tokens any matrix finds hardest to tell apart
    st.markdown(v.prose.nearest)

rd.gradient_section()

reproduce_ui.expander("learning", lambda: study.reproduce(v))
# The checks run on the book's sentence: this run when it is on screen, else the same settings on it.
checks.expander(learning_checks.rows(v.checks), note=checks_note(sentence, learning_checks.NOTE))
