"""The read-along page in AppTest: every step opens from its link, a prediction reveals its
computed answer, Back and Next move the bound ``step``, a bad ``step`` falls back with a message,
and the reader's sentence carries into the steps."""

from __future__ import annotations

import pytest

from core import sentence
from tests.app.conftest import assert_clean, charts, open_page
from topics.read_along.steps import STEPS

PAGE = "topics/read_along/page.py"


def shown_text(at) -> str:
    return " ".join(m.value for m in at.markdown) + " ".join(h.value for h in at.title)


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1), ids=[d.key for d in STEPS])
def test_every_step_opens_from_its_link_and_reveals_its_answer(number):
    d = STEPS[number - 1]
    at = open_page(PAGE, {"step": str(number)})
    assert_clean(at)
    assert at.slider(key="_read_along_step").value == number
    assert [h.value for h in at.title] == [d.title]
    show = f"_read_along_show_{d.key}"
    if any(b.key == show for b in at.button):
        assert charts(at) or at.table  # the figure is there before the guess
        at.button(key=show).click().run()
        assert_clean(at)
        assert any("answer" in (b.value or "") for b in (*at.info, *at.success, *at.warning))


def test_back_and_next_move_the_step():
    """Back and Next write the step into the link (a history entry in the browser: tests/e2e)."""
    at = open_page(PAGE, {"step": "2"})
    at.button(key="read_along_next").click().run()
    assert at.slider(key="_read_along_step").value == 3 and at.query_params["step"] in ("3", ["3"])
    at.button(key="read_along_back").click().run()
    at.button(key="read_along_back").click().run()
    assert at.slider(key="_read_along_step").value == 1
    assert at.button(key="read_along_back").disabled


@pytest.mark.parametrize(("raw", "expected"), [("999", len(STEPS)), ("0", 1), ("abc", 1), ("2.6", 3)])
def test_a_bad_step_falls_back_to_the_nearest_with_a_message(raw, expected):
    at = open_page(PAGE, {"step": raw})
    assert_clean(at)
    assert at.slider(key="_read_along_step").value == expected
    assert any("step" in w.value for w in at.warning)


def test_the_readers_sentence_carries_into_the_steps():
    at = open_page(PAGE, {"step": "1", "text": "the cat sat on the mat"})
    assert_clean(at)
    assert "cat" in shown_text(at) or any("cat" in str(c.proto) for c in charts(at))


def test_a_wrong_guess_gets_a_hint_and_only_a_changed_guess_is_checked_again():
    """A real second try (issue 43): after a wrong guess the check waits for a changed guess, a
    second wrong guess gets the hint again, never the answer; only a right guess or "Show the
    answer" reveals it, and the tally counts the first try."""
    number, d = next((i, d) for i, d in enumerate(STEPS, 1) if d.key == "huddle")
    at = open_page(PAGE, {"step": str(number)})
    q = d.make(sentence.book()).question
    assert q is not None and len(q.options) == 3
    right = int(q.answer)
    wrong = [i for i in range(3) if i != right]
    guess, check = f"_read_along_guess_{d.key}", f"_read_along_check_{d.key}"
    assert at.button(key=check).disabled  # nothing to check yet
    at.radio(key=guess).set_value(wrong[0]).run()
    at.button(key=check).click().run()
    assert_clean(at)
    hint = next(w.value for w in at.warning)
    assert hint.startswith("**Not quite: you said") and q.hint in hint  # a hint, not the answer
    assert q.answer_text not in " ".join(m.value for m in at.markdown)
    assert at.button(key=check).disabled  # the same guess again is not another try
    assert at.button(key=check).label == "Check again"
    at.radio(key=guess).set_value(wrong[1]).run()
    assert not at.button(key=check).disabled
    at.button(key=check).click().run()
    hint = next(w.value for w in at.warning)
    assert q.options[wrong[1]] in hint and not at.success and not at.info  # still no answer
    assert not any(q.answer_text in w.value for w in at.warning)
    at.radio(key=guess).set_value(right).run()
    at.button(key=check).click().run()
    assert next(b.value for b in at.success).startswith("**Right:")
    assert any("0 of 1 prediction right" in c.value for c in at.caption)  # the first try counts
    at.button(key=f"_read_along_again_{d.key}").click().run()
    assert at.radio(key=guess).value is not None or not at.warning


def test_start_over_forgets_every_answer():
    at = open_page(PAGE, {"step": "1"})
    at.button(key="_read_along_show_weightless").click().run()
    assert any("0 of 1 prediction right" in c.value for c in at.caption)
    at.button(key="_read_along_start_over").click().run()
    assert_clean(at)
    assert not any("prediction right" in c.value for c in at.caption)
    assert at.button(key="_read_along_show_weightless")  # the question is asked afresh


def test_after_every_prediction_the_last_step_shows_the_tally_and_the_summary():
    from topics.read_along import view

    asked = view.asking()
    missed = asked[::4]
    at = open_page(PAGE, {"step": str(len(STEPS))})
    at.session_state["_read_along_answers"] = {
        k: {"guess": None, "right": k not in missed, "sentence": {}} for k in asked
    }  # every one answered
    at.run()
    assert_clean(at)
    right = len(asked) - len(missed)
    assert any(f"{right} of {len(asked)} predictions right" in c.value for c in at.caption)
    assert any("six ideas" in h.value and f"{right} of {len(asked)}" in h.value for h in at.subheader)
    links = [(link.proto.label, link.proto.query_string) for link in at.get("page_link")]
    steps = [q for _, q in links if q.startswith("step=")]
    assert len(steps) == 6 + len(missed)  # each idea, then each miss, links back to its step
    number = {d.key: i for i, d in enumerate(STEPS, 1)}
    assert steps[6:] == [f"step={number[k]}" for k in missed]


@pytest.mark.parametrize("page", [PAGE, "topics/overview/page.py"])
def test_no_link_repeats_the_sentences_keys(page):
    """A link that wrote ``text`` itself put it in the address twice (Streamlit carries the shared
    sentence keys across pages on its own), and the page it opened stopped with an exception."""
    from urllib.parse import parse_qs

    from ui.pages import SENTENCE_KEYS

    for number in range(1, len(STEPS) + 1) if page == PAGE else [None]:
        query = {"text": "the cat sat", "dim": "4"} | ({"step": str(number)} if number else {})
        at = open_page(page, query)
        assert_clean(at)
        for link in at.get("page_link"):
            assert not set(parse_qs(link.proto.query_string)) & set(SENTENCE_KEYS), link.proto.label


def test_the_books_code_is_on_the_step_covered_until_the_reveal():
    """Step 4 at a 9-token sentence: one code block, the live shapes in it, the asked scores "?"
    until the reveal, then the step's own values (its view's, via the step's data)."""
    text = "the cat sat on the mat because it was"
    at = open_page(PAGE, {"step": "4", "text": text})
    assert_clean(at)
    code = next(d for d in STEPS if d.key == "asymmetry").make(sentence.build(text)).code
    assert code is not None
    assert [c.value for c in at.code] == [code.text(hide=True)]
    assert "# [9, 9]" in at.code[0].value and "= ?" in at.code[0].value
    at.button(key="_read_along_show_asymmetry").click().run()
    assert [c.value for c in at.code] == [code.text()]
    assert "?" not in at.code[0].value
