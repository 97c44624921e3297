"""The tour's closing steps (``steps/cost_next.py``): each answer is the topic view's value, at the
book's sentence and where it could flip (one token, one word repeated), and every number the steps
state is one the views hold, formatted as the steps format it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from core import sentence
from core.sentence import Sentence
from tests.prose import unexplained
from tests.strategies import sentences
from topics.cost import view as cost
from topics.next import view as nxt
from topics.read_along.drawings import draw
from topics.read_along.steps import cost_next as cn
from ui import format as fmt

STEP = {d.key: d for d in cn.STEPS}
ONE = sentence.build("journey")
SAME = sentence.build("step step step step")  # one word: every prefix holds the same mix
REPEATS = sentence.build("the cat saw the dog")
EDGE = [sentence.book(), ONE, SAME, REPEATS]
IDS = ["book", "one token", "one word repeated", "repeated word"]
# Structural numbers: section numbers, GPT-2, GPT-4.1, chapter 4, position 1.
CONSTANTS = ("1", "2", "3", "3.4", "3.5", "4", "4.1")


def next_at(s: Sentence, focus: int | None = None) -> nxt.View:
    """The What-comes-next page as the steps set it: the sentence reversed, GPT-2 small, its tokens
    cached at 2 bytes a number."""
    perm = tuple(range(s.n - 1, -1, -1))
    return nxt.build(nxt.Settings(s.labels, s.embeddings, perm=perm, focus=focus, kv_tokens=s.n, kv_bytes=2))


def test_the_steps_are_in_the_chapters_order_and_four_ask():
    assert [d.topic for d in cn.STEPS] == ["cost", "cost", "next", "next", "next"]
    asked = [d.key for d in cn.STEPS if d.make(sentence.book()).question is not None]
    assert asked == ["n_squared", "frontier", "shuffle", "kv_cache"]
    assert cn.STEPS[-1].make(sentence.book()).question is None  # the close asks nothing


@pytest.mark.parametrize("s", EDGE, ids=IDS)
def test_doubling_the_context_is_the_cost_views_ratio(s):
    step = STEP["n_squared"].make(s)
    base, doubled = (cost.build(cost.Settings(n=n)) for n in (1_024, 2_048))
    q = step.question
    assert q is not None and q.answer == doubled.row.nbytes / base.row.nbytes == 4
    assert q.judge(4).right and not q.judge(2).right and not q.judge(8).right
    here = cost.build(cost.Settings(n=s.n)).row
    assert f"make{'s' if s.n == 1 else ''} {fmt.integer(here.scores)} score" in step.text
    assert (
        step.link == {"n": "2048"} and 2_048 in cost.build(cost.Settings()).ladder
    )  # the page's slider has it


def test_the_frontier_cards_are_the_cost_views():
    step = STEP["frontier"].make(sentence.book())
    r = cost.build(cost.Settings()).row
    q = step.question
    assert q is not None and q.options[int(q.answer)] == "10 to 99 cards"
    assert int(q.answer) == cn.card_band(r.cards_to_buy) and r.cards_to_buy == 26
    assert q.answer_text == f"{fmt.num(float(r.cards), 2)} cards, so {r.cards_to_buy} to buy"
    assert [cn.card_band(c) for c in (1, 2, 9, 10, 99, 100)] == [0, 1, 1, 2, 2, 3]


@pytest.mark.parametrize("s", EDGE, ids=IDS)
def test_the_shuffles_answer_and_explanation_follow_the_next_view(s):
    step = STEP["shuffle"].make(s)
    sh = next_at(s, focus=0).shuffle
    f = sh.focus
    assert f is not None and f.row == s.n - 1
    q = step.question
    assert q is not None and q.answer == 0  # without the mask the output only moves
    assert np.max(np.abs(f.free - f.free_shuffled)) <= sh.limit
    assert fmt.vec(f.free) in q.answer_text
    masked = float(np.max(np.abs(f.masked_original - f.masked_shuffled)))
    if s is ONE:
        assert "no other order" in q.explanation and masked == 0
    elif s is SAME:
        assert "same word" in q.explanation and sh.same_mix[f.row] and masked <= sh.limit
    else:
        assert "it changes" in q.explanation and masked > sh.limit
        assert fmt.vec(f.masked_original) in q.explanation and fmt.vec(f.masked_shuffled) in q.explanation
    assert step.link == {"perm": " ".join(str(i + 1) for i in sh.perm), "next_focus": s.labels[0]}


@pytest.mark.parametrize("s", EDGE, ids=IDS)
def test_the_kv_cache_per_token_is_the_next_views(s):
    step = STEP["kv_cache"].make(s)
    v = next_at(s)
    kv = v.kv
    q = step.question
    assert q is not None and q.answer == kv.per_token == 36_864  # GPT-2 small, 2 bytes a number
    assert kv.per_token == kv.factors[0] * v.block.n_layers * v.block.emb_dim * kv.factors[4]
    assert q.judge(36_864).right and q.judge(36_000).right  # "about 36 thousand"
    assert not q.judge(18_432).right and not q.judge(73_728).right  # forgot the value; counted it twice
    assert f"{fmt.integer(kv.bytes)} bytes" in q.explanation and kv.tokens == s.n
    assert ("past GPT-2's context" in q.explanation) == (kv.exceeds > kv.context_length)


def stated(s: Sentence) -> list[str]:
    """Every value the views hold that the steps may state, formatted as the steps format it."""
    out: list[str] = []
    for n in (s.n, 1_024, 2_048):
        r = cost.build(cost.Settings(n=n)).row
        out += [fmt.integer(x) for x in (r.n, r.scores, r.nbytes)]
    c = cost.build(cost.Settings())
    r = c.row
    out += [fmt.integer(x) for x in (r.n, r.scores, r.nbytes, r.cards_to_buy, c.cfg.bytes_per_score)]
    out += [fmt.num(float(r.cards), 2), fmt.num(r.nbytes / cn.TIB, 3), c.gpu.name]
    out += [
        f"{cost.build(cost.Settings(n=2_048)).row.nbytes / cost.build(cost.Settings(n=1_024)).row.nbytes:g}"
    ]
    v = next_at(s, focus=0)
    f = v.shuffle.focus
    assert f is not None
    out += [fmt.vec(x) for x in (f.free, f.free_shuffled, f.masked_original, f.masked_shuffled)]
    out += [str(f.after), str(s.n)]
    kv, b, p = v.kv, v.block, v.params
    out += [fmt.integer(x) for x in (*kv.factors, kv.per_token, kv.bytes, kv.full, kv.exceeds)]
    out += [fmt.integer(x) for x in (b.context_length, p.total, p.attention, p.feed_forward)]
    out += [fmt.percent(v.ff_share), v.name]
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences())
def test_every_number_the_steps_state_is_a_views(s):
    allowed = stated(s)
    for d in cn.STEPS:
        step = d.make(s)
        said = [step.text, step.figure.highlight]
        if step.question is not None:
            said += [step.question.prompt, step.question.answer_text, step.question.explanation]
        for text in said:
            assert not unexplained(text, allowed, CONSTANTS), (d.key, text)
        draw(step.figure)  # draws at every sentence
    # the claims' conditions, on the view's raw arrays
    sh = next_at(s, focus=0).shuffle
    f = sh.focus
    assert f is not None
    explanation = STEP["shuffle"].make(s).question.explanation  # type: ignore[union-attr]
    masked = float(np.max(np.abs(f.masked_original - f.masked_shuffled)))
    if "it changes" in explanation:
        assert masked > sh.limit
    if "same word" in explanation:
        assert len({tuple(e) for e in s.embeddings}) == 1


def test_make_and_draw_are_fast_at_32_tokens_16_wide():
    """Not a timed assert (bench/ measures): the steps only build small views at a long sentence."""
    s = sentence.build(" ".join(f"w{i}" for i in range(32)), 16)
    for d in cn.STEPS:
        drawn = draw(d.make(s).figure)
        assert drawn.table.shape[0] > 0
