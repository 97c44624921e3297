"""Three matrices (figure 01): W_q, W_k, W_v and the asymmetry they buy."""

import pandas as pd
import streamlit as st

from core import attention, book, tokens, weights
from ui import checks, controls, figures, tables
from ui import format as fmt
from ui.focus import context_note, focus_control, marked
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

T = tokens.TOKENS

mode = controls.radio(
    "Mode", attention.MODES, key="mode", default="three", format_func=MODE_LABELS.__getitem__
)
ws = weight_set_control()
fq = focus_control(T, key="focus")

st.title("Three matrices, and the asymmetry they buy")
st.markdown(
    "A token no longer scores against another token directly: both are projected first, through "
    "two *different* matrices. That is what lets a token ask a question (its query) that differs "
    "from the answer it advertises (its key). Switch the mode and watch the score error: it is "
    "exactly 0 until the two matrices differ."
)
weight_set_caption(ws)

x = tokens.inputs()
tr = attention.attention_in_mode(x, ws, mode)
score_err, weight_err = attention.asymmetry_error(tr.scores), attention.asymmetry_error(tr.weights)

e1, e2, e3 = st.columns(3)
e1.metric(
    "Score error max|Ω − Ωᵀ|", fmt.num(score_err), help="0 means the affinity reads the same both ways."
)
e2.metric("Weight error max|A − Aᵀ|", fmt.num(weight_err), help="Never 0: each row has its own denominator.")
e3.metric("Divisor √d_k", fmt.num(tr.divisor), help="Every mode divides by √2, the projection width.")

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
rows = []
j, s = T.index("journey"), T.index("starts")
for m in attention.MODES:
    t = attention.attention_in_mode(x, ws, m)
    rows.append(
        {
            "mode": MODE_LABELS[m],
            "score error": fmt.num(attention.asymmetry_error(t.scores)),
            "weight error": fmt.num(attention.asymmetry_error(t.weights)),
            "journey → starts": fmt.num(t.weights[j, s]),
            "starts → journey": fmt.num(t.weights[s, j]),
        }
    )
st.dataframe(pd.DataFrame(rows).set_index("mode"), width="stretch")
row_sums = attention.attention_in_mode(x, ws, "none").scores.sum(axis=1)
st.markdown(
    f"The weights are never symmetric, in any mode. Softmax normalises each row by its own sum, "
    f"and the rows of $XX^{{\\top}}$ sum to {', '.join(fmt.num(v) for v in row_sums)}, so even a "
    f"perfectly symmetric score matrix gives a nonzero weight error. Only the scores can be "
    f"symmetric, and that is what two different matrices break."
)

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

# The checks always run at the book's settings, whatever the controls say.
v1 = weights.section_3_4()
none_v1 = attention.attention_in_mode(x, v1, "none")
tied_v1 = attention.attention_in_mode(x, v1, "tied")
sa_v1 = attention.self_attention(x, v1)
sa_v2 = attention.self_attention(x, weights.section_3_5())
quoted = book.SECTION_3_4
checks.expander(
    [
        checks.exact(
            "Score error, no matrices",
            book.FIGURE_01["score_error_none"],
            attention.asymmetry_error(none_v1.scores),
        ),
        checks.exact(
            "Score error, tied W_q = W_k",
            book.FIGURE_01["score_error_tied"],
            attention.asymmetry_error(tied_v1.scores),
        ),
        checks.exact("Row sums of XXᵀ", book.FIGURE_01["row_sums"], none_v1.scores.sum(axis=1)),
        checks.exact(
            "Weight error, no matrices",
            book.FIGURE_01["weight_error_none"],
            attention.asymmetry_error(none_v1.weights),
        ),
        checks.exact(
            "journey → starts, no matrices", book.FIGURE_01["journey_to_starts"], none_v1.weights[j, s]
        ),
        checks.exact(
            "starts → journey, no matrices", book.FIGURE_01["starts_to_journey"], none_v1.weights[s, j]
        ),
        checks.exact("query_2 (section 3.4)", quoted["query_2"], sa_v1.queries[1], source="x_2 @ W_query"),
        checks.exact("ω22", quoted["omega_22"], sa_v1.scores[1, 1], source="query_2.dot(keys[1])"),
        checks.exact("attn_weights_2", quoted["attn_weights_2"], sa_v1.weights[1]),
        checks.exact("context_vec_2", quoted["context_vec_2"], sa_v1.context[1]),
        *(
            checks.exact(f"SelfAttention_v1 output, row {i + 1}", q, sa_v1.context[i], source="seed 123")
            for i, q in enumerate(quoted["sa_v1_output"])
        ),
        *(
            checks.exact(f"SelfAttention_v2 output, row {i + 1}", q, sa_v2.context[i], source="seed 789")
            for i, q in enumerate(book.SECTION_3_5["sa_v2_output"])
        ),
    ],
    note="Quoted: the post's figure 01 and what PyTorch prints for the book's section 3.4 code. "
    "Live: computed at the book's settings (section 3.4 weights; sa_v2 for SelfAttention_v2), "
    "whatever the controls say.",
)
