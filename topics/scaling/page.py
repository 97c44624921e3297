"""Divide by √d_k (figure 02): scores spread like √d_k; without the divisor the softmax's gradient dies."""

import numpy as np
import streamlit as st

from topics.scaling import checks as readouts
from topics.scaling import figures as sf
from topics.scaling import monte_carlo as scaling
from topics.scaling import script, study
from topics.scaling import text as reference
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui

DRAWS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
SAMPLER_LABELS = {"exact": "Exact: |q|·z", "brute": "Brute force: q and keys"}


d_k = controls.select_slider("d_k, the query and key width", scaling.D_K_GRID, key="d_k", default=64)
divisor = controls.toggle("Divide the scores by √d_k", True, key="divisor")
wanted = controls.select_slider("Draws", DRAWS, key="draws", default=500, help="The post used hundreds.")
n_keys = controls.slider("Keys per row", 2, 64, 6, key="keys", help="The post's toy has six tokens.")
seed = controls.slider(
    "Seed", 0, 999, 0, key="dk_seed", help="Same seed, same draws: every figure is reproducible."
)
sampler = controls.radio(
    "Sampler",
    scaling.SAMPLERS,
    key="sampler",
    default="exact",
    format_func=SAMPLER_LABELS.__getitem__,
    captions=("O(n) a draw, any d_k", "materialises q and the keys"),
)
draws = scaling.affordable_draws(wanted, n_keys, DRAWS)
tail = controls.toggle(
    "Jacobian chart: the whole tail",
    False,
    key="dk_tail",
    help="Off: the chart spans 1e-8 to 0.5, where the post's numbers sit. On: down to the smallest entry.",
)
config = scaling.StudyConfig(draws, n_keys, seed, sampler)

st.title("Divide by √d_k")
st.markdown(
    "A dot product of two random $d_k$-vectors is a sum of $d_k$ terms, so it spreads like $\\sqrt{d_k}$. "
    "Feed such scores to a softmax and it turns into a step function: one weight near 1, the rest near 0. "
    "Its Jacobian, the only way a gradient gets back through, goes to zero with them. Switch the divisor "
    "off, drag $d_k$ past a thousand, and watch the bars give up."
)

if draws < wanted:
    st.info(
        f"{wanted:,} draws of {n_keys} keys would be {wanted * n_keys:,} scores at each of the "
        f"{len(scaling.D_K_GRID)} d_k, and the study would take many seconds. It stops at "
        f"{scaling.MAX_SCORES:,} scores a d_k, so this view uses {draws:,} draws; fewer keys allow more.",
        icon=":material/speed:",
    )
res = study.run_study(config)
if len(res) < len(scaling.D_K_GRID):
    st.info(
        f"Brute force stops at d_k = {max(res):,} at these settings: beyond it one d_k would need more than "
        f"{scaling.BRUTE_BUDGET:,} normal samples. The exact sampler draws the same distribution at any d_k."
    )

scores = study.one_draw(n_keys, seed, sampler, d_k, divisor)
draw_entry = float(scaling.log_largest_jacobian_entry(scores)) / np.log(10)
here = res.get(d_k)
summ = here.summary(divisor) if here else None
left, right = st.columns([3, 2])
with left:
    figures.show(study.bars_figure(n_keys, seed, sampler, d_k, divisor), key="fig02_bars")
with right:
    m1, m2 = st.columns(2)
    m1.metric("√d_k", fmt.num(np.sqrt(d_k)))
    m2.metric("Measured std of q·k", fmt.num(here.std) if here else "—", help="Every score of every draw.")
    m1.metric("Median largest |J|", sf.small(summ.median) if summ else "—")
    m2.metric("Mean largest |J|", sf.small(summ.mean) if summ else "—", help="Held up by the live tail.")
    m1.metric("Live draws", fmt.percent(summ.live_share) if summ else "—", help="Largest |J| at least 1e-3.")
    m2.metric("This draw's largest |J|", sf.small_log10(draw_entry))
    st.caption(f"{draws:,} draws of one query and {n_keys} keys, {'÷√d_k' if divisor else 'no divisor'}.")

jacobian, spread, live = study.study_figures(draws, n_keys, seed, sampler, d_k, divisor, tail)
figures.show(jacobian, key="fig02_jacobian")
if here:
    st.caption(sf.rounding_note(d_k, here.raw.naive_zero_share, here.raw.underflow_share))
c1, c2 = st.columns(2)
with c1:
    figures.show(spread, key="fig02_std")
with c2:
    figures.show(live, key="fig02_live")

st.subheader("Why √d_k, and why the gradient dies")
st.latex(
    r"\mathrm{Var}(q\cdot k) = \sum_{i=1}^{d_k}\mathrm{Var}(q_ik_i) = \sum_{i=1}^{d_k}"
    r"\mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = d_k \quad\Longrightarrow\quad \sigma = \sqrt{d_k}"
)
st.latex(
    r"J = \frac{\partial\alpha}{\partial\omega} = \mathrm{diag}(\alpha) - \alpha\alpha^{\top},\qquad "
    r"J_{ij} = \alpha_i(\delta_{ij} - \alpha_j),\qquad \max_{ij}|J_{ij}| = \alpha_{\max}"
    r"\sum_{j\neq\max}\alpha_j"
)
st.markdown(
    "The largest entry is always the top weight's diagonal entry. The second factor is computed as the sum "
    "of the other weights from the log-softmax, never as $1 - \\alpha_{\\max}$, which rounds to exactly 0 "
    "once $\\alpha_{\\max}$ rounds to 1. The exact sampler uses the keys' rotational symmetry: "
    "$q\\cdot k_j = |q|\\,z_j$ with $z_j \\sim \\mathcal{N}(0, 1)$ and $|q|^2 \\sim \\chi^2_{d_k}$, "
    "so a draw costs $O(n)$ whatever $d_k$ is; brute force materialises $q$ and the keys and agrees with it."
)
st.code("attn_weights = torch.softmax(\n    attn_scores / keys.shape[-1]**0.5, dim=-1\n)", language="python")

st.subheader("Beside the post: its numbers, and the truth")
refs = reference.references()
table = readouts.reference_table(res, refs, draws, n_keys)
st.dataframe(
    table,
    width="stretch",
    height=35 * (len(table) + 1) + 3,  # every row, no inner scrollbar
    column_config={"the post's value": st.column_config.TextColumn(width="large")},
)
st.caption(
    f"True: {scaling.REFERENCE_DRAWS:,} exact draws of six keys (± one standard error), cut into "
    f"{scaling.REFERENCE_DRAWS // scaling.POST_DRAWS:,} runs of {scaling.POST_DRAWS} to place each of the "
    "post's numbers among the runs it could have read. Live: your controls"
    + ("" if n_keys == 6 else f", with {n_keys} keys where the truth is for six")
    + ". The post used six keys and a few hundred draws, so its numbers are one sample of the "
    "distribution: where one sits in the tail, the truth beside it is what to quote."
)
st.markdown(reference.scaled_sentence(refs) + " " + reference.fold_sentence(refs))

reproduce_ui.expander(
    "scaling",
    lambda: script.divide_by_sqrt_dk(d_k, divisor, draws, n_keys, seed, sampler),
    label="Reproduce in NumPy",
)

# The checks run at the post's setting (500 draws of six keys) whatever the draws and keys say.
at_post = (draws, n_keys) == (scaling.POST_DRAWS, 6)
with st.spinner(f"Sampling the post's setting for the checks: {scaling.POST_DRAWS} draws of 6 keys…"):
    post = (
        res
        if at_post
        else {d: study.study_at(scaling.POST_DRAWS, 6, seed, sampler, d) for d in scaling.TABLE_D_KS}
    )
checks.expander(
    readouts.post_checks(post, refs),
    note="Quoted: the post's section 02, from its own few hundred draws. True: the reference above. "
    f"Live: {scaling.POST_DRAWS} draws of six keys (the post's setting) at your seed and sampler, whatever "
    f"the other controls say; it passes within {scaling.Z_TOLERANCE:g} standard errors of the truth, so a "
    "rare unlucky seed can fail.",
)
