"""Learning to attend (beyond the post): gradient descent turns the dials figure 01 adds."""

import pandas as pd
import streamlit as st

from core import attention, book, learning, tokens, weights
from ui import checks, controls, figures
from ui import format as fmt
from ui.focus import context_note, focus_control
from ui.learning_figures import loss_curves
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

TARGET_LABELS = {
    "previous": "Previous token",
    "first": "First token",
    "last": "Last token",
    "token": "A token you pick",
    "uniform": "Uniform",
}
OPTIMISER_LABELS = {"adam": "Adam", "gd": "Gradient descent"}
RATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
STEPS = (100, 200, 500, 1_000, 2_000, 5_000)
T = tokens.TOKENS

kind = controls.select(
    "Target pattern",
    learning.TARGETS,
    key="target",
    default="previous",
    format_func=TARGET_LABELS.__getitem__,
)
token = T.index(controls.select("Token", T, key="token", default="journey")) if kind == "token" else 0
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
ws = weight_set_control(prefix="learn_")
every = max(1, steps // 200)
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


@st.cache_data(max_entries=64, show_spinner="Training all three modes…")
def train(kind: str, token: int, optimiser: str, lr: float, steps: int, w_query, w_key):
    target = learning.target_pattern(kind, len(T), token)
    config = learning.TrainConfig(optimiser, lr, steps, record_every=max(1, steps // 200))
    return target, learning.train_modes(tokens.inputs(), target, w_query, w_key, config)


target, runs = train(kind, token, optimiser, lr, steps, ws.w_query, ws.w_key)
X = tokens.inputs()
j, s = T.index("journey"), T.index("starts")
run = runs[mode]
floor = learning.entropy_floor(target)

st.title("Learning to attend")
st.markdown(
    "The recap ended on a complaint: attention without weights has no dial for gradient descent to "
    "turn. Figure 01 added the dials. Here they turn. Pick the attention pattern you want the six "
    "tokens to have; gradient descent then fits W_q and W_k to it in each of figure 01's modes, "
    "from the same starting weights, and the curves show how far each one gets."
)
weight_set_caption(ws)
figures.show(loss_curves(runs, MODE_LABELS, step=step, entropy_floor=floor), key="learn_loss")
if floor > 0:
    st.caption(
        f"The uniform target's rows have entropy log {len(T)} = {fmt.num(floor)}, the lowest cross-entropy "
        "any attention can reach, so the chart draws the cross-entropy above it."
    )


def loss_text(v: float) -> str:
    return fmt.num(v) if v >= 1e-3 else fmt.sci(v, 1)  # Adam drives easy targets to 1e-5 and below


rows = []
for m, r in runs.items():
    right = learning.rows_right(r.attention[-1], target)
    rows.append(
        {
            "mode": MODE_LABELS[m],
            "loss at step 0": loss_text(r.losses[0]),
            f"loss at step {steps}": loss_text(r.losses[-1]),
            "rows right": f"{right.sum()} of {len(T)}",
            "rows still wrong": ", ".join(t for t, ok in zip(T, right, strict=True) if not ok) or "none",
            "diverged at step": "" if r.diverged_at is None else str(r.diverged_at),
        }
    )
st.dataframe(pd.DataFrame(rows).set_index("mode"), width="stretch")
st.caption(
    "A row is right when its largest weight sits on the target's token. The uniform target has "
    f"no such token, so there a row is right when every weight is within {learning.UNIFORM_TOL} "
    f"of 1/{len(T)}."
)

i = run.at(step)
a, omega = run.attention[i], run.scores[i]
big = float(abs(omega).max())
places = 4 if big < 10 else 2 if big < 1_000 else 0  # trained scores grow into the thousands
st.subheader(f"{MODE_LABELS[mode]} at step {step}")
m1, m2, m3 = st.columns(3)
m1.metric("Loss", loss_text(run.losses[step]))
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

st.subheader("Why the tied mode stalls")
st.markdown(
    "Tie W_k to W_q and every score is a dot product of two queries, $\\Omega_{ij} = q_i \\cdot q_j$. "
    "Token $i$ prefers token $j$ to itself exactly when $q_i\\cdot q_j > q_i\\cdot q_i = |q_i|^2$, "
    "and the Cauchy–Schwarz inequality caps the left side:"
)
st.latex(
    r"q_i \cdot q_j \;\le\; |q_i|\,|q_j| \quad\Longrightarrow\quad "
    r"q_i\cdot q_j > |q_i|^2 \text{ only if } |q_j| > |q_i|"
)
st.markdown(
    "So a token can look away from itself only towards a longer query, and the token with the "
    "longest query can never prefer anyone but itself. Everyone looking at one token is easy: give "
    "that token the longest query (try *First token* or *Last token*: tied gets there too, only "
    "slower). The previous-token pattern is the opposite: every token but the first must look away "
    "from itself, so the query lengths must shrink strictly along the sentence, "
    "$|q_{Your}| > |q_{journey}| > \\dots > |q_{step}|$, while each token still prefers its neighbour "
    "to the longer queries further back. One matrix cannot arrange all of that, and the loss stalls. "
    "Two different matrices drop the constraint: $q_i\\cdot k_j$ and $q_i\\cdot k_i$ have nothing to "
    "do with each other."
)
st.markdown(
    "Even three matrices miss a row of the previous-token pattern: journey and starts have almost "
    f"the same embedding ({fmt.vec(X[j], 2)} and {fmt.vec(X[s], 2)}), so their keys are almost the "
    "same key, and starts cannot tell its predecessor from itself by much."
)

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

v1 = weights.section_3_4()
none, tied = runs["none"], runs["tied"]
checks.expander(
    [
        checks.exact(
            "Score error, tied W_q = W_k, worst recorded step of this run",
            book.FIGURE_01["score_error_tied"],
            max(attention.asymmetry_error(o) for o in tied.scores),
        ),
        checks.exact(
            "Score error, no matrices",
            book.FIGURE_01["score_error_none"],
            attention.asymmetry_error(none.scores[0]),
        ),
        checks.exact(
            "Weight error, no matrices (the flat line's A)",
            book.FIGURE_01["weight_error_none"],
            attention.asymmetry_error(none.attention[0]),
        ),
        checks.exact(
            "Raw affinity journey–starts, no matrices, at the last step",
            book.RECAP["affinity_journey_starts"],
            none.scores[none.at(steps), j, s],
            source="no dial: it never moves",
        ),
        checks.exact(
            "attn_weights_2 at step 0, three matrices, section 3.4 weights",
            book.SECTION_3_4["attn_weights_2"],
            learning.attention(X, v1.w_query, v1.w_key, "three")[1],
        ),
    ],
    note="Quoted: the post's recap and figure 01, and PyTorch's print of the book's section 3.4 code. "
    "Live: this run's trajectories, and the section 3.4 start whatever the controls say.",
)
