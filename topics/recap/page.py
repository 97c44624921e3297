"""Recap: attention without weights (section 3.3), the collapse it causes, and why it cannot learn."""

import pandas as pd
import streamlit as st

from topics.recap import checks as recap_checks
from topics.recap import script, study, text, view
from ui import cell as cell_ui
from ui import checks, controls, figures, theme
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, md, pick, sentence_control

s = sentence_control()
T = s.labels
query = controls.select(
    "Query token",
    T,
    key="query",
    default=pick(s, "journey", 1),
    help="The row to follow: picked out in every figure. A click on a heatmap cell picks its row.",
)
key_token = controls.select(
    "Key token",
    T,
    key="key",
    default=pick(s, "starts", 2),
    help="The other end of the raw affinity: the key of the cell worked out below. A click picks it too.",
)
relative = scale_control("recap_scale")
v = view.build(view.Settings(T, s.embeddings, query, key_token))
c = v.collapse

st.title("Recap: attention without weights")
st.markdown(text.lead(v))

scheme = theme.active().mode  # the charts are kept per setting and theme (topics/recap/study.py)
charts = study.heatmaps(
    labels=T, x=s.embeddings, query=query, key=key_token, relative=relative, scheme=scheme
)
for col, (chart, figure) in zip(st.columns(2), charts.items(), strict=True):
    with col:
        figures.show(figure, key=chart, pick=cell_ui.picker(chart, "query", "key", rows=T, cols=T))
if hint := pale_hint(len(T), relative):
    st.caption(hint)

m1, m2, m3, m4 = st.columns([2, 1, 1, 1])
m1.metric(f"Context vector for {md(query)}", fmt.vec(v.context_query))
m2.metric(f"Raw affinity {md(query)}–{md(key_token)}", fmt.num(v.affinity))
m3.metric(f"…and {md(key_token)}–{md(query)}", fmt.num(v.affinity_back), help="XXᵀ is symmetric: one number.")
m4.metric(f"Weight {md(query)} → {md(key_token)}", fmt.num(v.weight), help="softmax(XXᵀ), no divisor")

st.markdown(text.weight(v))
cell_ui.panel(v.cell)

st.header(text.collapse_heading(v))
st.markdown(text.collapse(v))
s1, s2, s3 = st.columns(3)
s1.metric("Mean pairwise distance, inputs", "—" if c.spread_in is None else fmt.num(c.spread_in))
s2.metric("Mean pairwise distance, outputs", "—" if c.spread_out is None else fmt.num(c.spread_out))
s3.metric(
    "Outputs' spread as a share of the inputs'",
    "—" if c.spread_share is None else fmt.percent(c.spread_share),
    help="— when the inputs do not spread: one token, or every token's embedding the same.",
)
figures.show(study.collapse(labels=T, x=s.embeddings, query=query, scheme=scheme), key="recap_3d")
st.dataframe(
    pd.DataFrame(
        {"output z": [fmt.vec(z) for z in c.context], "nearest input embedding": list(c.nearest)},
        index=[f"z for {t}" for t in T],
    ),
    width="stretch",
)

st.header("Why it cannot learn")
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

reproduce_ui.expander("recap", lambda: script.recap(T, v.inputs, v.query, v.key))

# The checks run on the book's sentence, whatever the sentence box says.
checks.expander(recap_checks.rows(v.checks), note=checks_note(s, recap_checks.NOTE))
