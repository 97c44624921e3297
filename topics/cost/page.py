"""What n² costs (figure 06): the bill for materialising the attention matrix, in exact integers."""

import streamlit as st

from topics.cost import arithmetic, script, study, view
from topics.cost import checks as cost_checks
from topics.cost import format as cf
from topics.cost import table as cost_table
from ui import checks, controls, figures, theme
from ui import reproduce as reproduce_ui


def _preset(n: int) -> None:
    st.session_state["n"] = n  # a bound widget is set through session state; the URL follows


n = controls.select_slider(
    "Context length n (tokens)",
    arithmetic.context_ladder(),
    key="n",
    default=arithmetic.GPT_4_1_WINDOW,
    help="A log ladder from 1 to 2,097,152 with every preset on it.",
)
preset_cols = st.sidebar.columns(2) * 2
for col, (label, value) in zip(preset_cols, arithmetic.PRESETS.items(), strict=True):
    col.button(
        label, key=f"preset_{value}", on_click=_preset, args=(value,), help=f"n = {value:,}", width="stretch"
    )
bytes_per_score = controls.radio(
    "Bytes per score",
    view.BYTES_PER_SCORE,
    key="bytes",
    default=2,
    horizontal=True,
    format_func={4: "4 (fp32)", 2: "2 (bf16)", 1: "1 (fp8)"}.__getitem__,
)
gpu_name = controls.select("GPU", arithmetic.GPU_NAMES, key="gpu", default=arithmetic.GPU_NAMES[0])
gpu_note = st.sidebar.empty()  # filled from the view below
heads = controls.slider("Heads", 1, view.MAX_HEADS, 1, key="cost_heads", help="The bill is linear in heads.")
layers = controls.slider("Layers", 1, view.MAX_LAYERS, 1, key="layers", help="…and in layers.")
t0_ms = controls.select_slider(
    "Baseline: ms per token at 1,024 tokens",
    view.BASELINE_MS,
    key="t0_ms",
    default=100,
    help="The post assumes 0.1 s.",
)
st.sidebar.markdown("**FLOP split of one head**")
d_in = controls.select_slider(
    "d_in (embedding width)",
    view.D_INS,
    key="cost_d_in",
    default=768,
    help="3: the book's toy. 768: GPT-2 small.",
)
d_k = controls.select_slider(
    "d_k (head width)",
    view.D_KS,
    key="cost_d_k",
    default=64,
    help="2: the book's toy. 64: GPT-2's head_dim.",
)

settings = view.Settings(n, bytes_per_score, gpu_name, heads, layers, t0_ms, d_in, d_k)
v = view.build(settings)
bill, bill_csv, time_table = study.tables(settings)
gpu, row = v.gpu, v.row
gpu_note.caption(v.gpu_note)

st.title("What n² costs")
st.markdown(
    "Every query scores every key, so one head of one layer holds an *n* × *n* matrix of scores. "
    "At the book's six tokens that is 36 numbers; at a frontier context window it is a terabyte-sized "
    "bill. Every count below is an exact integer, every ratio an exact fraction, rounded once for display."
)

m1, m2, m3 = st.columns([2, 1, 1])
m1.metric("Bytes", f"{row.nbytes:,}", help="n² × heads × layers × bytes per score")
m2.metric(f"{gpu.name} cards to buy", f"{row.cards_to_buy:,}", help="The exact ratio, rounded up.")
m3.metric(
    "Time per token, the post's model",
    cf.seconds(row.seconds),
    help="The post's assumption, t₀ × (n / 1,024)², as if the whole model grew like n². "
    "'Where the time goes' below counts what actually does.",
)
m1.caption(v.bytes_caption)
m2.caption(v.cards_caption)
m3.caption(v.time_caption)

figures.show(study.memory_chart(settings, theme.active().mode), key="fig06_memory")

st.header(f"The TiB/{gpu.name.split()[0]} cost table")
cost_table.show(v, bill, bill_csv)

st.header("Where the time goes")
f1, f2, f3 = st.columns([3, 4, 3])
f1.metric("Projections Q, K, V (multiply-adds)", f"{v.macs.linear:,}")
f2.metric("QKᵀ + AV (multiply-adds)", f"{v.macs.quadratic:,}")
f3.metric("Quadratic part wins from n =", f"{v.crossover:,}", help="n > 1.5 · d_in")
figures.show(study.flops_chart(settings, theme.active().mode), key="fig06_flops")
st.dataframe(time_table, width="stretch")
st.markdown(v.paragraph)
st.markdown(
    "The rule is the post's: an $n \\times d_{in}$ matrix times a $d_{in} \\times d_k$ one is $n \\cdot d_k$ "
    "dot products of length $d_{in}$, so it costs the three dimensions multiplied together. Counted in "
    "multiply-adds (FLOPs are twice these); the softmax's $n^2$ exponentials are not counted. The "
    "projections grow like $n$, the scores and the mix like $n^2$, and with $d_v = d_k$ the square wins "
    "once $n > 1.5\\,d_{in}$, whatever the head width."
)
st.latex(
    r"\text{bytes} = n^2 \cdot b \cdot H \cdot L,\qquad \text{cards} = \left\lceil \frac{\text{bytes}}"
    r"{\text{memory}} \right\rceil,\qquad t_{\text{post}} = t_0 \left(\frac{n}{1024}\right)^{2},\qquad"
    r"\underbrace{3\,n\,d_{in}\,d_k}_{Q,K,V} \;\text{vs}\; \underbrace{2\,n^2 d_k}_{QK^\top,\;AV}"
)
st.code(
    """n, bytes_per_score, card = 1_047_576, 2, 80 * 2**30   # GPT-4.1's window, bf16, one H100
nbytes = n * n * bytes_per_score                          # 2_194_830_951_552, exact
cards = -(-nbytes // card)                                # ceiling: 26
seconds = Fraction(1, 10) * Fraction(n, 1024) ** 2        # the post's model: 104_657.7 s = 29.07 h""",
    language="python",
)
st.info(
    "Nobody pays this bill. FlashAttention is still O(n²) in time, but it computes the scores tile by "
    "tile in on-chip SRAM and never writes the full n × n matrix to high-bandwidth memory (HBM), so "
    "its memory grows like n.",
    icon=":material/bolt:",
)

reproduce_ui.expander("cost", lambda: script.what_n_squared_costs(settings), label="Reproduce in Python")

# The checks always run at the post's settings (one head, one layer, 2 bytes, H100 at 80 GiB).
checks.expander(cost_checks.rows(v.checks), note=cost_checks.NOTE)
