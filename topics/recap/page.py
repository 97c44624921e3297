"""Recap: attention without weights (section 3.3), the collapse it causes, and why it cannot learn."""

import pandas as pd
import streamlit as st

from core import attention, book, reproduce, tokens, weights
from core.sentence import weights_for
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.sentence import checks_note, md, pick, sentence_control

s = sentence_control()
T = s.labels
query = controls.select(
    "Query token",
    T,
    key="query",
    default=pick(s, "journey", 1),
    help="The row to follow: picked out in every figure.",
)
key_token = controls.select(
    "Key token", T, key="key", default=pick(s, "starts", 2), help="The other end of the raw affinity."
)

st.title("Recap: attention without weights")
st.markdown(
    "Before any matrices, attention is three steps: score every pair of tokens with a dot product "
    "($\\Omega = XX^{\\top}$), softmax each row into weights, and average the inputs with them. "
    f"{s.n * s.n:,} dot products and no parameters. It works, and it barely does anything."
)

x = s.embeddings
trace = attention.attention_without_weights(x)
qi, ki = T.index(query), T.index(key_token)

c1, c2 = st.columns(2)
with c1:
    figures.show(figures.heatmap(trace.scores, T, T, title="Scores Ω = XXᵀ", focus=qi), key="recap_scores")
with c2:
    figures.show(
        figures.heatmap(trace.weights, T, T, title="Weights A = softmax(Ω), row by row", focus=qi),
        key="recap_w",
    )

m1, m2, m3, m4 = st.columns([2, 1, 1, 1])
m1.metric(f"Context vector for {md(query)}", fmt.vec(trace.context[qi]))
m2.metric(f"Raw affinity {md(query)}–{md(key_token)}", fmt.num(trace.scores[qi, ki]))
m3.metric(
    f"…and {md(key_token)}–{md(query)}", fmt.num(trace.scores[ki, qi]), help="XXᵀ is symmetric: one number."
)
m4.metric(
    f"Weight {md(query)} → {md(key_token)}", fmt.num(trace.weights[qi, ki]), help="softmax(XXᵀ), no divisor"
)

# Figure 01's "no matrices" mode is the same XXᵀ divided by √d_k first: its weights differ from these.
ws34 = weights_for(weights.section_3_4(), s.width)
fig01 = attention.attention_in_mode(x, ws34, "none")
st.markdown(
    f"Here {md(query)} gives {md(key_token)} a weight of **{fmt.num(trace.weights[qi, ki])}**: section 3.3 "
    "softmaxes the raw scores, with no divisor. On *Three matrices* the same pair with no matrices reads "
    f"**{fmt.num(fig01.weights[qi, ki])}**, because figure 01 divides every mode's scores by "
    f"√{ws34.w_key.shape[-1]} = {fmt.num(fig01.divisor)}, √d_k of section 3.4's projections, in all three "
    "modes so they differ only in the matrices. Dividing shrinks the gaps between scores, which flattens "
    f"each row's softmax toward uniform, 1/{s.n} = {fmt.num(1 / s.n)} a weight."
)

st.subheader("The collapse")
spread_in = attention.mean_pairwise_distance(x) if s.n > 1 else 0.0  # one token: no pairs
spread_out = attention.mean_pairwise_distance(trace.context) if s.n > 1 else 0.0
nearest = attention.nearest_embedding(trace.context, x)
st.markdown(
    f"Each output is a weighted average of all {s.n} inputs, and the weights are never far from "
    f"uniform, so the {s.n} outputs huddle near the centre of the inputs."
)
s1, s2, s3 = st.columns(3)
s1.metric("Mean pairwise distance, inputs", fmt.num(spread_in) if s.n > 1 else "—")
s2.metric("Mean pairwise distance, outputs", fmt.num(spread_out) if s.n > 1 else "—")
s3.metric(
    "Outputs' spread as a share of the inputs'",
    fmt.percent(spread_out / spread_in) if spread_in > 0 else "—",
    help="— when the inputs do not spread: one token, or one word repeated.",
)
figures.show(
    figures.scatter3d_tokens(
        [("inputs X", x), ("outputs Z = AX", trace.context)],
        T,
        title="Inputs and outputs" + (f", the first 3 of {s.width} dimensions" if s.width > 3 else ""),
        focus=qi,
    ),
    key="recap_3d",
)
st.dataframe(
    pd.DataFrame(
        {
            "output z": [fmt.vec(z) for z in trace.context],
            "nearest input embedding": [T[i] for i in nearest],
        },
        index=[f"z for {t}" for t in T],
    ),
    width="stretch",
)

st.subheader("Why it cannot learn")
st.markdown(
    "Every number above is a function of the inputs alone. The score matrix is $XX^{\\top}$, "
    "symmetric by necessity: the affinity between two tokens is one number read the same way from "
    "either end, and there is no dial anywhere for gradient descent to turn. The next page adds three."
)
st.code(
    "attn_scores = inputs @ inputs.T\n"
    "attn_weights = torch.softmax(attn_scores, dim=-1)\n"
    "all_context_vecs = attn_weights @ inputs",
    language="python",
)

reproduce_ui.expander("recap", lambda: reproduce.recap(T, x, qi, ki))

# The checks run on the book's sentence, whatever the sentence box says.
B, bx, q = tokens.TOKENS, tokens.inputs(), book.RECAP
bt = attention.attention_without_weights(bx)
b_in, b_out = attention.mean_pairwise_distance(bx), attention.mean_pairwise_distance(bt.context)
b_nearest = attention.nearest_embedding(bt.context, bx)
b_fig01 = attention.attention_in_mode(bx, weights.section_3_4(), "none")
j, k = B.index("journey"), B.index("starts")
checks.expander(
    [
        checks.exact("Context vector for journey", q["context_journey"], bt.context[j], source=checks.POST),
        checks.exact("Mean pairwise distance, inputs", q["spread_inputs"], b_in, source=checks.POST),
        checks.exact("Mean pairwise distance, outputs", q["spread_outputs"], b_out, source=checks.POST),
        checks.same("Outputs' spread / inputs'", q["spread_ratio"], fmt.percent(b_out / b_in), checks.POST),
        checks.same(
            "Nearest input embedding of every output",
            q["nearest"],
            "starts, all six"
            if all(B[i] == "starts" for i in b_nearest)
            else ", ".join(B[i] for i in b_nearest),
            checks.POST,
        ),
        checks.exact(
            "Raw affinity journey–starts", q["affinity_journey_starts"], bt.scores[j, k], source=checks.POST
        ),
        checks.exact(
            "Weight journey → starts, no divisor",
            book.AUDIT["journey_to_starts_recap"],
            bt.weights[j, k],
            source=checks.AUDIT,
            note=f"Three matrices reads {fmt.num(b_fig01.weights[j, k])}: it divides by √2 first",
        ),
    ],
    note=checks_note(
        s,
        "Quoted: the post's recap of section 3.3, and the audit's weight. Live: computed from the "
        "book's inputs.",
    ),
)
