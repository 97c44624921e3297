"""The Class page and the tour's hook, in AppTest sessions, against SQLite and PostgreSQL: the
issue's test of done. Three learners answer step 1, two alike and one not; the instructor's link
shows 3 answered and the 2/1 split; a wrong key shows none of it."""

from __future__ import annotations

import pytest

from core.sentence import book
from tests.app.conftest import open_page
from topics.classroom import view
from ui import classroom

CLASS, TOUR = "topics/classroom/page.py", "topics/read_along/page.py"
STEP = "weightless"  # step 1 of the tour


@pytest.fixture(autouse=True)
def database(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CLASSROOM_DB_URL", db_url)
    classroom._stores.clear()  # each test's own, empty database
    classroom._failed.clear()
    return db_url


def start_class() -> tuple[str, str]:
    at = open_page(CLASS)
    at.text_input[0].input("")
    next(b for b in at.button if b.label == "Start a class").click().run()
    assert not at.exception
    code, key = at.query_params["class"], at.query_params["key"]
    return code if isinstance(code, str) else code[0], key if isinstance(key, str) else key[0]


def answer(code: str, option: int) -> None:
    at = open_page(TOUR, {"class": code})
    assert any(f"You are in class {code}" in c.value for c in at.caption)
    at.radio(key=f"_read_along_guess_{STEP}").set_value(option).run()
    at.button(key=f"_read_along_check_{STEP}").click().run()
    assert not at.exception
    if option != int(question().answer):  # a second try after the hint is not a first guess
        at.radio(key=f"_read_along_guess_{STEP}").set_value(int(question().answer)).run()
        at.button(key=f"_read_along_check_{STEP}").click().run()


def question():
    q = view.question(STEP, book())
    assert q is not None and q.is_choice
    return q


def shown(at) -> str:
    parts = [
        m.value for kind in ("markdown", "caption", "info", "warning", "subheader") for m in getattr(at, kind)
    ]
    parts += [t.value.to_string() for t in at.table]
    return "\n".join(str(p) for p in parts)


def test_three_learners_two_alike_the_instructor_sees_3_answered_and_the_2_1_split() -> None:
    code, key = start_class()
    right, wrong = int(question().answer), (int(question().answer) + 1) % len(question().options)
    for option in (right, right, wrong):
        answer(code, option)
    at = open_page(CLASS, {"class": code, "key": key})
    assert not at.exception and not at.warning
    steps = at.table[0].value
    assert steps.loc[f"1: {view.asking()[0][1].title}", "Answered"] == 3
    assert steps.loc[f"1: {view.asking()[0][1].title}", "Right at the first try"] == "67%"
    text = shown(at)
    assert "3 learners joined" in text
    opts = question().options
    assert f"3 first guesses: 2 said {opts[right]}; 1 said {opts[wrong]}" in text or (
        f"1 said {opts[wrong]}; 2 said {opts[right]}" in text
    )
    assert f"The most common wrong guess: {opts[wrong]} (1 of 3)" in text

    stranger = open_page(CLASS, {"class": code, "key": key[:-2] + "xx"})
    assert "not this class's key" in shown(stranger)
    assert not stranger.table and "3 first guesses" not in shown(stranger) and "joined" not in shown(stranger)

    projector = open_page(CLASS, {"class": code, "show": STEP})
    assert "3 first guesses" in shown(projector) and "(the answer)" not in shown(projector)


def test_the_step_in_view_is_in_the_instructors_link_and_the_link_reopens_it() -> None:
    code, key = start_class()
    answer(code, int(question().answer))
    at = open_page(CLASS, {"class": code, "key": key})
    box = at.selectbox(key="class_step")  # the browser writes its label into the link (ui.controls)
    assert box.proto.query_param_key == "class_step" and box.value == STEP
    other = view.asking()[1][1].key
    box.set_value(other).run()
    assert not at.exception
    assert "No first guesses at this step yet." in shown(at)

    again = open_page(CLASS, {"class": code, "key": key, "class_step": view.step_title(other)})
    assert not again.exception and not again.warning
    assert again.selectbox(key="class_step").value == other
    home = open_page(CLASS, {"class": code, "key": key, "class_step": "Step 99: no such step"})
    assert not home.exception and home.selectbox(key="class_step").value == STEP  # the default, no traceback
    assert "1 first guess" in shown(home)


def test_end_class_deletes_it_and_the_tour_then_says_so() -> None:
    code, key = start_class()
    answer(code, 0)
    at = open_page(CLASS, {"class": code, "key": key})
    next(b for b in at.button if b.label == "End class").click().run()
    assert classroom.store() is not None and classroom.store().guesses(code) == []  # type: ignore[union-attr]
    tour = open_page(TOUR, {"class": code})
    assert any(f"There is no class {code}" in w.value for w in tour.warning)


@pytest.mark.parametrize(
    "query",
    [
        {"class": "<script>alert(1)</script>"},
        {"class": "' OR 1=1 --"},
        {"class": "A" * 5000},
        {"class": "ACDEFH", "key": "k" * 5000},
        {"class": "ACDEFH", "show": "'; DROP TABLE classes; --"},
    ],
)
def test_hostile_links_get_a_message_never_a_traceback(query: dict[str, str]) -> None:
    for page in (CLASS, TOUR):
        at = open_page(page, query)
        assert not at.exception and not at.error
        assert at.warning, (page, query)


def test_an_unreachable_database_leaves_the_tour_solo_and_the_class_page_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLASSROOM_DB_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    tour = open_page(TOUR, {"class": "ACDEFH"})
    assert not tour.exception and any("cannot be reached" in c.value for c in tour.caption)
    page = open_page(CLASS)
    assert not page.exception and any("cannot be reached" in w.value for w in page.warning)
