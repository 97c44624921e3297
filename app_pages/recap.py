"""Recap: attention without weights (section 3.3), the collapse it causes, and why it cannot learn."""

import pandas as pd
import streamlit as st

from core import attention, book, tokens
from ui import checks, controls, figures
from ui import format as fmt

T = tokens.TOKENS
query = controls.select(
    "Query token", T, key="query", default="journey", help="The row to follow: picked out in every figure."
)
key_token = controls.select(
    "Key token", T, key="key", default="starts", help="The other end of the raw affinity."
)

st.title("Recap: attention without weights")
st.markdown(
    "Before any matrices, attention is three steps: score every pair of tokens with a dot product "
    "($\\Omega = XX^{\\top}$), softmax each row into weights, and average the inputs with them. "
    "36 dot products and no parameters. It works, and it barely does anything."
)

x = tokens.inputs()
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

m1, m2, m3 = st.columns([2, 1, 1])
m1.metric(f"Context vector for {query}", fmt.vec(trace.context[qi]))
m2.metric(f"Raw affinity {query}–{key_token}", fmt.num(trace.scores[qi, ki]))
m3.metric(f"…and {key_token}–{query}", fmt.num(trace.scores[ki, qi]), help="XXᵀ is symmetric: one number.")

st.subheader("The collapse")
spread_in = attention.mean_pairwise_distance(x)
spread_out = attention.mean_pairwise_distance(trace.context)
nearest = attention.nearest_embedding(trace.context, x)
st.markdown(
    "Each output is a weighted average of all six inputs, and the weights are never far from "
    "uniform, so the six outputs huddle near the centre of the inputs."
)
s1, s2, s3 = st.columns(3)
s1.metric("Mean pairwise distance, inputs", fmt.num(spread_in))
s2.metric("Mean pairwise distance, outputs", fmt.num(spread_out))
s3.metric("Outputs' spread as a share of the inputs'", fmt.percent(spread_out / spread_in))
figures.show(
    figures.scatter3d_tokens(
        [("inputs X", x), ("outputs Z = AX", trace.context)], T, title="Inputs and outputs", focus=qi
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

j, s = T.index("journey"), T.index("starts")
checks.expander(
    [
        checks.exact("Context vector for journey", book.RECAP["context_journey"], trace.context[j]),
        checks.exact("Mean pairwise distance, inputs", book.RECAP["spread_inputs"], spread_in),
        checks.exact("Mean pairwise distance, outputs", book.RECAP["spread_outputs"], spread_out),
        checks.same(
            "Outputs' spread / inputs'", book.RECAP["spread_ratio"], fmt.percent(spread_out / spread_in)
        ),
        checks.same(
            "Nearest input embedding of every output",
            book.RECAP["nearest"],
            "starts, all six" if all(T[i] == "starts" for i in nearest) else ", ".join(T[i] for i in nearest),
        ),
        checks.exact(
            "Raw affinity journey–starts", book.RECAP["affinity_journey_starts"], trace.scores[j, s]
        ),
    ],
    note="Quoted: the post's recap of section 3.3. Live: computed above from the book's inputs.",
)
