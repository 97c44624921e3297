"""The foundations' steps (``topics/read_along/steps/foundations.py``): every answer is the topic
view's value, at the book's sentence and where the answer flips; every number the prose states is
one of the view's, formatted as the step formats it; every claim's condition holds on the view's
raw arrays; and the links name the Learning page's options as its URL holds them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from core import sentence
from core.sentence import Sentence
from tests.prose import unexplained
from tests.strategies import sentences
from topics.learning import readouts as learning_readouts
from topics.learning import view as learning
from topics.read_along.drawings import draw
from topics.read_along.step import Step
from topics.read_along.steps import foundations as f
from topics.recap import view as recap
from topics.three_matrices import view as three
from ui import format as fmt
from ui import weights as ui_weights
from ui.figures import cell_text

BOOK = sentence.book()
SAME = sentence.build("the the")  # one word twice: one embedding, every symmetry holds
ONE = sentence.build("a0")
HIDDEN = sentence.build("cat the the")  # the followed pair is one word: its weights tie, A's do not
SPREAD = sentence.build("one two three", 3, "a900_b900_c900")  # long embeddings: peaked weights
MIDDLE = sentence.build("one two three", 3, "a150_b150_c150")
PAIR_CASES = (BOOK, sentence.build("the cat sat on the mat"), SAME, ONE, sentence.build("the cat the"))

# Numbers a step writes that are not the view's: section numbers, the shapes' symbols, its settings,
# and the tour's step numbers it points to (8: which width; 10: the last step on section 3.4's weights).
CONSTANTS = ("3.3", "3.4", "1", "0", "2", "3", "25%", "75%", str(f.TRAIN_STEPS), "0.02", "8", "10")


def texts(step: Step) -> str:
    q = step.question
    parts = [step.text, step.figure.highlight]
    if q is not None:
        parts += [q.prompt, q.answer_text, q.explanation, *q.options]
    return " ".join(parts)


def formatted(*values: object) -> list[str]:
    """Every way a step writes a number: 4 decimals, scientific, percent, integer, vector."""
    out: list[str] = []
    for v in values:
        for x in np.ravel(np.asarray(v, dtype=np.float64)):
            out += [fmt.num(x), fmt.sci(x), fmt.percent(x), f"{x:g}"]
            if float(x).is_integer():
                out.append(str(int(x)))
    return out


def recap_view(s: Sentence) -> recap.View:
    q, k = f._pair(s.labels)
    return recap.build(recap.Settings(s.labels, s.embeddings, s.labels[q], s.labels[k]))


def three_view(s: Sentence, focus: int | None = None, cell: int | None = None) -> three.View:
    return three.build(three.Settings(s.labels, s.embeddings, s.is_book, focus=focus, cell=cell))


def learning_view(s: Sentence, target: learning.Target, mode="three", focus=None, cell=None) -> learning.View:
    st = learning.Settings(
        s.labels,
        s.embeddings,
        target=target,
        mode=mode,
        steps=f.TRAIN_STEPS,
        step=f.TRAIN_STEPS,
        focus=focus,
        cell=cell,
    )
    return learning.build(st, limits=lambda *_: (None, None))


# --- answers: the view's value, at the book's sentence and where they flip --------------------------


@pytest.mark.parametrize(("s", "symmetric"), [(BOOK, False), (SAME, True), (ONE, True), (HIDDEN, False)])
def test_weightless_answers_from_the_recaps_weights(s, symmetric):
    w = recap_view(s).collapse.weights
    gap = float(np.abs(w - w.T).max())
    q = f.weightless(s).question
    assert q is not None
    assert (gap <= f.SYMMETRY_TOLERANCE) is symmetric
    assert q.answer == (0 if symmetric else 1)
    assert q.answer_text.startswith("yes" if symmetric else "no")
    assert f._gap(gap) in q.answer_text


def test_weightless_names_a_pair_whose_weights_differ_when_a_differs():
    step = f.weightless(HIDDEN)
    v = step.figure.data
    w = v.collapse.weights
    assert (v.query, v.key) != f._pair(HIDDEN.labels)  # the followed pair ties; the widest gap is shown
    assert fmt.num(w[v.query, v.key]) != fmt.num(w[v.key, v.query])
    assert step.link == {"query": HIDDEN.labels[v.query], "key": HIDDEN.labels[v.key]}


def test_weightless_at_the_book_is_the_posts_pair():
    step = f.weightless(BOOK)
    v = recap_view(BOOK)
    assert step.link == {"query": "journey", "key": "starts"}
    assert fmt.num(v.affinity) in step.text  # 1.4754, the post's raw affinity
    assert step.question is not None and fmt.num(v.weight) in step.question.explanation  # 0.2333


@pytest.mark.parametrize(("s", "option"), [(BOOK, 2), (MIDDLE, 1), (SPREAD, 0)])
def test_huddle_answers_from_the_recaps_spread(s, option):
    c = recap_view(s).collapse
    q = f.huddle(s).question
    assert q is not None and c.spread_share is not None
    assert q.answer == option == f.spread_option(c.spread_share)
    assert q.answer_text.startswith(fmt.percent(c.spread_share))


def test_huddle_at_the_book_is_the_posts_collapse():
    q = f.huddle(BOOK).question
    assert q is not None and "7.3%" in q.answer_text  # the post's recap: 7.3%
    assert "that of “starts”" in q.explanation  # every output is nearest starts


@pytest.mark.parametrize("s", [BOOK, sentence.build("the cat sat on the mat", 16)])
@pytest.mark.parametrize("hide", [True, False])
def test_huddle_draws_inputs_and_outputs_flat_in_each_pair_of_their_first_three_dimensions(s, hide):
    """Flat, not a 3-D scene (a browser without a graphics card took 0.5 s to build one on every
    visit): each of dims 1-2, 1-3 and 2-3 shows every input, and once answered every output and
    the followed token's pair joined; each set is named once in the legend."""
    from dataclasses import replace

    step = f.huddle(s)
    v = step.figure.data
    fig = draw(replace(step.figure, hide=hide)).figure
    assert fig is not None
    spec = fig.to_plotly_json()
    assert all(t["type"] == "scatter" for t in spec["data"])
    names = [t["name"] for t in spec["data"] if t.get("showlegend")]
    assert len(names) == len(set(names)) == (1 if hide else 3), names
    panels = {(t["xaxis"], t["yaxis"]) for t in spec["data"]}
    assert panels == {("x", "y"), ("x2", "y2"), ("x3", "y3")}
    titles = {
        ax: spec["layout"][ax].get("title", {}).get("text") for ax in spec["layout"] if ax[1:5] == "axis"
    }
    dims = {"x": 0, "y": 1, "x2": 0, "y2": 2, "x3": 1, "y3": 2}  # the axes' dimensions, by their titles
    assert {titles["xaxis2"], titles["xaxis3"], titles["yaxis"], titles["yaxis2"]} == {
        "dim 1",
        "dim 2",
        "dim 3",
    }
    for t in spec["data"]:
        pts = {"inputs X": v.inputs, "outputs Z = AX": v.collapse.context}.get(t["name"])
        if pts is None:  # the followed pair: its input and its output
            assert not hide
            pts = np.array([v.inputs[v.query], v.collapse.context[v.query]])
        else:
            assert not (hide and t["name"] == "outputs Z = AX")
        assert t["x"] == pts[:, dims[t["xaxis"]]].tolist() and t["y"] == pts[:, dims[t["yaxis"]]].tolist()


@pytest.mark.parametrize("s", [SAME, ONE])
def test_huddle_asks_nothing_when_the_inputs_do_not_spread(s):
    assert recap_view(s).collapse.spread_share is None
    assert f.huddle(s).question is None


@pytest.mark.parametrize("s", [BOOK, SAME, ONE, sentence.build("a b c"), sentence.build("a b c d", 4)])
def test_projections_answers_qs_shape_from_the_view(s):
    j, _ = f._pair(s.labels)
    v = three_view(s, j)
    q = f.projections(s).question
    assert q is not None
    shape = v.trace.queries.shape
    assert q.answer_text == f"{shape[0]} × {shape[1]}" == q.options[int(q.answer)]
    assert len(set(q.options)) == len(q.options)  # n = d_in, or n = d_out, collapses two options into one
    assert shape == (s.n, v.weight_set.w_query.shape[1])


@pytest.mark.parametrize(("s", "equal"), [(BOOK, False), (SAME, True), (sentence.build("the cat"), False)])
def test_asymmetry_answers_from_three_matrices_scores(s, equal):
    j, k = f._pair(s.labels)
    v = three_view(s, j, k)
    om = v.trace.scores
    q = f.asymmetry(s).question
    assert q is not None and j != k
    assert bool(om[j, k] == om[k, j]) is equal
    assert q.answer == (0 if equal else 1)
    assert fmt.num(om[j, k]) in q.explanation
    assert f._gap(v.row("tied").score_error) in q.explanation


def test_asymmetry_at_the_book_reads_the_pair_both_ways():
    v = three_view(BOOK, 1, 2)
    q = f.asymmetry(BOOK).question
    assert q is not None and q.answer == 1
    assert fmt.num(v.trace.scores[1, 2]) in q.explanation and fmt.num(v.trace.scores[2, 1]) in q.explanation
    assert v.row("tied").score_error == 0 and "is 0:" in q.explanation


def test_asymmetry_asks_nothing_of_one_token():
    assert f.asymmetry(ONE).question is None


def test_context_at_the_book_is_section_3_4s_z2():
    step = f.context(BOOK)
    assert fmt.vec(three_view(BOOK).book.context_vec_2) in step.text  # [0.3061, 0.8210]
    assert "z⁽²⁾" in step.text


@pytest.mark.parametrize("s", PAIR_CASES)
def test_tied_limit_answers_the_learning_views_proof(s):
    v = learning_view(s, "pair", "tied", 0, min(1, s.n - 1))
    q = f.tied_limit(s).question
    assert q is not None and v.tied_bound is not None
    assert q.answer == v.tied_bound
    assert q.answer_text == f"{v.tied_bound} of {s.n}"
    assert q.judge(v.tied_bound).right and not q.judge(v.tied_bound + 1).right
    if s is BOOK:
        assert q.answer == s.n - 1  # Your ↔ journey is a cycle: one row lost
    if s is SAME:
        assert q.answer == s.n  # one word: no cycle, nothing lost
    repeated = len({w for w in s.words}) < s.n  # training.rows_right counts a repeat's weight as the word's
    assert ("either copy counts" in f.tied_limit(s).text) == repeated  # the rule, said before it counts


def test_links_name_the_learning_pages_options_as_its_url_holds_them():
    for key, label in f.TARGET_LABELS.items():
        assert learning_readouts.TARGET_LABELS[key] == label
    assert f.MODE_LABELS == ui_weights.MODE_LABELS
    link = f.tied_limit(BOOK).link
    assert link["target"] == learning_readouts.TARGET_LABELS["pair"]
    assert link["learn_mode"] == ui_weights.MODE_LABELS["tied"]
    assert link["steps"] == link["learn_step"] == str(f.TRAIN_STEPS)


# --- every number from the view, every claim's condition on the raw arrays -------------------------


def entries(*arrays: object) -> list[str]:
    """A matrix's entries as the steps write them: 4 decimals."""
    return [fmt.num(x) for a in arrays for x in np.ravel(np.asarray(a, dtype=np.float64))]


def check_recap_steps(s: Sentence) -> None:
    wl, hd = f.weightless(s), f.huddle(s)
    v: recap.View = hd.figure.data  # the Recap's view, as the step built it
    c, w = v.collapse, v.collapse.weights
    pool = entries(c.scores, w)
    pool += formatted(c.spread_in or 0, c.spread_out or 0, c.spread_share or 0, np.abs(w - w.T).max())
    pool += [str(v.n), str(v.dot_products), str(v.width), fmt.num(v.uniform), *f.SPREAD_OPTIONS[:2]]
    for step in (wl, hd):
        assert not unexplained(texts(step), pool, CONSTANTS), (step.text, s.labels)
    assert np.array_equal(c.scores, c.scores.T)  # Ω = XXᵀ reads the same both ways, as the text says
    q = hd.question
    if q is not None:
        assert c.spread_share is not None
        assert q.answer == f.spread_option(c.spread_share)
        if "near the centre" in q.explanation:
            assert v.huddled and v.centred
        if "nearest input embedding is that of" in q.explanation:
            assert len(set(c.nearest)) == 1
        if "keep more of their spread" in q.explanation:
            assert not v.huddled
    assert wl.question is not None
    if "every token has the same embedding" in wl.question.explanation:
        assert np.all(v.inputs == v.inputs[0])
    if wl.question.answer == 1:  # the pair it names really reads differently
        d = wl.figure.data
        assert fmt.num(d.collapse.weights[d.query, d.key]) != fmt.num(d.collapse.weights[d.key, d.query])


def check_three_steps(s: Sentence) -> None:
    j, k = f._pair(s.labels)
    pr, asym, ctx = f.projections(s), f.asymmetry(s), f.context(s)
    v: three.View = asym.figure.data  # Three matrices' view, as the step built it
    vj: three.View = ctx.figure.data
    tr = v.trace
    pool = entries(
        tr.queries[j], tr.scores[[j, k]][:, [j, k]], vj.focus.weights if vj.focus is not None else 0
    )
    pool += entries(vj.trace.context[j])
    if vj.focus is not None:  # what W_v buys: the same weights over the embeddings themselves
        pool += entries(vj.focus.weights @ np.asarray(s.embeddings, dtype=np.float64))
    pool += [str(x) for x in s.embeddings.shape]
    pool += formatted(tr.divisor, v.score_error, v.row("tied").score_error, tr.scores[j, k] - tr.scores[k, j])
    pool += [str(x) for x in (s.n, v.weight_set.seed, *v.weight_set.w_query.shape, *tr.keys.shape)]
    for step in (pr, asym, ctx):
        assert not unexplained(texts(step), pool, CONSTANTS), (step.text, s.labels)
    if asym.question is not None:
        equal = asym.question.answer == 0
        assert bool(abs(tr.scores[j, k] - tr.scores[k, j]) <= 1e-12 * max(1.0, abs(tr.scores[j, k]))) is equal
        if "have the same embedding" in asym.question.explanation:
            assert np.array_equal(s.embeddings[j], s.embeddings[k])
        if "Ω is symmetric in every mode" in asym.question.explanation:
            assert all(r.score_error == 0 for r in v.modes)
    assert vj.focus is not None and vj.cell_key is not None
    assert np.allclose(vj.focus.context, vj.focus.weights @ vj.trace.values)  # z = Σⱼ aⱼ vⱼ
    assert fmt.vec(vj.focus.context) in ctx.text
    if "alike" in ctx.text:
        assert np.all(vj.focus.weights == vj.focus.weights[0])
    else:
        assert vj.focus.weights[vj.cell_key] == vj.focus.weights.max()
    drawn = draw(ctx.figure).table  # every number as the page prints it, 4 decimals
    assert list(drawn.iloc[-1, 1:]) == [cell_text(x) for x in np.tile(vj.focus.context, 2)]


def check_learning_steps(s: Sentence) -> None:
    step = f.training(s)
    v: learning.View = step.figure.data  # Learning to attend's view, as the step built it
    runs = {r.mode: r for r in v.table}
    pool = formatted(*[(r.first_loss, r.last_loss) for r in v.table], v.step)
    assert not unexplained(texts(step), pool, CONSTANTS), (step.text, s.labels)
    none = v.runs["none"].losses
    assert np.all(none == none[0])  # "with no matrices it stays": no dial, the loss never moves
    if "every loss is 0" in step.text:
        assert all(r.first_loss == 0 == r.last_loss for r in runs.values())
    if "every mode's cross-entropy stays" in step.text:
        x = s.embeddings
        assert np.all(x == x[0]) and all(fmt.num(r.last_loss) == fmt.num(r.first_loss) for r in runs.values())
    step = f.tied_limit(s)
    t: learning.View = step.figure.data
    pool = formatted(t.tied_bound, t.step, s.n, *[r.rows for r in t.table])
    pool += [t.prose.cycle]
    assert not unexplained(texts(step), pool, CONSTANTS), (step.text, s.labels)
    assert step.question is not None and step.question.answer == t.tied_bound
    if "Cauchy–Schwarz" in step.question.explanation:
        assert t.cycles and t.tied_bound is not None and t.tied_bound < s.n


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences())
def test_recap_and_three_matrices_steps_state_the_views_numbers(s):
    check_recap_steps(s)
    check_three_steps(s)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences(max_tokens=12))
def test_learning_steps_state_the_views_numbers(s):
    check_learning_steps(s)


@pytest.mark.parametrize("s", [BOOK, SAME, ONE, HIDDEN, SPREAD, MIDDLE])
def test_every_claim_at_the_flipping_sentences(s):
    check_recap_steps(s)
    check_three_steps(s)


@pytest.mark.parametrize("s", [BOOK, SAME, ONE])
def test_every_learning_claim_at_the_flipping_sentences(s):
    check_learning_steps(s)
