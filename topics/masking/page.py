"""Masking the future (figure 03): the book's two causal paths, step by step, and the zero-fill leak."""

import numpy as np
import pandas as pd
import streamlit as st

from core import attention, masking, reproduce
from core.sentence import weights_for
from ui import checks, controls, figures
from ui import format as fmt
from ui import masking_figures as mf
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.masking_figures import diff_text, difference_grid, parse_box, softmax_bars, stage_heatmap, stage_prose
from ui.sentence import checks_note, sentence_control
from ui.weights import weight_set_caption, weight_set_control

sentence = sentence_control()
T = sentence.labels
FILLS = {"-inf": -np.inf, "zero": 0.0}
FILL_LABELS = {"-inf": "−∞ (the book)", "zero": "0 (the shortcut)"}

ws = weights_for(weight_set_control(default="Section 3.5", prefix="mask_"), sentence.width)
stage = controls.select_slider(
    "Stage",
    tuple(range(1, masking.STAGES + 1)),
    key="stage",
    default=masking.STAGES,
    help="Both paths take four steps; step them together.",
)
fill_key = controls.radio(
    "Mask fill (efficient path)",
    tuple(FILLS),
    key="fill",
    default="-inf",
    format_func=FILL_LABELS.__getitem__,
)
fq = focus_control(T, key="mask_focus")

st.title("Masking the future")
st.markdown(
    "A model that predicts the next token must not read it: query $i$ may attend only to keys "
    "$j \\le i$. The book masks in two ways. The **naive** path softmaxes the full rows, zeroes the "
    "future with `torch.tril` and renormalises each row; the **efficient** path fills the future of "
    "the raw scores with −∞ and softmaxes once. Step them side by side: they look unrelated "
    "half-way and end identical."
)
weight_set_caption(ws)

trace = attention.self_attention(sentence.embeddings, ws)
naive = masking.naive_path(trace.scores, trace.divisor)
efficient = masking.efficient_path(trace.scores, trace.divisor, FILLS[fill_key])
diff = masking.difference(naive, efficient)

for col, path, name in zip(st.columns(2), (naive, efficient), ("Naive", "Efficient"), strict=True):
    s = path[stage - 1]
    with col:
        st.markdown(f"**{name}, step {stage} of {masking.STAGES}: {s.name}**")
        st.latex(s.formula)
        figures.show(stage_heatmap(s.matrix, T, focus=fq), key=f"fig03_{name.lower()}")
if fq is not None:
    filled = efficient[-1].matrix
    causal = filled if fill_key == "-inf" else masking.efficient_path(trace.scores, trace.divisor)[-1].matrix
    leak = attention.mix(filled, trace.values)[fq]
    context_note(
        T,
        fq,
        attention.mix(causal, trace.values)[fq],
        weights=causal[fq],
        what="the masked A",
        extra="" if fill_key == "-inf" else f"With the 0 fill it is {fmt.vec(leak)}: the future leaks in.",
    )

m1, m2, m3 = st.columns(3)
m1.metric("Naive path masks (first entry)", fmt.num(naive[1].matrix[0, 0]), help="A post-softmax weight.")
m2.metric("Efficient path masks (first entry)", fmt.num(efficient[0].matrix[0, 0]), help="A pre-scale score.")
m3.metric("Largest |naive − efficient|", diff_text(np.max(np.abs(diff))), help="After step 4, in float64.")
undefined = masking.undefined_rows(naive[-1].matrix)
if undefined.size:
    st.warning(
        f"The naive path divides 0 by 0 in row{'s' * (undefined.size > 1)} "
        f"{', '.join(str(i + 1) for i in undefined)}: a future score beats every visible one by so much "
        "that the full-row softmax leaves each visible weight at exactly 0. The efficient path never "
        "divides, one more reason the book prefers it."
    )
st.markdown(stage_prose(efficient[-1].matrix, fill_key == "-inf", float(np.max(np.abs(diff)))))

st.subheader("The difference grid")
left, right = st.columns([3, 2])
with left:
    figures.show(
        difference_grid(diff, T, title="Naive − efficient, after step 4", focus=fq), key="fig03_diff"
    )
share = {
    k: masking.future_share(masking.efficient_path(trace.scores, trace.divisor, f)[-1].matrix)
    for k, f in FILLS.items()
}
with right:
    st.metric(
        "Attention token 1 gives to tokens it may not see",
        fmt.num(share[fill_key][0]),
        help=f"With the mask filled by {FILL_LABELS[fill_key]}.",
    )
    st.dataframe(
        pd.DataFrame({FILL_LABELS[k]: [fmt.num(v) for v in share[k]] for k in FILLS}, index=list(T)),
        width="stretch",
    )
    st.caption("Each token's attention to later tokens, for both fills: a zero score is not a zero weight.")

st.subheader("A zero score is not a zero weight")
raw = controls.text(
    "Logits, separated by commas or spaces",
    mf.LOGITS,
    key="logits",
    help="1 to 64 numbers; inf, -inf and nan too.",
    max_chars=masking.MAX_CHARS,
)
logits = parse_box(raw)
sm = masking.softmax_extended(logits)
if sm.note:
    (st.warning if sm.weights is None else st.info)(f"{sm.note} PyTorch's torch.softmax gives: {sm.torch}.")
if sm.weights is not None:
    figures.show(softmax_bars(logits, sm.weights), key="fig03_bars")

st.subheader("Why the renormalised path loses nothing")
st.latex(
    r"\hat{\alpha}_{ij} = \frac{\dfrac{e^{\omega_{ij}/\sqrt{d_k}}}{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}"
    r"\,\mathbf{1}[j\le i]}{\displaystyle\sum_{l \le i} \frac{e^{\omega_{il}/\sqrt{d_k}}}"
    r"{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}} = \frac{e^{\omega_{ij}/\sqrt{d_k}}\,\mathbf{1}[j\le i]}"
    r"{\sum_{l \le i} e^{\omega_{il}/\sqrt{d_k}}}"
)
st.markdown(
    "The full-row denominator sits once above the line and once below it, and cancels: what is "
    "left is the softmax over the visible prefix, exactly. The future was in the first softmax, "
    "and none of it survives the division."
)

st.subheader("Three lines make the class causal")
st.code(
    """self.register_buffer(
    "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
)
attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
attn_weights = self.dropout(attn_weights)""",
    language="python",
)
st.caption(
    "A buffer moves to the GPU with the module but is not trained; the in-place fill is sliced "
    "because the buffer is built once at full context length; dropout is the next page."
)

reproduce_ui.expander(
    "masking", lambda: reproduce.masking(T, sentence.embeddings, ws, stage, fill_key, logits)
)
checks.expander(mf.book_checks(), note=checks_note(sentence, mf.CHECKS_NOTE))
