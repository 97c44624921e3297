"""Overview: what this app is, the notation, and the six tokens."""

import pandas as pd
import streamlit as st

from topics import PAGES
from topics.overview import view

v = view.build()

st.title("Attention, with weights")
st.markdown(
    "Chapter 3 of *Build a Large Language Model (From Scratch)* turns a parameter-free average "
    "into the attention a GPT layer runs. Each page here is one step of that turn, computed live "
    "from the book's own six tokens and its own seeded weights: move a control in the sidebar and "
    "every number on the page is recomputed, and the address bar becomes a link to exactly that view."
)

st.subheader("Notation")
st.markdown(
    "| symbol | meaning | in the book's toy |\n|---|---|---|\n"
    + "\n".join(f"| ${row.symbol}$ | {row.meaning} | {row.toy} |" for row in v.notation)
)
st.latex(
    r"Q = XW_q,\quad K = XW_k,\quad V = XW_v,\qquad "
    r"A = \mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}\right),\qquad Z = AV"
)

st.subheader("The six tokens")
st.dataframe(
    pd.DataFrame(v.inputs, index=list(v.tokens), columns=["dim 1", "dim 2", "dim 3"]),
    column_config={c: st.column_config.NumberColumn(format="%.2f") for c in ("dim 1", "dim 2", "dim 3")},
    width=420,
)
st.caption(
    "“Your journey starts with one step”: the book's `inputs` tensor, one 3-d embedding per token. "
    "No weights are shipped with this app; the book's are regenerated from their seeds."
)

st.subheader("The pages")
for page in PAGES[1:]:
    st.page_link(page.path, label=page.title, icon=page.icon)
    st.caption(page.blurb)
st.info(
    "Chapter 3 switches weight sets halfway: section 3.4 runs on `torch.manual_seed(123)` with "
    "`torch.rand`, section 3.5 on `sa_v2`, `torch.manual_seed(789)` with `nn.Linear`. Every page "
    "that uses weights names the set it shows.",
    icon=":material/info:",
)
