"""Read-along steps for the chapter's foundations: attention without weights (section 3.3), the
three projections and the asymmetry they buy, the forward pass (3.4), and what training buys.

Every number a step states is read from the topic's own view at the reader's sentence: the Recap's
(``topics.recap.view``), Three matrices' (``topics.three_matrices.view``) and Learning to attend's
(``topics.learning.view``, trained for :data:`TRAIN_STEPS` steps so that a step stays fast).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.attention import Mode
from core.sentence import Sentence
from topics.learning import view as learning
from topics.read_along.step import Figure, Question, Step, StepDef, token
from topics.recap import view as recap
from topics.three_matrices import view as three
from ui import format as fmt

SYMMETRY_TOLERANCE = 1e-12  # |A − Aᵀ| at most this is symmetric: far above float64 rounding of a softmax
SPREAD_KEPT = 0.75  # the outputs keep "about as much" spread as the inputs from this share up
TRAIN_STEPS = 500  # Learning to attend's runs here: ~0.1 s at 32 tokens (its page defaults to 5,000)

# Learning to attend's controls as its URL holds them: the option's label (``topics.learning.readouts``
# and ``ui.weights``, which draw, so a step may not import them; ``tests/read_along`` checks them).
TARGET_LABELS = {"previous": "Previous token", "pair": "Tokens 1 ↔ 2, others themselves"}
MODE_LABELS = {"none": "No matrices", "tied": "Tied W_q = W_k", "three": "Three matrices"}


def _gap(x: float) -> str:
    """A difference or a gap: 4 decimals, or scientific below 1e-4 in size, or 0."""
    return fmt.num(x) if abs(x) >= 1e-4 else fmt.sci(x) if x else "0"


def _secrets(*values: str) -> tuple[str, ...]:
    """The printed values that would give an answer away: those long enough to be told apart from
    the other numbers on screen (a "0" or a "1" is everywhere)."""
    return tuple(dict.fromkeys(x for x in values if len(x) >= 5))


def _pair(labels: tuple[str, ...]) -> tuple[int, int]:
    """journey and starts on the book's sentence; else tokens 2 and 3, or 1 and 2 of two tokens
    (two different positions whenever the sentence has two)."""
    q = three.position(labels, "journey", 1)
    k = three.position(labels, "starts", 2)
    if q == k and len(labels) > 1:
        return (0, 1) if q == 1 else (q, (q + 1) % len(labels))
    return q, k


def _repeats(s: Sentence, *rows: int) -> bool:
    """Whether another token has the embedding of one of ``rows``: its scores repeat theirs."""
    x = s.embeddings
    return any(int((x == x[r]).all(axis=1).sum()) > 1 for r in rows)


def _recap(s: Sentence, q: int, k: int) -> recap.View:
    T = s.labels
    return recap.build(recap.Settings(T, s.embeddings, T[q], T[k]))


def _three(s: Sentence, focus: int | None, cell: int | None = None) -> three.View:
    return three.build(three.Settings(s.labels, s.embeddings, s.is_book, focus=focus, cell=cell))


# --- Recap: attention without weights (section 3.3) -----------------------------------------------


def weightless(s: Sentence) -> Step:
    """Attention without weights: Ω = XXᵀ is symmetric, and the question is whether A is."""
    q, k = _pair(s.labels)
    v = _recap(s, q, k)
    w = v.collapse.weights
    gap = float(abs(w - w.T).max())
    symmetric = gap <= SYMMETRY_TOLERANCE
    if not symmetric and fmt.num(w[q, k]) == fmt.num(w[k, q]):  # the pair hides it: show the widest gap
        q, k = (int(i) for i in np.unravel_index(int(np.argmax(abs(w - w.T))), w.shape))
        v = _recap(s, q, k)
    T = v.labels
    a, b = token(T[q]), token(T[k])
    if v.n == 1:
        both = f"ω({a}, {a}) is the only score, and one number is symmetric."
        why = f"A single token takes all of its own weight: A is the 1 × 1 matrix [{fmt.num(v.weight)}]."
    else:
        both = f"A dot product reads the same both ways: ω({a}, {b}) = ω({b}, {a}) = {fmt.num(v.affinity)}."
        if symmetric:
            same = (
                "every token has the same embedding, so every row has the same sum"
                if bool(np.all(v.inputs == v.inputs[0]))
                else "every row's sum comes out the same"
            )
            why = (
                f"Softmax divides each row by its own sum of exponentials; here {same}, and the symmetry "
                "survives. When the sums differ, as they generally do once embeddings differ, A is not "
                "symmetric."
            )
        else:
            why = (
                f"Softmax divides the row of {a} by its own sum of exponentials and the row of {b} by "
                f"another, so {a} → {b} gets {fmt.num(v.weight)} while {b} → {a} (the row of {b}) gets "
                f"{fmt.num(float(w[k, q]))}, from the same score."
            )
    text = (
        "Section 3.3 starts without any trainable weight. Each token's embedding is a row of X; every "
        f"pair is scored by a dot product, Ω = XXᵀ ({v.n} × {v.n} = {v.dot_products} of them), and softmax "
        f"turns each row of scores into weights that sum to 1. {both}"
    )
    return Step(
        text=text,
        figure=Figure(
            "recap_weights",
            v,
            "Attention weights A = softmax(XXᵀ), one row per query token",
            f"Outlined: the row of {token(T[q])} and its cell for {token(T[k])}.",
            covered="A is not drawn yet; the scores Ω = XXᵀ it is made from are.",
        ),
        question=Question(
            prompt="Ω is symmetric. Is A = softmax(Ω), taken row by row, symmetric too?",
            options=("Yes: softmax keeps the symmetry", "No: not at this sentence"),
            answer=0 if symmetric else 1,
            answer_text=f"{'yes' if symmetric else 'no'}, max|A − Aᵀ| = {_gap(gap)} here",
            explanation=why,
            hint=(
                f"Softmax divides each row by its own sum of exponentials. Look at the rows of {a} and "
                f"{b} in Ω: do they hold the same numbers, and so the same sum?"
            ),
            secrets=_secrets(_gap(gap), fmt.num(float(w[q, k])), fmt.num(float(w[k, q]))),
        ),
        link={"query": T[q], "key": T[k]},
    )


SPREAD_OPTIONS = (
    f"About as far apart: {fmt.percent(SPREAD_KEPT, 0)} of the inputs' spread or more",
    f"Closer: between {fmt.percent(recap.HUDDLE_SHARE, 0)} and {fmt.percent(SPREAD_KEPT, 0)} of it",
    f"Huddled together: under {fmt.percent(recap.HUDDLE_SHARE, 0)} of it",
)


def spread_option(share: float) -> int:
    """Which of :data:`SPREAD_OPTIONS` the outputs' share of the inputs' spread falls in."""
    return 0 if share >= SPREAD_KEPT else 1 if share >= recap.HUDDLE_SHARE else 2


def huddle(s: Sentence) -> Step:
    """Why attention without weights cannot learn: every output is an average fixed by the inputs."""
    q, k = _pair(s.labels)
    v = _recap(s, q, k)
    c, T, n = v.collapse, v.labels, v.n
    fixed = (
        "Nothing here can be trained: XXᵀ and the softmax are fixed by the embeddings, so there is no dial "
        "for gradient descent to turn."
    )
    first = "" if v.width == 3 else f" (it draws the first 3 of {v.width} dimensions)"
    chart = (
        f"The chart shows the inputs X{first}; the outputs Z = AX, computed here, join them once you answer."
    )
    figure = Figure(
        "recap_huddle",
        v,
        "Inputs X and outputs Z = AX" + (f", dims 1–3 of {v.width}" if v.width > 3 else ""),
        f"Enlarged and joined by a dashed line: the input of {token(T[q])} and its output z.",
        covered="the outputs Z = AX are not drawn yet; the inputs X are.",
    )
    link = {"query": T[q], "key": T[k]}
    if c.spread_share is None or c.spread_in is None or c.spread_out is None:
        alone = (
            "With one token its weight is 1 and its output is its own input"
            if n == 1
            else f"Every token here has the same embedding, so every weight is 1/{n} = {fmt.num(v.uniform)} "
            "and every output is that embedding"
        )
        chart = f"The chart puts the inputs X beside the outputs Z = AX, computed here{first}."
        return Step(
            f"Each output is a weighted average of the inputs. {alone}. {fixed} {chart}",
            replace(figure, covered=""),
            None,
            link,
        )
    text = (
        f"Each output z = Σⱼ aⱼ xⱼ is a weighted average of all {n} inputs, with weights from "
        f"{fmt.num(v.lightest)} to {fmt.num(v.heaviest)} (an even split gives 1/{n} = {fmt.num(v.uniform)}). "
        f"{fixed} {chart}"
    )
    share = c.spread_share
    said = (
        f"The inputs' mean pairwise distance is {fmt.num(c.spread_in)}, the outputs' "
        f"{fmt.num(c.spread_out)}: {fmt.percent(share)} of it."
    )
    if v.huddled:
        where = (
            "near the centre of the inputs" if v.centred else "together, away from the centre of the inputs"
        )
        why = f"Averages that mix every input much alike land close together, {where}."
        if len(set(c.nearest)) == 1:
            why += f" Every output's nearest input embedding is that of {token(c.nearest[0])}."
    else:
        why = (
            f"Weights this uneven (up to {fmt.num(v.heaviest)}) pull each output toward the inputs it weighs "
            "most rather than to one centre, so the outputs keep more of their spread; still, which inputs "
            "those are was fixed by the embeddings, not learned."
        )
    return Step(
        text,
        figure,
        Question(
            prompt=f"Compared with the inputs, how far apart are the {n} outputs, on average?",
            options=SPREAD_OPTIONS,
            answer=spread_option(share),
            answer_text=f"{fmt.percent(share)} of the inputs' spread",
            explanation=f"{said} {why}",
            hint=(
                f"Each output mixes all {n} inputs with weights between {fmt.num(v.lightest)} and "
                f"{fmt.num(v.heaviest)}. How far can averages that much alike land from each other?"
            ),
            secrets=_secrets(fmt.percent(share), fmt.num(c.spread_out)),
        ),
        link,
    )


# --- Three matrices (section 3.4) ----------------------------------------------------------------


def shape_options(n: int, d_in: int, d_out: int) -> tuple[tuple[int, int], ...]:
    """Candidate shapes of Q, each once (two coincide when n equals a width)."""
    return tuple(dict.fromkeys(((n, d_in), (d_in, d_out), (n, d_out), (n, n))))


def _shape(rows: int, cols: int) -> str:
    return f"{rows} × {cols}"


def projections(s: Sentence) -> Step:
    """The three projections Q = XW_q, K = XW_k, V = XW_v, and the shape of Q."""
    j, _ = _pair(s.labels)
    v = _three(s, j)
    ws, T = v.weight_set, v.labels
    d_in, d_out = ws.w_query.shape
    q = v.trace.queries
    drawn = (
        f"drawn after torch.manual_seed({ws.seed}) with torch.rand({d_in}, {d_out})"
        if ws.init == "rand"
        else f"drawn after torch.manual_seed({ws.seed})"
    )
    text = (
        "Section 3.4 adds three trainable matrices, W_q, W_k and W_v, each d_in × d_out: d_in is an "
        "embedding's width, d_out the width chosen for queries, keys and values. They are "
        f"{drawn} (section 3.4's weights, used through step 10). Each token's embedding x goes through "
        "each: its query q = xW_q (what it looks for), its key k = xW_k (what it offers), its value "
        "v = xW_v (what it passes on)."
    )
    shapes = shape_options(v.n, d_in, d_out)
    return Step(
        text=text,
        figure=Figure(
            "tm_queries",
            v,
            "Queries Q = XW_q, one row per token",
            f"Outlined: the row of {token(T[j])}, its query q = {fmt.vec(q[j])}.",
            covered="Q is not drawn yet; W_q, the matrix each embedding goes through, is.",
        ),
        question=Question(
            prompt=(
                f"Your sentence has {fmt.count(v.n, 'token')}, {d_in} wide, so X is {_shape(v.n, d_in)}, "
                f"and W_q is {_shape(d_in, d_out)}. What shape is Q = XW_q?"
            ),
            options=tuple(_shape(*x) for x in shapes),
            answer=shapes.index(q.shape),
            answer_text=_shape(*q.shape),
            explanation=(
                f"A product of an n × d_in matrix and a d_in × d_out one is n × d_out: one row per token, "
                f"{q.shape[1]} numbers each. The embedding's width, {d_in}, is summed away; K and V are "
                f"{_shape(*v.trace.keys.shape)} and {_shape(*v.trace.values.shape)} too. For "
                f"{token(T[j])}, q = {fmt.vec(q[j])}."
            ),
            hint=(
                "In a matrix product the inner widths meet and vanish: (rows of X) × (columns of W_q). "
                "Count W_q's columns in the figure."
            ),
            secrets=(_shape(*q.shape),),
        ),
        link={"focus": T[j]},
    )


def asymmetry(s: Sentence) -> Step:
    """With W_q ≠ W_k, is ω(a, b) equal to ω(b, a)? The score error answers, and tying says why."""
    j, k = _pair(s.labels)
    v = _three(s, j, k)
    T, om = v.labels, v.trace.scores
    a, b = token(T[j]), token(T[k])
    figure = Figure(
        "tm_asymmetry",
        v,
        "Ω − Ωᵀ: each score minus the score read the other way, three matrices",
        f"Outlined: the row of {a} and its cell for {b}, ω({a}, {b}) − ω({b}, {a}).",
        covered=f"the scores Ω are drawn with the two asked cells, ω({a}, {b}) and ω({b}, {a}), covered"
        + (
            ", and the cells of their repeated words, which hold the same scores."
            if _repeats(s, j, k)
            else "."
        ),
    )
    link = {"focus": T[j], "cell": T[k]}
    intro = (
        "Now a score is a query against a key, ω(a, b) = q_a · k_b (scaled down by a square root "
        "before the softmax: step 8 asks why). W_q and W_k are two different matrices."
    )
    if v.n == 1:
        text = (
            f"{intro} With one token there is one score, its query against its own key: there is no other "
            "way round to read it."
        )
        return Step(text, replace(figure, covered=""), None, link)
    text = (
        f"{intro} Read the other way round, ω({b}, {a}) pairs the query of {b} with the key of {a}: two "
        "other vectors. Once you "
        "answer, the chart shows Ω − Ωᵀ: each score minus its reverse. Its largest size is the score "
        "error, max|Ω − Ωᵀ|."
    )
    forward, back = float(om[j, k]), float(om[k, j])
    equal = abs(forward - back) <= SYMMETRY_TOLERANCE * max(1.0, abs(forward))
    err, tied = v.score_error, v.row("tied").score_error
    tie = f"Tie W_k = W_q and the score error is {_gap(tied)}: ω(a, b) = q_a · q_b reads the same both ways."
    if not equal:
        why = (
            f"ω({a}, {b}) = {fmt.num(forward)} while ω({b}, {a}) = {fmt.num(back)}: a query of one matrix "
            f"meets a key of the other. Over all pairs the score error max|Ω − Ωᵀ| is {_gap(err)}. {tie}"
        )
    elif np.array_equal(v.trace.queries[j], v.trace.queries[k]):
        whole = (
            "every token here has the same embedding, so Ω is symmetric in every mode"
            if err == 0
            else f"over all pairs, the score error max|Ω − Ωᵀ| is {_gap(err)}"
        )
        why = (
            f"{a} and {b} have the same embedding, so the same query and the same key: ω = "
            f"{fmt.num(forward)} both ways. And {whole}. {tie}"
        )
    else:
        why = (
            f"Here both read {fmt.num(forward)}, though the vectors differ; over all pairs the score error "
            f"max|Ω − Ωᵀ| is {_gap(err)}. {tie}"
        )
    return Step(
        text,
        figure,
        Question(
            prompt=f"With W_q ≠ W_k, is ω({a}, {b}) equal to ω({b}, {a})?",
            options=("Yes: the same number both ways", "No: they differ"),
            answer=0 if equal else 1,
            answer_text=(f"{'yes' if equal else 'no'}, ω({a}, {b}) − ω({b}, {a}) = {_gap(forward - back)}"),
            explanation=why,
            hint=(
                f"ω({a}, {b}) takes {a}'s row of Q and {b}'s row of K; ω({b}, {a}) takes the other "
                "two rows. Compare the other mirrored pairs of cells in Ω: do they match?"
            ),
            secrets=_secrets(_gap(forward - back), fmt.num(back), _gap(err)),
        ),
        link,
    )


def context(s: Sentence) -> Step:
    """The forward pass for one query: z = Σ_j a_j v_j, section 3.4's z^(2) on the book's sentence."""
    j, _ = _pair(s.labels)
    v = _three(s, j)
    assert v.focus is not None and v.cell_key is not None  # a focus was given
    T, a = v.labels, token(v.labels[j])
    top = v.cell_key
    book = " (section 3.4's z⁽²⁾)" if s.is_book and T[j] == "journey" else ""
    d_in, d_out = v.weight_set.w_value.shape
    w = v.focus.weights
    ties = len(fmt.leaders(w))  # tied as the row prints, as every page decides
    if v.n == 1:
        most = f"Its one weight, {fmt.num(w[top])}, goes to {token(T[top])} itself."
    elif ties == v.n:
        most = f"It weighs all {fmt.count(v.n, 'token')} alike, {fmt.num(w[top])} each."
    else:
        others = "" if ties == 1 else f" and {fmt.count(ties - 1, 'other')}"
        most = f"Its largest weight, {fmt.num(w[top])}, goes to {token(T[top])}{others}."
    plain = np.asarray(w, dtype=np.float64) @ np.asarray(s.embeddings, dtype=np.float64)
    text = (
        f"Softmax turns the scaled scores into weights A, row by row. The row of {a} mixes every token's "
        f"value: z = Σⱼ aⱼ vⱼ, with v = xW_v. {most} Here z = {fmt.vec(v.focus.context)}{book}. What W_v "
        f"buys: with values = the embeddings, z would be Σⱼ aⱼ xⱼ = {fmt.short_vec(plain, 4)}, an average "
        f"inside the embeddings' own {d_in}-wide space; W_v lets training pick the space, here {d_out} wide."
    )
    return Step(
        text=text,
        figure=Figure(
            "tm_context",
            v,
            "Weights A = softmax of the scaled scores, three matrices",
            f"Outlined: the row of weights of {a}, and its largest, on {token(T[top])}.",
        ),
        link={"focus": T[j]},
    )


# --- Learning to attend: what the dials buy ------------------------------------------------------


def _no_search(*_: object) -> tuple[None, None]:
    """The page's search and linear program take up to half a second: a step reads the proof only."""
    return None, None


def _learn(
    s: Sentence, target: learning.Target, mode: Mode, focus: int | None, cell: int | None
) -> learning.View:
    settings = learning.Settings(
        s.labels,
        s.embeddings,
        target=target,
        mode=mode,
        steps=TRAIN_STEPS,
        step=TRAIN_STEPS,
        focus=focus,
        cell=cell,
    )
    return learning.build(settings, limits=_no_search)


def _rows(v: learning.View, mode: Mode) -> str:
    return f"{next(r for r in v.table if r.mode == mode).rows} of {v.n}"


def training(s: Sentence) -> Step:
    """Gradient descent turns W_q and W_k towards a target; the no-matrix mode has nothing to turn."""
    v = _learn(s, "previous", "three", None, None)
    st = v.settings
    run = {r.mode: r for r in v.table}
    none, tied, th = run["none"], run["tied"], run["three"]
    intro = (
        "Matrices are dials that training can turn. Learning to attend picks a target, here each token "
        "attending to the one before it (the first to itself), and fits W_q and W_k to it by gradient "
        f"descent: Adam at rate {st.lr}, {st.steps} steps, computed here. Every mode starts from one "
        "seed's weights but scores with them its own way, so their first losses differ."
    )
    x = v.settings.embeddings
    if v.n == 1:
        text = f"{intro} With one token, every mode gets its one row right from the start: every loss is 0."
    elif bool(np.all(x == x[0])):
        text = (
            f"{intro} Here every mode's cross-entropy stays at {fmt.num(th.last_loss)}: tokens with one "
            "embedding get one query and one key, so no matrix can tell them apart."
        )
    else:
        text = (
            f"{intro} The cross-entropy goes from {fmt.num(th.first_loss)} to {fmt.num(th.last_loss)} with "
            f"three matrices and {fmt.num(tied.first_loss)} to {fmt.num(tied.last_loss)} tied; with no "
            f"matrices it stays at {fmt.num(none.first_loss)}: XXᵀ has no dial."
        )
    return Step(
        text=text,
        figure=Figure(
            "learn_loss",
            v,
            f"Cross-entropy against step, each mode, previous-token target, {st.steps} steps",
            f"Each line is named in the legend; the flat one is no matrices. The dotted line marks step "
            f"{v.step}.",
        ),
        link={"target": TARGET_LABELS["previous"], "steps": str(st.steps), "learn_step": str(v.step)},
    )


def tied_limit(s: Sentence) -> Step:
    """A target tied weights provably cannot meet: tokens 1 and 2 attending to each other."""
    cell = min(1, len(s.labels) - 1)
    v = _learn(s, "pair", "tied", 0, cell)
    T, n = v.settings.labels, v.n
    a, b = token(T[0]), token(T[cell])
    assert v.tied_bound is not None  # the pair target has one target token per row
    pair = (
        f"tokens 1 and 2, {a} and {b}, attend to each other and every other token to itself"
        if n > 1
        else f"tokens 1 and 2 attend to each other; with one token, {a} attends to itself"
    )
    text = (
        f"A harder target: {pair}. Tied, W_k = W_q, every score is a dot "
        "product of two queries, ω(i, j) = q_i · q_j, and reads the same both ways; three matrices are free "
        f"of that. The chart shows the tied run's attention after {v.step} steps, computed here."
    )
    if (
        len(np.unique(s.embeddings, axis=0)) < n
    ):  # the count's rule for a repeated word, said before it counts
        text += (
            " A row is right when its largest weight is on the target's word: a repeated word's copies "
            "share one key, so either copy counts."
        )
    ran = f"This run, {v.step} steps: tied {_rows(v, 'tied')} rows right, three matrices {_rows(v, 'three')}."
    if v.cycles:
        why = (
            f"For {a} to attend most to {b}, q({a}) · q({b}) must beat q({a}) · q({a}), which by "
            f"Cauchy–Schwarz needs |q({b})| > |q({a})|; the reverse needs |q({a})| > |q({b})|. Both cannot "
            f"hold, at any width. {ran}"
        )
    else:
        why = f"{v.prose.cycle} {ran}"
    return Step(
        text=text,
        figure=Figure(
            "learn_attention",
            v,
            f"Attention A of the tied run at step {v.step}",
            f"Outlined: the row of {a} and its cell for {b}, the weight the target wants largest.",
            covered="the rows of tokens 1 and 2, the pair the target asks to attend to each other, show ?"
            + (
                ", and so do the rows of their repeated words, which hold the same weights."
                if _repeats(s, 0, cell)
                else "."
            ),
        ),
        question=Question(
            prompt=(
                f"With tied weights, at most how many of its {fmt.count(n, 'row')} "
                "can any training get right?"
            ),
            options=(),
            answer=float(v.tied_bound),
            answer_text=f"{v.tied_bound} of {n}",
            explanation=why,
            hint=(
                f"Tied, ω(i, j) = q_i · q_j. For {a} to attend most to {b} and {b} most to {a}, which "
                "query would have to be the longer one? Can both rows be right?"
            ),
            unit=("row", "rows"),
            whole=True,
            secrets=(f"{v.tied_bound} of {n}",),
        ),
        link={
            "target": TARGET_LABELS["pair"],
            "steps": str(v.settings.steps),
            "learn_step": str(v.step),
            "learn_mode": MODE_LABELS["tied"],
            "learn_focus": T[0],
            "learn_cell": T[cell],
        },
    )


STEPS: tuple[StepDef, ...] = (
    StepDef("weightless", "recap", "Attention without weights", weightless, asks=True),
    StepDef("huddle", "recap", "Why it cannot learn", huddle, asks=True),
    StepDef("projections", "three_matrices", "Three projections: Q, K and V", projections, asks=True),
    StepDef("asymmetry", "three_matrices", "The asymmetry two matrices buy", asymmetry, asks=True),
    StepDef("context", "three_matrices", "One context vector", context),
    StepDef("training", "learning", "Training turns the dials", training),
    StepDef("tied_limit", "learning", "What tied weights cannot learn", tied_limit, asks=True),
)
