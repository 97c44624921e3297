"""Three matrices (figure 01): W_q, W_k, W_v and the asymmetry they buy."""

import streamlit as st

from core import attention, book, tokens
from core.sentence import weights_for
from topics.three_matrices import readouts as view
from topics.three_matrices import script
from ui import checks, controls, figures, tables
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control, marked
from ui.sentence import checks_note, pick, sentence_control
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

s = sentence_control()
T = s.labels

mode = controls.radio(
    "Mode", attention.MODES, key="mode", default="three", format_func=MODE_LABELS.__getitem__
)
ws = weights_for(weight_set_control(), s.width)
fq = focus_control(T, key="focus")

st.title("Three matrices, and the asymmetry they buy")
st.markdown(
    "A token no longer scores against another token directly: both are projected first, through "
    "two *different* matrices. That is what lets a token ask a question (its query) that differs "
    "from the answer it advertises (its key). Switch the mode and watch the score error: it is "
    "exactly 0 until the two matrices differ."
)
weight_set_caption(ws)

x = s.embeddings
tr = attention.attention_in_mode(x, ws, mode)
score_err, weight_err = attention.asymmetry_error(tr.scores), attention.asymmetry_error(tr.weights)

e1, e2, e3 = st.columns(3)
e1.metric(
    "Score error max|Ω − Ωᵀ|", fmt.num(score_err), help="0 means the affinity reads the same both ways."
)
e2.metric("Weight error max|A − Aᵀ|", fmt.num(weight_err), help=view.when_symmetric(tr, mode))
e3.metric(
    "Divisor √d_k",
    fmt.num(tr.divisor),
    help=f"Every mode divides by √{ws.w_key.shape[-1]}, the projection width.",
)

c1, c2, c3 = st.columns(3)
with c1:
    figures.show(figures.heatmap(tr.scores, T, T, title="Scores Ω", focus=fq), key="fig01_scores")
with c2:
    figures.show(
        figures.heatmap(attention.asymmetry(tr.scores), T, T, title="Ω − Ωᵀ", diverging=True, focus=fq),
        key="fig01_asym",
    )
with c3:
    figures.show(
        figures.heatmap(tr.weights, T, T, title="Weights A = softmax(Ω/√d_k)", focus=fq), key="fig01_weights"
    )
if fq is not None:
    context_note(T, fq, tr.context[fq], weights=tr.weights[fq], extra="Its row of Z = AV below is marked ▸.")

st.subheader("All three modes at once")
pair = T.index(pick(s, "journey", 1)), T.index(pick(s, "starts", 2))  # the post's pair, or the sentence's
st.dataframe(view.modes_table(x, ws, T, pair), width="stretch")
st.markdown(view.denominators_paragraph(x, ws, T, pair, s.is_book))

st.subheader("Every intermediate")
q1, q2, q3, q4 = st.columns(4)
for col, name, m in (
    (q1, "Q", tr.queries),
    (q2, "K", tr.keys),
    (q3, "V", tr.values),
    (q4, "Z = AV", tr.context),
):
    col.markdown(f"**{name}** {m.shape}")
    tables.matrix(m, marked(T, fq) if name == "Z = AV" else T, where=col)
w1, w2, w3 = st.columns(3)
for col, name, w in ((w1, "W_q", ws.w_query), (w2, "W_k", ws.w_key), (w3, "W_v", ws.w_value)):
    col.markdown(f"**{name}** {w.shape}" + (" (unused in this mode)" if mode == "none" else ""))
    tables.matrix(w, where=col)

st.subheader("The forward pass")
st.latex(
    r"Q = XW_q,\; K = XW_k,\; V = XW_v,\qquad \Omega = QK^{\top},\qquad "
    r"A = \mathrm{softmax}\!\left(\frac{\Omega}{\sqrt{d_k}}\right),\qquad Z = AV"
)
st.code(
    """def forward(self, x):
    keys = self.W_key(x)
    queries = self.W_query(x)
    values = self.W_value(x)
    attn_scores = queries @ keys.T
    attn_weights = torch.softmax(
        attn_scores / keys.shape[-1]**0.5, dim=-1
    )
    context_vec = attn_weights @ values
    return context_vec""",
    language="python",
)
st.caption("`self.W_key(x)` is XW_k with the operands swapped: nn.Linear stores its weight transposed.")
st.markdown(
    f"This mode runs **{view.count_text(tr)}**, counted as the forward pass above runs them. "
    f"The post, after Giles Thomas: “{book.FIGURE_01['five_ops']}”, which is the three-matrix mode."
)
st.dataframe(view.ops_table(tr), width="stretch")

reproduce_ui.expander("three_matrices", lambda: script.three_matrices(T, x, ws, mode, pair))

# The checks always run at the book's settings, whatever the controls say.
checks.expander(
    view.book_checks(tokens.inputs()),
    note=checks_note(
        s,
        "Quoted: the post's figure 01, the audit's denominators, and what the book prints for its "
        "section 3.4 code. Live: computed at the book's settings (section 3.4 weights; sa_v2 for "
        "SelfAttention_v2), whatever the controls say.",
    ),
)
