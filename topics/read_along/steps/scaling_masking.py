"""Read-along steps for √d_k and the causal mask: which width the scores are divided by, what the
softmax and its gradient do without the divisor (the Divide by √d_k page's Monte Carlo study), which
triangle the mask hides, why a zero score is not a zero weight, and whether section 3.5.1's two
ways of masking agree.

The √d_k steps run the page's own study (:func:`topics.scaling.view.build`) at one setting,
``DRAWS`` draws of the page's six keys, seed 0, and each step's link opens the page there, so the
page shows the same numbers. The study of the 19 d_k is cached per process (about 0.05 s once).
The view also builds the page's table of quoted numbers against a 10⁶-draw reference (1.2 s);
no step shows that table, so it gets the smallest reference the view accepts (:func:`_reference`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from core import attention
from core import weights as core_weights
from core.masking import STAGES
from core.sentence import Sentence, weights_for
from topics.masking import view as masking
from topics.read_along.step import RELATIVE, Figure, Question, Step, StepDef, token
from topics.scaling import view as scaling
from topics.scaling.view import DkResult, Reference, Sampler
from ui import format as fmt

DRAWS = 2_000  # of the page's ladder: a median at d_k = 768 to one significant digit, in 0.05 s
GRADIENT_D_K = 768  # where the post reads "about a third" of unscaled draws as live
REFERENCE_DRAWS = 1_000  # the fewest a reference takes: two runs of the post's 500 draws


# --- Divide by √d_k -----------------------------------------------------------------------------


@functools.cache
def _reference() -> Mapping[int, Reference]:
    """The reference behind the page's table of quotes, which no step shows: two runs of 500 draws
    (0.03 s), not the page's 10⁶ (1.2 s)."""
    return scaling.references(draws=REFERENCE_DRAWS)


@functools.cache
def _study(draws: int, n_keys: int, seed: int, sampler: Sampler) -> Mapping[int, DkResult]:
    """The page's study at every d_k, once per process: the three steps select from one study."""
    return scaling.whole_study(draws, n_keys, seed, sampler)


@functools.cache
def scaling_view(d_k: int, divisor: bool) -> scaling.View:
    """The Divide by √d_k page's view at ``d_k`` and ``divisor``, ``DRAWS`` draws, the rest its defaults."""
    return scaling.build(
        scaling.Settings(d_k=d_k, divisor=divisor, draws=DRAWS), study=_study, reference=_reference
    )


def scaling_link(v: scaling.View) -> dict[str, str]:
    """The page's URL keys for ``v``: its d_k and draws, and the divisor when it is off."""
    s = v.settings
    link = {"d_k": str(s.d_k), "draws": str(s.draws)}
    return link if s.divisor else {**link, "divisor": "false"}


def key_width(s: Sentence) -> int:
    """``keys.shape[-1]`` in section 3.4's forward pass over the reader's sentence: d_out of W_key."""
    ws = weights_for(core_weights.section_3_4(), s.width)
    return int(attention.self_attention(s.embeddings, ws).keys.shape[-1])


def readout(v: scaling.View, label: str) -> str:
    """The page's readout whose label starts with ``label``, as the page prints it: a Monte Carlo
    figure with its standard error, each rounded to the digits that error supports."""
    r = next(r for r in v.words.readouts if r.label.startswith(label))
    return f"{r.value} ± {r.error}" if r.error else r.value


def spread_text(v: scaling.View) -> str:
    """The measured spread of q·k at the view's d_k, as the page's readout prints it."""
    return readout(v, "Measured std of q·k")


def median_text(v: scaling.View) -> str:
    """The median draw's largest |J| at the view's d_k and divisor, as the page's readout prints it."""
    return readout(v, "Median largest |J|")


@dataclass(frozen=True)
class Widths:
    """The √d_k study's view, and the three sizes in play on the reader's sentence (name, size,
    what it is): the table shown before the reveal."""

    view: scaling.View
    widths: tuple[tuple[str, int, str], ...]


def _secrets(*values: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x for x in values if len(x) >= 5))


WIDER = 4  # step 8 asks how the scores' spread grows when the keys are this many times as wide


def which_width(s: Sentence) -> Step:
    """The square root of which width: n, d_in or d_k."""
    d_k = key_width(s)
    v = scaling_view(d_k, True)
    root = fmt.num(v.sqrt_d_k)
    widths = (
        ("n", s.n, "the number of tokens"),
        ("d_in", s.width, "each embedding's width"),
        ("d_k", d_k, "each key's width, d_out of W_key"),
    )
    grow = float(np.sqrt(WIDER * d_k) / np.sqrt(d_k))  # the spread's factor, √(4 d_k) / √d_k
    same = [name for name, w, _ in widths if name != "d_k" and w == d_k]
    also = (
        f" Here {same[0]} = {d_k} as well, so its square root is the same number; the code still reads "
        "the keys' width."
        if same
        else ""
    )
    text = (
        "Before the softmax, section 3.4 divides every score ω = q·k by one square root. Three sizes "
        f"are in play on your sentence: n = {s.n} {'tokens' if s.n > 1 else 'token'}, each embedding "
        f"d_in = {s.width} numbers wide, "
        f"and each query and key d_out = {d_k} wide after its projection. The divisor keeps the "
        "softmax from saturating as the model grows; the Divide by √d_k page samples random queries "
        "and keys to show why."
    )
    text = text.replace("the Divide by √d_k page samples", "the next page samples")
    return Step(
        text=text,
        figure=Figure(
            "scaling_spread",
            Widths(v, widths),
            "Spread of the scores q·k against d_k: measured, and the √d_k line",
            f"Circled: the spread measured at d_k = {d_k}, {spread_text(v)}, on the √d_k line at {root}.",
            covered="the chart of the scores' spread is held back; the table lists the three sizes in play.",
        ),
        question=Question(  # not "which width": the page's own name, "Divide by √d_k", says that
            prompt=(
                f"Queries and keys are d_k = {d_k} wide here. Make them {WIDER} times as wide, d_k = "
                f"{WIDER * d_k}: by what factor does the spread of the scores q·k grow, before any division?"
            ),
            options=(),
            answer=grow,
            answer_text=f"{grow:g} times: the spread grows like √d_k, and √{WIDER * d_k} / √{d_k} = {grow:g}",
            explanation=(
                f"A score q·k sums d_k products of independent N(0, 1) entries, so its variance is d_k and "
                f"its spread √d_k, whatever n and d_in are: for random queries and keys {d_k} wide the chart "
                f"measures {spread_text(v)} over {v.draws:,} draws. So the book's code divides by "
                f"`keys.shape[-1]**0.5`, the keys' width: √{d_k} = {root}, and the scores keep a spread "
                f"near 1 at any width.{also}"
            ),
            hint=(
                "A score adds up one product per entry of the query and key, each of variance 1, and "
                "variances add. When a variance grows 4 times, how does its square root grow?"
            ),
            tolerance=RELATIVE,
            relative=True,
            secrets=_secrets(root),
        ),
        link=scaling_link(v),
    )


def saturation(s: Sentence) -> Step:
    """One draw without the divisor at d_k = 768: the softmax all but picks one key. The page does
    not run on the reader's sentence, so neither does this step."""
    v = scaling_view(GRADIENT_D_K, False)
    top = int(np.argmax(v.log10_weights))
    others = v.settings.n_keys - 1
    lo, hi = min(v.scores), max(v.scores)
    rest = fmt.sci(10**v.log10_rest)  # as the top bar's label prints it, "1 − 2.6e-27"
    shape = (
        "The softmax has turned into a step: it picks one key and all but ignores the rest."
        if v.log10_rest < np.log10(v.threshold)
        else "The softmax leans hard towards one key."
    )
    text = (
        f"Now leave the divisor out and make queries and keys d_k = {GRADIENT_D_K:,} wide. One draw of a "
        f"query and {v.settings.n_keys} keys, every entry N(0, 1), gives scores from {fmt.num(lo)} to "
        f"{fmt.num(hi)}: they spread like √{GRADIENT_D_K:,} = {fmt.num(v.sqrt_d_k)}. The softmax "
        f"exponentiates those gaps, so key k{top + 1} takes all the weight but {rest}, which the other "
        f"{others} keys share. {shape}"
    )
    return Step(
        text=text,
        figure=Figure(
            "scaling_bars",
            v,
            f"One draw's attention weights at d_k = {GRADIENT_D_K:,}, no divisor",
            f"Outlined: key k{top + 1}, the bar that takes all but {rest} of the weight.",
        ),
        link=scaling_link(v),
    )


def gradient(s: Sentence) -> Step:
    """What the softmax's gradient does without the divisor: the study's median largest |J|."""
    v, on = scaling_view(GRADIENT_D_K, False), scaling_view(GRADIENT_D_K, True)
    raw, scaled = v.summary, on.summary
    assert raw is not None and scaled is not None  # the exact sampler reaches every d_k of the grid
    without, with_ = median_text(v), median_text(on)
    # Apart by more than the page's checks allow between two estimates (its z tolerance).
    apart = abs(raw.median - scaled.median) > v.z_tolerance * float(np.hypot(raw.median_se, scaled.median_se))
    answer = 0 if not apart else 1 if raw.median > scaled.median else 2
    options = (
        "About the same: the softmax's gradient does not care",
        "Larger: sharper scores pass a stronger gradient",
        "Smaller: the gradient fades",
    )
    live = f"largest |J| ≥ {fmt.sci(v.threshold, 0)}"
    text = (
        "Training reaches the scores only through the softmax's Jacobian, J = diag(α) − ααᵀ: its "
        "largest entry says how far a nudge to the scores can still move the weights. The Divide by "
        f"√d_k page samples {v.draws:,} draws of one query and {v.settings.n_keys} keys at each d_k, "
        "every entry N(0, 1), and takes the median draw's largest |J|, with the divisor and without. "
        f"A draw is live when its largest |J| is at least {fmt.sci(v.threshold, 0)}: big enough for "
        "training to move the weights."
    )
    return Step(
        text=text,
        figure=Figure(
            "scaling_jacobian",
            v,
            "Median and mean largest entry of the softmax Jacobian against d_k, with and without the divisor",
            f"Circled: the median without the divisor at d_k = {GRADIENT_D_K:,}, {without}; the dotted "
            "line marks that d_k.",
            covered="the curves without the divisor are not drawn yet; those with it are.",
        ),
        question=Question(
            prompt=(
                f"At d_k = {GRADIENT_D_K:,}, with the divisor, the median draw's largest |J| is {with_}. "
                "Without the divisor, it is…"
            ),
            options=options,
            answer=answer,
            answer_text=f"{options[answer].split(':')[0].lower()}: {without} without the divisor",
            explanation=(
                f"Unscaled, the scores spread like √{GRADIENT_D_K:,} = {fmt.num(v.sqrt_d_k)} (measured "
                f"{spread_text(v)}), so the softmax puts nearly all the weight on one key, and J's "
                f"entries, α_i(δ_ij − α_j), shrink with the others. The median largest |J| is {without} "
                f"without the divisor against {with_} with it, and "
                f"{readout(v, 'Live draws')} of draws keep a {live}, against {readout(on, 'Live draws')}. "
                "Dividing by √d_k holds the "
                "scores' spread at 1 at every d_k, and the gradient with it."
            ),
            hint=(
                f"The previous step's draw at d_k = {GRADIENT_D_K:,}, without the divisor, gave one key "
                "nearly all the weight. J's entries are α_i(δ_ij − α_j): what are they when one α is "
                "nearly 1 and the rest nearly 0?"
            ),
            secrets=_secrets(without),
        ),
        link=scaling_link(v),
    )


# --- Masking the future -------------------------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """A masking view and the one cell (or bar) its drawing outlines: row ``row``, column ``col``."""

    view: masking.View
    row: int
    col: int


def masking_view(
    s: Sentence,
    *,
    stage: int = STAGES,
    fill: masking.Fill = "-inf",
    focus: int | None = None,
    cell: int | None = None,
) -> masking.View:
    """The Masking the future page's view on the reader's sentence: its defaults (section 3.5's
    weights, the book's −∞ fill, the last stage) but for the stage, fill and cell given."""
    return masking.build(
        masking.Settings(labels=s.labels, x=s.embeddings, stage=stage, fill=fill, focus=focus, cell=cell)
    )


def weight_text(x: float) -> str:
    """A weight as the Masking page prints a share: 4 decimals, with its exponent when 4 decimals
    would print a leak as 0.0000, and 0 only when it is exactly 0."""
    return "0" if x == 0 else fmt.num(x) if abs(x) >= 5e-5 else fmt.sci(x)


def rows_text(rows: np.ndarray) -> str:
    """``row 2``, ``rows 1, 3`` (numbered from 1)."""
    return ("row " if len(rows) == 1 else "rows ") + ", ".join(str(int(i) + 1) for i in rows)


def masking_link(labels: tuple[str, ...], row: int, col: int, **keys: str) -> dict[str, str]:
    """The page's URL keys: the outlined cell as its focus and cell controls, and ``keys``."""
    return {**keys, "mask_focus": labels[row], "mask_cell": labels[col]}


TRIANGLES = (
    ("Above the diagonal: keys after the query (j > i)", 1),  # np.triu's k: the cells it keeps
    ("Below the diagonal: keys before the query (j < i)", -1),
    ("The diagonal: each token with itself (j = i)", 0),
)


def triangle_cells(n: int, k: int) -> np.ndarray:  # -> [n, n] bool
    """The cells an option names: above (``k = 1``) or below (``k = -1``) the diagonal, or on it."""
    ones = np.ones((n, n), dtype=bool)
    return np.triu(ones, k=1) if k == 1 else np.tril(ones, k=-1) if k == -1 else np.eye(n, dtype=bool)


def which_triangle(s: Sentence) -> Step:
    """Which triangle the efficient path fills with −∞."""
    n, T = s.n, s.labels
    col = 1 if n > 1 else 0
    v = masking_view(s, stage=2, focus=0, cell=col)
    m = v.efficient.matrix  # the scores with the future filled
    hidden = np.isneginf(m)
    answer = next(i for i, (_, k) in enumerate(TRIANGLES) if np.array_equal(hidden, triangle_cells(n, k)))
    a, b = token(T[0]), token(T[col])
    if n > 1:
        why = (
            f"Query i may read keys j ≤ i only, so `torch.triu(ones, diagonal=1)` marks the "
            f"{int(hidden.sum())} cells above the diagonal and `masked_fill` writes −∞ there; e^(−∞) = 0. "
            "The diagonal stays: every token sees itself, so no row is all −∞. Outlined: the score of "
            f"query {a} for key {b}, which comes after it."
        )
        shown = f"Outlined: the row of {a} and its cell for {b}, filled with −∞."
    else:
        why = (
            "With one token there is nothing above the diagonal: no score is masked, and the token "
            "reads itself only."
        )
        shown = f"Outlined: the only cell, {a} with itself; nothing is masked."
    new, old = core_weights.section_3_5().seed, core_weights.section_3_4().seed
    text = (
        "From here the tour uses section 3.5's weights, `nn.Linear` layers drawn after "
        f"`torch.manual_seed({new})`, not section 3.4's `torch.rand` ones (seed {old}): the scores "
        "differ from earlier steps'. A model that predicts the next token must not read it, so section 3.5.1 "
        "writes −∞ into some of the scores Ω (row i: a query; column j: a key) with `masked_fill`; "
        "the softmax turns e^(−∞) into a weight of exactly 0."
    )
    return Step(
        text=text,
        figure=Figure(
            "masking_stage",
            Marked(v, 0, col),
            "Scores Ω with the future filled with −∞",
            shown,
            covered="the scores are drawn as they are before any cell is filled.",
        ),
        question=Question(
            prompt="Which cells get −∞?",
            options=tuple(o for o, _ in TRIANGLES),
            answer=answer,
            answer_text=TRIANGLES[answer][0].split(":")[0].lower()
            + ("" if n > 1 else ", which one token does not have"),
            explanation=why,
            hint="Row i is the query at position i. Which keys j come after it in the sentence?",
        ),
        link=masking_link(T, 0, col, stage="2"),
    )


def zero_score(s: Sentence) -> Step:
    """Fill the future with 0 instead of −∞: a zero score still gets weight."""
    T = s.labels
    zero = masking.FILL_LABELS["zero"]
    v = masking_view(s, fill="zero", focus=0, cell=min(1, s.n - 1))
    options = ("Exactly 0, as with −∞", "More than 0")
    opening = (
        "Why −∞ and not 0? The softmax exponentiates every score it gets and gives each its share of "
        "the row's sum, e^(x_j) / Σ e^(x_l). "
    )
    if s.n == 1:  # no future to fill: the page's counterexample row asks the same question
        logits, w = v.logits, v.softmax.weights
        assert w is not None  # the page's default row is finite
        j = int(np.flatnonzero(logits == 0)[0])
        row = fmt.vec(logits, 1)
        text = (
            opening + "Your sentence has one token and no future to fill, so try the Masking the future "
            f"page's row of logits instead, {row}, with two scores of 0."
        )
        more = w[j] > 0
        return Step(
            text=text,
            figure=Figure(
                "masking_softmax",
                Marked(v, 0, j),
                f"softmax of {row}",
                f"Outlined: x{j + 1}, a logit of 0, and its weight {fmt.num(w[j])}.",
            ),
            question=Question(
                prompt=f"After softmax({row}), what weight does a 0 get?",
                options=options,
                answer=int(more),
                answer_text=f"{'more than 0' if more else 'exactly 0'}: {fmt.num(w[j])}",
                explanation=(
                    f"e^0 = 1, so a score of 0 gets 1 / Σ e^(x_l) = {fmt.num(w[j])}; only e^(−∞) is "
                    "exactly 0. Section 3.5.1's two ways both give exact zeros: zero the weights after "
                    "the softmax and renormalise, or write −∞ into the scores before it."
                ),
            ),
            link={"fill": zero},
        )
    weight = float(v.masked[0, 1])
    leak = float(v.future["zero"][0])
    sealed = weight_text(float(v.future["-inf"][0]))
    a, b = token(T[0]), token(T[1])
    if weight > 0:
        why = (
            f"A 0 is still a score: it gets e^0 = 1 over the row's sum, here {fmt.num(weight)}, and "
            f"{a} hands {weight_text(leak)} of its attention to the {s.n - 1} later "
            f"tokens, against {sealed} with −∞. Section 3.5.1's two ways both give exact zeros: zero "
            "the weights after the softmax and renormalise, or write −∞ into the scores before it."
        )
    else:
        why = (
            f"Here it is 0, but only because {a}'s own score is so large that e^(0 − score) underflows "
            "to 0 in float64. In general a 0 gets e^0 = 1 over the row's sum; only e^(−∞) is exactly 0."
        )
    return Step(
        text=opening + "Fill the future with 0 instead (the shortcut), scale and softmax once, as before.",
        figure=Figure(
            "masking_stage",
            Marked(v, 0, 1),
            "Weights with the future filled with 0",
            f"Outlined: the row of {a} and its cell for {b}, a token it must not see.",
            covered="every weight a token gives a later token shows ?.",
        ),
        question=Question(
            prompt=f"With the 0 fill, what weight does {a} give {b}, which comes after it?",
            options=options,
            answer=int(weight > 0),
            answer_text=f"{'more than 0' if weight > 0 else 'exactly 0'}: {weight_text(weight)}",
            explanation=why,
            hint=f"What is e^0? And does the weight {a} gives itself, uncovered, add up to 1 on its own?",
            secrets=_secrets(weight_text(weight), weight_text(leak)),
        ),
        link=masking_link(T, 0, 1, fill=zero),
    )


def two_ways(s: Sentence) -> Step:
    """Section 3.5.1's two ways, softmax-then-mask-and-renormalise and −∞-then-softmax: do they agree?"""
    T = s.labels
    v = masking_view(s)
    size = np.where(np.isfinite(v.difference), np.abs(v.difference), np.inf)  # 0/0 counts as the worst
    i, j = (int(x) for x in np.unravel_index(np.argmax(size), size.shape))
    agree = not len(v.broken)
    bound = fmt.noise(v.largest, v.limit) if agree else v.largest_text
    options = ("Yes: the same weights, up to float64 rounding", "No: renormalising gives other weights")
    if agree:
        why = (
            "Both end at e^(ω_ij/√d_k) over the sum of the visible ones: the naive path's full-row "
            "denominator sits above and below the line and cancels. In float64 they sum in different "
            "orders and may round apart, so the page states their difference as a bound, not as digits."
        )
    else:
        why = (
            "In exact arithmetic they agree. In float64 a later score beats every visible one by so much "
            f"that the naive path's full-row softmax loses the visible weights, in "
            f"{rows_text(v.broken)}: the largest difference is {bound}."
        )
    kept = v.runs.naive[2].matrix.sum(axis=-1)  # each row's visible weights before renormalising
    low = int(np.argmin(kept))
    text = (
        "Section 3.5.1 masks two ways. The naive way softmaxes each full row, zeroes the future with "
        "`torch.tril` and divides each row by its new sum. The −∞ way fills the future scores and "
        "softmaxes once. The book prefers the −∞ way: one softmax, no second normalisation, and no "
        f"division by a row sum that could reach 0; here the naive way divides the row of "
        f"{token(T[low])} by {weight_text(float(kept[low]))}."
    )
    shown = (
        f"Outlined: the cell where the ways differ most, {token(T[i])} → {token(T[j])}, {v.cells[i][j]}."
        if v.largest
        else "Every cell is exactly 0; outlined: the first."
        if s.n > 1
        else "The only cell is exactly 0."
    )
    return Step(
        text=text,
        figure=Figure(
            "masking_difference",
            Marked(v, i, j),
            "The naive way's weights minus the −∞ way's, after each way's last stage",
            shown,
            covered="only the −∞ way's weights are drawn; the naive way's, and the difference, are not.",
        ),
        question=Question(
            prompt="When both ways finish, do they give the same weights?",
            options=options,
            answer=0 if agree else 1,
            answer_text=f"{'yes' if agree else 'no'}: the largest difference is {bound}",
            explanation=why,
            hint=(
                "Write the naive way's weight as e^(x_j)/Σ_all, then divide by the visible part of that "
                "row, Σ_visible e^(x_l)/Σ_all. What happens to Σ_all?"
            ),
            secrets=_secrets(bound),
        ),
        link=masking_link(T, i, j),
    )


STEPS: tuple[StepDef, ...] = (
    StepDef("which_width", "scaling", "The square root of which width?", which_width, asks=True),
    StepDef("saturation", "scaling", "Without the divisor, the softmax saturates", saturation),
    StepDef("gradient", "scaling", "What the softmax's gradient does", gradient, asks=True),
    StepDef("which_triangle", "masking", "Which triangle is hidden?", which_triangle, asks=True),
    StepDef("zero_score", "masking", "Is a zero score a zero weight?", zero_score, asks=True),
    StepDef("two_ways", "masking", "Two ways to mask, one answer?", two_ways, asks=True),
)
