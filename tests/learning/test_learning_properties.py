"""Learning to attend at random legal settings (issue 24): every sentence true, every number the view's.

Hypothesis draws the reader's sentence (repeated words included), the target, the token, the mode,
the optimiser and its rate, the width, the weight set, a short run (100 or 200 steps: the page's
smallest) and any step asked for, on or off the snapshot grid. The search is injected cheap (one
start, 40 steps: a lower bound either way); the linear program and the proofs are the page's own.
For each view the test checks that every number the prose and the readouts state is one the view
holds, and that every claim's condition holds in the view's raw arrays.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import weights
from core.attention import MODES
from tests.prose import unexplained
from tests.strategies import sentences
from topics.learning import reach, readouts, training, view
from topics.learning.reach import MAX_SEARCH_TOKENS, SEARCH, SEARCH_STARTS
from ui import format as fmt

CHEAP = training.TrainConfig(lr=0.05, steps=40, record_every=40)
# Structural numbers: "1/n", "√2"-free here; d_k's "1e6" divergence cut-off; the uniform tolerance.
CONSTANTS = ("0", "1", f"{training.MAX_LOSS:.0e}", str(training.UNIFORM_TOL))


def cheap_limits(kind, token, width, x):
    """The page's evidence with a one-start, 40-step search: a lower bound like the page's."""
    if len(x) > MAX_SEARCH_TOKENS:
        return None, None
    target = training.target_pattern(kind, len(x), token)
    return reach.search(x, target, width, starts=1, config=CHEAP), reach.linear_reach(x, target)


WEIGHTS = st.one_of(
    st.just(weights.section_3_4()),
    st.just(weights.section_3_5()),
    st.builds(weights.init_weights, st.integers(0, 2**31 - 1), st.sampled_from(("rand", "linear"))),
)


@st.composite
def legal(draw: st.DrawFn) -> view.Settings:
    s = draw(sentences())
    n = len(s.labels)
    steps = draw(st.sampled_from(view.STEPS[:2]))
    return view.Settings(
        s.labels,
        s.embeddings,
        target=draw(st.sampled_from(training.TARGETS)),
        token=draw(st.integers(0, n - 1)),
        mode=draw(st.sampled_from(MODES)),
        optimiser=draw(st.sampled_from(training.OPTIMISERS)),
        lr=draw(st.sampled_from(view.RATES)),
        steps=steps,
        step=draw(st.integers(0, steps)),
        width=draw(st.sampled_from(view.WIDTHS)),
        weights=draw(WEIGHTS),
        focus=draw(st.none() | st.integers(0, n - 1)),
    )


def stated(v: view.View) -> list[str]:
    """Every value of the view the page may state, formatted as the page formats it."""
    s, n = v.settings, v.n
    out = [str(n), str(s.steps), str(s.step), str(v.step), str(v.every), str(s.width), str(v.d_in)]
    out += [str(r.rows) for r in v.table] + [str(r.diverged_at) for r in v.table if r.diverged_at]
    out += [f"{e.this_run} {e.best} {e.most}" for e in v.evidence]
    out += [str(v.rows_right), str(v.ties_bound), str(v.tied_bound), str(len(v.cycles))]
    out += [f"{w} {rows} {kept}" for w, rows, _, kept in v.split_words]
    out += [readouts.loss_text(x) for r in v.table for x in (r.first_loss, r.last_loss)]
    out += [readouts.loss_text(v.loss), fmt.num(v.score_error), fmt.num(v.floor)]
    out += [f"{SEARCH.steps:,}", str(SEARCH.lr), str(SEARCH_STARTS), str(MAX_SEARCH_TOKENS)]
    if v.reach is not None:
        out.append(str(v.reach.rows))
    if v.found is not None:
        out += [str(f.start + 1) for f in v.found.values()]
    if v.nearest is not None:
        p, q, gap = v.nearest
        out += [fmt.vec(s.embeddings[p], 2), fmt.vec(s.embeddings[q], 2), fmt.num(gap, 2)]
    return out


def texts(v: view.View) -> list[str]:
    """Every sentence and readout cell the page shows for ``v``."""
    p = v.prose
    out = [p.lead, p.right, p.at_step, p.cycle, p.search, *p.verdict]
    out += [t for t in (p.floor, p.step, p.no_search, p.nearest) if t is not None]
    for table in (readouts.run_table(v), readouts.evidence_table(v)):
        out += [str(c) for c in (*table.columns, *table.to_numpy().ravel())]
    return [*out, readouts.loss_text(v.loss), f"{v.rows_right} of {v.n}", fmt.num(v.score_error)]


def first_row(v: view.View, a: np.ndarray, i: int) -> np.ndarray:
    return a[int(v.words[i])]  # a repeated word's rows are one row: its first


def check_claims(v: view.View) -> None:
    s, n, p = v.settings, v.n, v.prose
    run = v.runs[s.mode]
    x = np.asarray(s.embeddings)
    # The step named is the step the numbers belong to.
    asked = min(s.step, s.steps)
    assert p.at_step == f"at step {v.step}" and v.step <= asked
    assert v.loss == run.losses[v.step]
    if s.mode != "none":
        i = list(run.recorded).index(v.step)
        np.testing.assert_array_equal(v.attention, run.attention[i])
    assert (p.step is None) == (v.step == asked)
    if p.step is not None and "diverged" in p.step:
        assert run.diverged_at is not None and asked >= run.diverged_at == v.step + 1
    # Repeated words: one embedding, so identical rows; the ties' bound counts them.
    assert v.repeats == (len(np.unique(x, axis=0)) < n) and ("repeat" in p.right) == (v.repeats and v.single)
    for w, rows, wanted, kept in v.split_words:
        mine = np.flatnonzero(v.words == w)
        assert len(mine) == rows >= 2 and np.all(x[mine] == x[w]) and len(wanted) >= 2 and kept < rows
        asks = v.words[np.argmax(v.target[mine], axis=-1)]
        assert set(asks.tolist()) == set(wanted) and max(np.sum(asks == d) for d in wanted) == kept
    if v.single:
        assert v.ties_bound == n - sum(rows - kept for _, rows, _, kept in v.split_words)
        assert v.tied_bound is not None and v.tied_bound <= v.ties_bound
        assert f"at most **{v.tied_bound} of {n}**" in p.cycle or "form no cycle" in p.cycle
        if "form no cycle" in p.cycle:
            assert v.tied_bound == n
    else:
        assert v.ties_bound is None and v.tied_bound is None and "nothing to say" in p.cycle
    # Rows right: the largest weight sits on the target's word (or every weight near the uniform target's).
    for r in v.table:
        a = v.runs[r.mode].attention[-1]
        for i, ok in enumerate(r.right):
            row = first_row(v, a, i)
            if v.single:
                # an exact tie between two words goes to the first largest, as argmax reads it
                on_word = v.words[int(np.argmax(row))] == v.words[int(np.argmax(v.target[i]))]
                assert ok == on_word, (r.mode, i)
            else:
                assert ok == bool(np.max(np.abs(row - v.target[i])) < training.UNIFORM_TOL)
    # Evidence: this run ≤ best known ≤ proven most; the proofs count ties.
    for e in v.evidence:
        assert e.this_run <= e.best and (e.most is None or e.best <= e.most)
        if e.most is not None and v.ties_bound is not None:
            assert e.most <= v.ties_bound
    tied, three = v.evidence_of("tied"), v.evidence_of("three")
    text = " ".join(p.verdict)
    assert ("so exactly" in text) == (tied.most is not None and tied.best == tied.most)
    assert ("separates the modes" in text) == (tied.most is not None and three.best > tied.most)
    assert ("where Adam stalls" in text) == (tied.best > tied.this_run)
    assert (p.floor is not None) == (v.floor > 0) and (v.floor > 0) == (s.target == "uniform" and n > 1)
    assert (p.no_search is None) == (n <= MAX_SEARCH_TOKENS)
    if v.nearest is not None and "have the same embedding" in (p.nearest or ""):
        assert np.array_equal(x[v.nearest[0]], x[v.nearest[1]])


@settings(max_examples=50, deadline=None)
@given(legal())
def test_every_number_is_the_views_and_every_claim_holds(s: view.Settings) -> None:
    v = view.build(s, limits=cheap_limits)
    numbers = stated(v)
    for t in texts(v):
        assert not unexplained(t, numbers, CONSTANTS), (t, unexplained(t, numbers, CONSTANTS))
    check_claims(v)
