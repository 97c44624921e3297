"""Learning to attend (beyond the post): gradient descent turns the dials figure 01 adds."""

import streamlit as st

from core import attention, tokens
from core.sentence import nearest_pair, weights_for
from topics.learning import readouts as rd
from topics.learning import training as learning
from topics.learning.figures import loss_curves
from topics.learning.study import learning_script, train
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.sentence import checks_note, pick, sentence_control
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

TARGET_LABELS = {
    "previous": "Previous token",
    "first": "First token",
    "last": "Last token",
    "token": "A token you pick",
    "uniform": "Uniform",
    "pair": "Tokens 1 ↔ 2, others themselves",
    "swaps": "Three pairs swapped",
}
OPTIMISER_LABELS = {"adam": "Adam", "gd": "Gradient descent"}
RATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
STEPS = (100, 200, 500, 1_000, 2_000, 5_000)
sentence = sentence_control()
T = sentence.labels

kind = controls.select(
    "Target pattern",
    learning.TARGETS,
    key="target",
    default="previous",
    format_func=TARGET_LABELS.__getitem__,
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
    learning.OPTIMISERS,
    key="optimiser",
    default="adam",
    format_func=OPTIMISER_LABELS.__getitem__,
    horizontal=True,
)
lr = controls.select_slider(
    "Learning rate",
    RATES,
    key="lr",
    default=0.02,
    help="Adam moves each weight by about this much a step; plain gradient "
    "descent needs a larger rate here (try 1).",
)
steps = controls.select_slider("Steps", STEPS, key="steps", default=5_000)
width = controls.select_slider(
    "Projection width d_out",
    rd.WIDTHS,
    key="learn_width",
    default=2,
    help="The width of W_q and W_k. The book's is 2; from d_in on, three matrices can make any "
    "score matrix X M Xᵀ.",
)
ws3 = weight_set_control(prefix="learn_")  # d_in = 3, as the book's sentence takes them
ws = rd.widen(weights_for(ws3, sentence.width), width)
every = learning.record_every(steps, sentence.n)
step = controls.slider(
    "Step shown",
    0,
    steps,
    steps,
    key="step",
    step=every,
    help=f"Weights and attention are recorded every {every} steps.",
)
step = min(steps, step // every * every)  # a value kept from a longer run or typed into the URL
fq = focus_control(T, key="learn_focus")


X = sentence.embeddings
target, runs = train(kind, token, optimiser, lr, steps, ws.w_query, ws.w_key, X)
run = runs[mode]
floor = learning.entropy_floor(target)

st.title("Learning to attend")
st.markdown(
    "The recap ended on a complaint: attention without weights has no dial for gradient descent to "
    f"turn. Figure 01 added the dials. Here they turn. Pick the attention pattern you want the {sentence.n} "
    "tokens to have; gradient descent then fits W_q and W_k to it in each of figure 01's modes, "
    "from the same starting weights, and the curves show how far each one gets."
)
weight_set_caption(ws)
figures.show(loss_curves(runs, MODE_LABELS, step=step, entropy_floor=floor), key="learn_loss")
if floor > 0:
    st.caption(
        f"The uniform target's rows have entropy log {sentence.n} = {fmt.num(floor)}, the lowest "
        "cross-entropy any attention can reach, so the chart draws the cross-entropy above it."
    )


st.dataframe(rd.run_table(runs, target, steps, T), width="stretch")
st.caption(
    "A row is right when its largest weight sits on the target's token. The uniform target has "
    f"no such token, so there a row is right when every weight is within {learning.UNIFORM_TOL} "
    f"of 1/{sentence.n}."
)

i = run.at(step)
a, omega = run.attention[i], run.scores[i]
big = float(abs(omega).max())
places = 4 if big < 10 else 2 if big < 1_000 else 0  # trained scores grow into the thousands
st.subheader(f"{MODE_LABELS[mode]} at step {step}")
m1, m2, m3 = st.columns(3)
m1.metric("Loss", rd.loss_text(run.losses[step]))
m2.metric("Rows right", f"{learning.rows_right(a, target).sum()} of {len(T)}")
m3.metric("Score error max|Ω − Ωᵀ|", fmt.num(attention.asymmetry_error(omega)))
c1, c2 = st.columns(2)
with c1:
    figures.show(
        figures.heatmap(a, T, T, title="Attention A", zmin=0, zmax=1, focus=fq), key="learn_attention"
    )
with c2:
    figures.show(figures.heatmap(target, T, T, title="Target", zmin=0, zmax=1, focus=fq), key="learn_target")
if fq is not None:
    values = attention.attention_in_mode(X, ws, mode).values  # W_v is not trained: V stays put
    context_note(T, fq, attention.mix(a, values)[fq], weights=a[fq], extra="W_v is not trained here.")
c3, c4 = st.columns(2)
with c3:
    figures.show(
        figures.heatmap(omega, T, T, title="Scores Ω", decimals=places, focus=fq), key="learn_scores"
    )
with c4:
    figures.show(
        figures.heatmap(
            attention.asymmetry(omega), T, T, title="Ω − Ωᵀ", diverging=True, decimals=places, focus=fq
        ),
        key="learn_asym",
    )

rd.limits_section(runs, target, kind, token, width, X, T)
pair = nearest_pair(X)  # the two tokens any matrix finds hardest to tell apart
if pair is not None:
    st.markdown(rd.nearest_pair_text(X, T, *pair))

st.subheader("The loss and its gradient, by hand")
st.latex(
    r"L = -\frac{1}{n}\sum_{i,j} T_{ij}\,\log A_{ij},\qquad "
    r"A = \mathrm{softmax}\!\left(\frac{XW_q(XW_k)^{\top}}{\sqrt{d_k}}\right)"
)
st.latex(
    r"\frac{\partial L}{\partial \Omega} = \frac{A - T}{n\sqrt{d_k}},\quad "
    r"\frac{\partial L}{\partial W_q} = X^{\top}\frac{\partial L}{\partial \Omega}XW_k,\quad "
    r"\frac{\partial L}{\partial W_k} = X^{\top}\Big(\frac{\partial L}{\partial \Omega}\Big)^{\!\top}XW_q"
)
st.caption(
    "Tied: one matrix on both paths, so its gradient is the sum of the two. No matrices: no "
    "gradient at all, a flat line. Checked against finite differences and PyTorch's autograd."
)

reproduce_ui.expander(
    "learning",
    lambda: learning_script(T, X, ws, kind, token, mode, optimiser, lr, steps, step, runs),
)

# The checks run on the book's sentence: this run when it is on screen, else the same settings on it.
if not sentence.is_book:
    BX = tokens.inputs()
    book_token = token if token < len(BX) else 1
    book_ws = rd.widen(ws3, width)
    runs = train(kind, book_token, optimiser, lr, steps, book_ws.w_query, book_ws.w_key, BX)[1]
checks.expander(rd.book_checks(runs, steps), note=checks_note(sentence, rd.CHECKS_NOTE))
