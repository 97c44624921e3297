"""Dropout (figure 04): the row that sums to zero, and why the survivors are scaled up."""

import pandas as pd
import streamlit as st

from core import attention, book, dropout, masking, tokens, weights
from ui import checks, controls, figures
from ui import dropout_figures as dfig
from ui import format as fmt
from ui.focus import context_note, focus_control

T = tokens.TOKENS
GENERATORS = {"numpy": "NumPy", "torch": "PyTorch"}  # the URL holds these labels
GENERATOR_CAPTIONS = ("default_rng(seed): fast", "torch.manual_seed(seed): the book's stream")
DRAWS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
SEED_MAX = 2**31 - 1
CHECK_DRAWS = 20_000  # the post's zero-row figure; its mean row sums are read after 10,000


def _resample() -> None:
    # A click cannot live in the URL, so Resample bumps the bound seed: the new view is a link too.
    st.session_state["drop_seed"] = (st.session_state.get("drop_seed", 123) + 1) % (SEED_MAX + 1)


@st.cache_data(max_entries=64, show_spinner=False)
def run(p: float, scale: bool, seed: int, draws: int, generator: str) -> dropout.DropoutStats:
    """Dropout on the section 3.5 causal weights, ``draws`` times from ``seed``."""
    w = masking.causal_weights(tokens.inputs(), weights.section_3_5())
    return dropout.dropout_stats(w, dropout.keep_masks(seed, draws, len(T), p, generator), p, scale)


p = controls.slider("Dropout rate p", 0.0, 0.9, dropout.BOOK_P, key="p", step=0.05, format="%.2f")
scale = controls.toggle("Scale survivors by 1/(1 − p)", True, key="scaling", help="What nn.Dropout does.")
generator = controls.radio(
    "Random numbers",
    tuple(GENERATORS),
    key="generator",
    default="numpy",
    format_func=GENERATORS.__getitem__,
    captions=GENERATOR_CAPTIONS,
)
seed = controls.integer("Seed", 0, SEED_MAX, 123, key="drop_seed", help="The generator's seed")
controls.button("Resample", key="resample", on_click=_resample, help="Adds one to the seed (kept in the URL)")
draws = controls.select_slider(
    "Draws", DRAWS, key="drop_draws", default=10_000, help="Independent dropout passes"
)
fq = focus_control(T, key="drop_focus")

st.title("Dropout: the row that sums to zero")
st.markdown(
    "During training, `nn.Dropout` zeroes each attention weight with probability $p$ and multiplies "
    "the survivors by $1/(1-p)$. No single row sums to 1 any more; the factor is there so that rows "
    "sum to 1 *on average*. And a causal row has few weights to lose: row $i$ has only $i$, so the "
    "first token's context vector is the zero vector on a share $p$ of all training steps."
)
st.caption(
    "Weights: **section 3.5 (sa_v2, seed 789)**, causal (future filled with −∞, divided by √2, softmax). "
    f"Random numbers: **{GENERATORS[generator]}**, seed {seed}. Resample adds one to the seed, so the URL "
    "still reproduces the view."
)

stats = run(p, scale, seed, draws, generator)
row_sums = stats.first.sum(axis=1)
dead = int((~stats.first.any(axis=1)).sum())

m1, m2, m3, m4 = st.columns(4)
m1.metric("Zero rows in this draw", f"{dead} of {len(T)}")
m2.metric("Row 1 sum in this draw", fmt.num(row_sums[0]))
m3.metric(f"Mean row sum over {draws:,} draws", fmt.num(stats.running_mean[-1]))
m4.metric("Expected mean row sum", fmt.num(stats.expectation), help="1 with scaling, 1 − p without.")

w = masking.causal_weights(tokens.inputs(), weights.section_3_5())
c1, c2 = st.columns([1, 1.15])
with c1:
    figures.show(
        figures.heatmap(w, T, T, title="Causal weights, before dropout", focus=fq), key="fig04_weights"
    )
with c2:
    figures.show(
        dfig.dropped_heatmap(stats.first, row_sums, T, title="One draw after dropout, row sums", focus=fq),
        key="fig04_dropped",
    )
    st.caption(
        dfig.draw_caption(stats.first, p, scale, book_draw=(generator, seed, p) == ("torch", 123, 0.5))
    )
if fq is not None:
    values = attention.self_attention(tokens.inputs(), weights.section_3_5()).values
    before = fmt.vec(attention.mix(w, values)[fq])
    after = attention.mix(stats.first, values)[fq]
    context_note(
        T, fq, after, weights=stats.first[fq], what="this draw's A", extra=f"Before dropout: {before}."
    )

st.subheader(f"{draws:,} draws")
d1, d2 = st.columns(2)
with d1:
    figures.show(
        dfig.running_mean_chart(
            stats.running_mean, stats.expectation, stats.std, title="Running mean row sum"
        ),
        key="fig04_running",
    )
with d2:
    figures.show(
        dfig.zero_rate_chart(
            stats.zero_rate, stats.zero_theory, T, title="How often each row is the zero vector"
        ),
        key="fig04_zero",
    )
st.dataframe(
    pd.DataFrame(
        {
            "live weights": range(1, len(T) + 1),
            "zero vector, measured": [fmt.percent(r) for r in stats.zero_rate],
            "theory pᶦ": [fmt.percent(t, 2) for t in stats.zero_theory],
            "mean row sum": [fmt.num(s) for s in stats.row_sum_mean],
        },
        index=[f"{i + 1}: {t}" for i, t in enumerate(T)],
    ),
    width="stretch",
)

st.subheader("Why the factor is 1/(1 − p)")
st.latex(
    r"\alpha^{\text{drop}}_{ij} = \frac{b_{ij}}{1-p}\,\alpha_{ij},\quad b_{ij}\sim\mathrm{Bernoulli}(1-p),"
    r"\quad \mathbb{E}\big[\alpha^{\text{drop}}_{ij}\big] = \alpha_{ij},"
    r"\quad \mathbb{E}\Big[\sum_{j\le i}\alpha^{\text{drop}}_{ij}\Big] = 1,"
    r"\quad \Pr\big[\text{row } i = \mathbf{0}\big] = p^{\,i}"
)
st.markdown(
    "This is *inverted* dropout: frameworks scale up at training time so inference is a plain forward "
    "pass (the original paper scaled down at test time instead). Switch scaling off and the running mean "
    "settles at $1 - p$ instead. The rate here is the book's demo value; a real GPT run uses "
    f"{book.FIGURE_04['gpt_rates']}, where row 1 still dies on one step in ten or five."
)
st.code(
    "torch.manual_seed(123)\ndropout = torch.nn.Dropout(0.5)\nprint(dropout(attn_weights))",
    language="python",
)

# The checks run at the book's settings (p = 0.5) on the current seed and generator.
book_run = dropout.book_dropout_run(tokens.inputs(), weights.section_3_5())
on, off = run(0.5, True, seed, CHECK_DRAWS, generator), run(0.5, False, seed, CHECK_DRAWS, generator)
quoted = book.FIGURE_04
rate_sd = dropout.zero_row_std(0.5, len(T))
checks.expander(
    [
        *(
            checks.exact(f"Causal weights, row {i + 1}", q, w[i], source="book 3.5.1, sa_v2")
            for i, q in enumerate(quoted["book_attn_weights"])
        ),
        *(
            checks.exact(f"Book's dropout run, row {i + 1}", q, book_run[i], source="torch.manual_seed(123)")
            for i, q in enumerate(quoted["book_dropped"])
        ),
        checks.within(
            "Row 1 is the zero vector, p = 0.5, 20,000 draws",
            quoted["row1_zero_rate"],
            on.zero_rate[0],
            *dropout.sampling_band(on.zero_theory[0], rate_sd[0], CHECK_DRAWS),
            live=fmt.percent(on.zero_rate[0]),
        ),
        checks.within(
            "Row 2 is the zero vector, p = 0.5, 20,000 draws",
            quoted["row2_zero_rate"],
            on.zero_rate[1],
            *dropout.sampling_band(on.zero_theory[1], rate_sd[1], CHECK_DRAWS),
            live=fmt.percent(on.zero_rate[1]),
        ),
        checks.within(
            "Mean row sum, 10,000 draws, scaling on",
            quoted["mean_row_sum_scaled"],
            on.running_mean[9_999],
            *dropout.sampling_band(on.expectation, on.std, 10_000),
            live=fmt.num(on.running_mean[9_999], 3),
        ),
        checks.within(
            "Mean row sum, 10,000 draws, scaling off",
            quoted["mean_row_sum_unscaled"],
            off.running_mean[9_999],
            *dropout.sampling_band(off.expectation, off.std, 10_000),
            live=fmt.num(off.running_mean[9_999], 3),
        ),
    ],
    note="Quoted: PyTorch's printout of the book's section 3.5 code (run here) and the post's figure 04. "
    "Live: the book's run is recomputed with the torch-compatible generator; the statistical rows use "
    "p = 0.5 and the current seed and generator, and pass within 4 standard errors of p, p² and 1 or 1 − p "
    "(the post's own draws are one sample of the same distribution).",
)
