"""Masking the future (figure 03): the book's two causal paths, step by step, and the zero-fill leak."""

import numpy as np
import pandas as pd
import streamlit as st

from core import attention, book, masking, tokens, weights
from ui import checks, controls, figures
from ui import format as fmt
from ui.focus import context_note, focus_control
from ui.masking_figures import diff_text, difference_grid, softmax_bars, stage_heatmap
from ui.weights import weight_set_caption, weight_set_control

T = tokens.TOKENS
FILLS = {"-inf": -np.inf, "zero": 0.0}
FILL_LABELS = {"-inf": "−∞ (the book)", "zero": "0 (the shortcut)"}
LOGITS = "1.0, 2.0, 3.0, 0.0, 0.0"  # Giles Thomas's counterexample, as the post ships it

ws = weight_set_control(default="Section 3.5", prefix="mask_")
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

trace = attention.self_attention(tokens.inputs(), ws)
naive = masking.naive_path(trace.scores, trace.divisor)
efficient = masking.efficient_path(trace.scores, trace.divisor, FILLS[fill_key])
causal = masking.efficient_path(trace.scores, trace.divisor)[-1].matrix
diff = masking.difference(naive, efficient)

for col, path, name in zip(st.columns(2), (naive, efficient), ("Naive", "Efficient"), strict=True):
    s = path[stage - 1]
    with col:
        st.markdown(f"**{name}, step {stage} of {masking.STAGES}: {s.name}**")
        st.latex(s.formula)
        figures.show(stage_heatmap(s.matrix, T, focus=fq), key=f"fig03_{name.lower()}")
if fq is not None:
    leak = attention.mix(efficient[-1].matrix, trace.values)[fq]
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
st.markdown(
    f"Row 1 collapses to {fmt.num(causal[0, 0])} because the first token sees only itself; row 2 is "
    f"{fmt.vec(causal[1, :2])} and row 3 is {fmt.vec(causal[2, :3])}. Half-way the paths disagree on "
    "everything, because the naive one masks weights and the efficient one masks scores."
)

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
    "Logits, separated by commas or spaces", LOGITS, key="logits", max_chars=1_000, help="1 to 64 numbers."
)
try:
    logits = masking.parse_numbers(raw)
    st.session_state["logits_last_good"] = raw
except ValueError as err:
    last = st.session_state.get("logits_last_good", LOGITS)
    st.warning(f"{err}. Showing the last good input: {last}")
    logits = masking.parse_numbers(last)
figures.show(softmax_bars(logits, attention.softmax(logits)), key="fig03_bars")

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

# The checks always run at the book's settings, whatever the controls say.
x = tokens.inputs()
v2 = attention.self_attention(x, weights.section_3_5())
n35 = masking.naive_path(v2.scores, v2.divisor)
e35 = masking.efficient_path(v2.scores, v2.divisor)
zero35 = masking.efficient_path(v2.scores, v2.divisor, 0.0)[-1].matrix
ca = masking.causal_attention(x, weights.init_weights(123, "linear"))
q, p = book.FIGURE_03, book.SECTION_3_5_1
largest = float(np.max(np.abs(masking.difference(n35, e35))))
rows = [
    checks.exact("softmax([1, 2, 3, 0, 0])", q["softmax_counterexample"], attention.softmax([1, 2, 3, 0, 0])),
    checks.exact("Naive path masks: first weight", q["naive_first_entry"], n35[1].matrix[0, 0]),
    checks.exact("Efficient path masks: first score", q["efficient_first_entry"], e35[0].matrix[0, 0]),
    *(
        checks.exact(f"Masked weights, row {i + 1}", s, np.squeeze(e35[-1].matrix[i, : i + 1]))
        for i, s in enumerate(q["masked_rows"])
    ),
    checks.within(
        "Largest naive − efficient",
        f"below 1e-15 (post: {q['max_difference']})",
        largest,
        0,
        1e-15,
        fmt.sci(largest),
    ),
    checks.exact("Zero fill: token 1 to the future", q["zero_fill_future"], masking.future_share(zero35)[0]),
]
for name, stage_matrix, what in (
    ("attn_weights", n35[1].matrix, "print(attn_weights)"),
    ("masked_simple", n35[2].matrix, "print(masked_simple)"),
    ("masked_scores", e35[1].matrix, "print(masked)"),
    ("masked_weights", e35[-1].matrix, "print(attn_weights), after the −∞ fill"),
    ("masked_weights", n35[-1].matrix, "print(masked_simple_norm)"),
    ("causal_attention_output", ca.context, "CausalAttention, seed 123: context_vecs[0]"),
):
    rows += [checks.exact(f"{what}, row {i + 1}", s, stage_matrix[i]) for i, s in enumerate(p[name])]
checks.expander(
    rows,
    note="Quoted: the post's figure 03 and what PyTorch prints for the book's section 3.5.1 and "
    "3.5.3 code. Live: computed at the book's settings (sa_v2, seed 789; CausalAttention after "
    "torch.manual_seed(123)), whatever the controls say.",
)
