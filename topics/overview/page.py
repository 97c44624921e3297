"""Overview: the start page. A live figure at the reader's sentence, where to start, the four tools,
the sources, the notation and the six tokens. Layout only: the numbers come from ``view.build``."""

import pandas as pd
import streamlit as st

from topics import PAGES, page_of
from topics.overview import study, text, view
from ui import figures, theme
from ui.scale import pale_hint, scale_control
from ui.sentence import sentence_control

s = sentence_control()
relative = scale_control("overview_scale")
v = view.build(view.Settings(s.labels, s.embeddings, s.is_book))

st.title("Attention, with weights")
st.markdown(text.LEAD)
st.markdown(text.START)
tour = page_of("read_along")
st.page_link(tour.path, label=f"Start here: {tour.title}", icon=tour.icon)  # the sentence follows

figure, tools = st.columns([1, 1], gap="large")
with figure:
    st.header("Your sentence, attended")
    chart = study.weights_chart(
        labels=s.labels,
        embeddings=s.embeddings,
        is_book=s.is_book,
        relative=relative,
        scheme=theme.active().mode,
    )
    figures.show(chart, key="overview_weights")
    st.caption(v.caption)
    if hint := pale_hint(len(v.labels), relative):
        st.caption(hint)
    matrices = page_of("three_matrices")
    st.page_link(
        matrices.path,
        label=f"Open {matrices.title} at this sentence",
        icon=":material/open_in_new:",
    )
with tools:
    st.header("Four tools on every page")
    for tool in text.TOOLS:
        st.markdown(f"**{tool.name}.** {tool.what}")

st.header("The sources")
st.markdown(text.SOURCES)

st.header("Notation")
st.markdown(
    "| symbol | meaning | in the book's toy |\n|---|---|---|\n"
    + "\n".join(f"| ${row.symbol}$ | {row.meaning} | {row.toy} |" for row in v.notation)
)
st.latex(r"Q = XW_q,\quad K = XW_k,\quad V = XW_v")  # two lines: one overflows a phone's width
st.latex(r"A = \mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}\right),\quad Z = AV")

st.header("The book's six tokens")
st.dataframe(
    pd.DataFrame(v.inputs, index=list(v.tokens), columns=["dim 1", "dim 2", "dim 3"]),
    column_config={c: st.column_config.NumberColumn(format="%.2f") for c in ("dim 1", "dim 2", "dim 3")},
    width=420,
)
st.caption(
    "“Your journey starts with one step”: the book's `inputs` tensor, one 3-d embedding per token. "
    "No weights are shipped with this app; the book's are regenerated from their seeds."
)

st.header("The pages")
for page in PAGES[1:]:
    st.page_link(page.path, label=page.title, icon=page.icon)
    st.caption(page.blurb)
st.info(
    "Chapter 3 switches weight sets halfway: section 3.4 runs on `torch.manual_seed(123)` with "
    "`torch.rand`, section 3.5 on `sa_v2`, `torch.manual_seed(789)` with `nn.Linear`. Every page "
    "that uses weights names the set it shows.",
    icon=":material/info:",
)
