"""Divide by √d_k: scores spread like √d_k; without the divisor the softmax's gradient dies."""

import streamlit as st

from topics.scaling import charts, checks, script, study, view
from topics.scaling import monte_carlo as mc
from ui import checks as checks_ui
from ui import controls, theme
from ui import figures as figures_ui
from ui import reproduce as reproduce_ui

SAMPLER_LABELS = {"exact": "Exact: |q|·z", "brute": "Brute force: q and keys"}


d_k = controls.select_slider("d_k, the query and key width", mc.D_K_GRID, key="d_k", default=64)
divisor = controls.toggle("Divide the scores by √d_k", True, key="divisor")
wanted = controls.select_slider("Draws", view.DRAWS, key="draws", default=500, help="The post used hundreds.")
n_keys = controls.slider("Keys per row", 2, 64, 6, key="keys", help="The post's toy has six tokens.")
seed = controls.slider(
    "Seed", 0, 999, 0, key="dk_seed", help="Same seed, same draws: every figure is reproducible."
)
sampler = controls.radio(
    "Sampler",
    mc.SAMPLERS,
    key="sampler",
    default="exact",
    format_func=SAMPLER_LABELS.__getitem__,
    captions=("O(n) a draw, any d_k", "materialises q and the keys"),
)
tail = controls.toggle(
    "Jacobian chart: the whole tail",
    False,
    key="dk_tail",
    help="Off: the chart spans 1e-8 to 0.5, where the quoted numbers sit. On: down to the smallest entry.",
)

st.title("Divide by √d_k")
# Symbols in Unicode, not TeX: a first visit draws TeX only once its code arrives, and the lead
# then grew from one line to seven on a phone and pushed the page down (layout shift 0.11).
st.markdown(
    "A dot product of two random d_k-vectors is a sum of d_k terms, so it spreads like √d_k. "
    "Feed such scores to a softmax and it turns into a step function: one weight near 1, the rest near 0. "
    "Its Jacobian, the only way a gradient gets back through, goes to zero with them. Switch the divisor "
    "off, drag d_k past a thousand, and watch the bars give up."
)

st.html(study.BUSY_CSS)  # the progress bar, spinners and waiting room float over the top chart
left, right = st.columns([3, 2])
with left.container(key=study.BUSY_KEY):
    v = view.build(
        view.Settings(d_k, divisor, wanted, n_keys, seed, sampler, tail),
        study=study.run_study,
        draw=study.one_draw,
        reference=study.references,
        post_setting=study.post_study,
    )
words = v.words
drawn = charts.charts(v, theme.active().mode)
with left:
    figures_ui.show(drawn["fig02_bars"], key="fig02_bars")
with right:
    columns = st.columns(2)
    for i, r in enumerate(words.readouts):
        error = f"± {r.error}" if r.error else None  # one standard error, under the value
        columns[i % 2].metric(r.label, r.value, error, "off", help=r.help, delta_arrow="off")
    st.caption(words.draws_caption)
    # Below the readouts, not above the chart: a note that comes or goes moves nothing above it.
    for note in (words.capped_note, words.brute_note):
        if note:
            st.info(note, icon=":material/speed:" if note is words.capped_note else None)
st.caption(words.cutoffs)

figures_ui.show(drawn["fig02_jacobian"], key="fig02_jacobian")
if words.rounding_note:
    st.caption(words.rounding_note)
c1, c2 = st.columns(2)
with c1:
    figures_ui.show(drawn["fig02_std"], key="fig02_std")
with c2:
    figures_ui.show(drawn["fig02_live"], key="fig02_live")

st.header("Why √d_k, and why the gradient dies")
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

st.header("Numbers from one small run, against a million draws")
# An HTML table: its cells wrap, where a data grid cut "about a third" and the readings short,
# and it prints whole.
st.table(checks.reference_table(v))
st.caption(words.reference_caption)
st.markdown(words.table_prose)

reproduce_ui.expander(
    "scaling",
    lambda: script.divide_by_sqrt_dk(d_k, divisor, v.draws, n_keys, seed, sampler),
    label="Reproduce in NumPy",
)
checks_ui.expander(checks.post_checks(v), note=words.checks_note)
