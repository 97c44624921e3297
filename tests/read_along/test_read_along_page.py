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
    assert at.slider(key="step").value == number
    assert [h.value for h in at.title] == [d.title]
    check = f"_read_along_check_{d.key}"
    if any(b.key == check for b in at.button):
        at.button(key=check).click().run()
        assert_clean(at)
        assert any("answer" in (b.value or "") for b in (*at.info, *at.success, *at.warning))


def test_back_and_next_move_the_step():
    at = open_page(PAGE, {"step": "2"})
    at.button(key="read_along_next").click().run()
    assert at.slider(key="step").value == 3  # the browser writes it into the link (tests/e2e)
    at.button(key="read_along_back").click().run()
    at.button(key="read_along_back").click().run()
    assert at.slider(key="step").value == 1
    assert at.button(key="read_along_back").disabled


@pytest.mark.parametrize(("raw", "expected"), [("999", len(STEPS)), ("0", 1), ("abc", 1), ("2.6", 3)])
def test_a_bad_step_falls_back_to_the_nearest_with_a_message(raw, expected):
    at = open_page(PAGE, {"step": raw})
    assert_clean(at)
    assert at.slider(key="step").value == expected
    assert any("step" in w.value for w in at.warning)


def test_the_readers_sentence_carries_into_the_steps():
    at = open_page(PAGE, {"step": "1", "text": "the cat sat on the mat"})
    assert_clean(at)
    assert "cat" in shown_text(at) or any("cat" in str(c.proto) for c in charts(at))


def test_a_wrong_guess_is_told_so_and_the_reader_can_predict_again():
    number, d = next((i, d) for i, d in enumerate(STEPS, 1) if d.key == "weightless")
    at = open_page(PAGE, {"step": str(number)})
    q = d.make(sentence.book()).question
    assert q is not None
    right = int(q.answer)
    at.radio(key=f"_read_along_guess_{d.key}").set_value(1 - right).run()
    assert at.button(key=f"_read_along_check_{d.key}").label == "Check my answer"
    at.button(key=f"_read_along_check_{d.key}").click().run()
    assert_clean(at)
    assert next(w.value for w in at.warning).startswith("**Not quite: you said")
    assert not any(r.key == f"_read_along_guess_{d.key}" for r in at.radio)  # folded to the verdict
    at.button(key=f"_read_along_again_{d.key}").click().run()
    assert at.radio(key=f"_read_along_guess_{d.key}").value is None and not at.warning
    at.radio(key=f"_read_along_guess_{d.key}").set_value(right).run()
    at.button(key=f"_read_along_check_{d.key}").click().run()
    assert next(b.value for b in at.success).startswith("**Right:")


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
