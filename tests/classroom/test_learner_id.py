"""A learner is one learner of their class however many sessions they open: the id their browser
keeps (sent by the tour's storage element, ``topics.read_along.progress``) is the one written, so
a reload or a tab that lands on another replica is not counted twice in "joined". Against SQLite
and PostgreSQL, in AppTest sessions: each stands for a tab whose browser answered with its id."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from topics.read_along import progress
from ui import classroom
from ui.class_store import Store


def tab() -> None:  # a tour tab's class hook, after its browser has (or has not) answered
    from topics.read_along import progress
    from ui import classroom

    progress._received(frozenset())  # what the element's callback does with the browser's answer
    classroom.tour_notice()
    classroom.record_first_guess("weightless", 1.0, False, 3)


@pytest.fixture
def store(db_url: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLASSROOM_DB_URL", db_url)
    classroom._stores.clear()
    classroom._failed.clear()
    engine = sa.create_engine(db_url)
    yield Store(engine)
    engine.dispose()


def open_tab(code: str, saved: dict | None) -> AppTest:
    at = AppTest.from_function(tab)
    at.query_params["class"] = code
    if saved is not None:
        at.session_state[progress.ELEMENT_KEY] = {"saved": saved}
    at.run()
    at.run()  # the run after the browser's answer: the learner joins
    assert not at.exception
    return at


def test_two_tabs_of_one_browser_are_one_learner_and_one_first_guess(store: Store) -> None:
    code, _ = store.create()
    browser = {"ok": True, "answers": {}, "learner": "Zm9yLXRoZS1icm93c2Vy"}
    open_tab(code, browser)
    open_tab(code, browser)  # a reload, or the next tab on another replica
    assert store.roll(code).joined == 1
    assert [g.learner for g in store.guesses(code)] == [browser["learner"]]
    open_tab(code, {**browser, "learner": "YW5vdGhlci1icm93c2Vy"})
    assert store.roll(code).joined == 2


def test_a_browser_without_storage_or_with_a_bad_id_writes_as_its_session(store: Store) -> None:
    code, _ = store.create()
    open_tab(code, {"ok": False})
    open_tab(code, {"ok": True, "answers": {}, "learner": "<b>not an id</b>"})
    open_tab(code, None)  # a browser that never answered
    ids = {g.learner for g in store.guesses(code)}
    assert len(ids) == 3 and "<b>not an id</b>" not in ids
    assert store.roll(code).joined == 3
