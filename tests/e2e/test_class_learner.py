"""A learner in a class is one learner however many tabs they open: the tour's storage element
keeps a random learner id in the browser and the class counts it once (two tabs of one browser
join as one; another browser is another learner). On the session's server and browser."""

from __future__ import annotations

import os
import time
from pathlib import Path

import sqlalchemy as sa

from topics.read_along.progress import STORAGE_KEY
from ui.class_store import LEARNER, Store


def open_tour(context, url: str, code: str) -> str:
    """The learner id a tab of ``context`` keeps for the class. The tab stays open: it joins the
    class on the run after the browser's answer, which a closed tab never has (under CI's load the
    tabs were closed first and the class counted 0)."""
    page = context.new_page()
    page.goto(f"{url}/read-along?class={code}")
    page.get_by_text(f"You are in class {code}").wait_for(timeout=60_000)
    key = f"{STORAGE_KEY}/learner"
    page.wait_for_function(f"() => localStorage.getItem({key!r}) !== null", timeout=30_000)
    return str(page.evaluate(f"() => localStorage.getItem({key!r})"))


def joined(store: Store, code: str, expected: int) -> int:
    """The class's learners joined, once it is ``expected`` or after 20 s (a tab joins on its run
    after the browser's answer, which may end after the id is stored)."""
    deadline = time.monotonic() + 20
    while (n := store.roll(code).joined) != expected and time.monotonic() < deadline:
        time.sleep(0.2)
    return n


def test_two_tabs_of_one_browser_join_a_class_as_one_learner(server, browser, context):
    engine = sa.create_engine(f"sqlite:///{Path(os.environ['CLASSROOM_DATA_DIR']) / 'classroom.db'}")
    try:
        store = Store(engine)
        code, _key = store.create()
        first = open_tour(context, server.url, code)
        second = open_tour(context, server.url, code)  # a reload, or a tab on another replica
        assert LEARNER.fullmatch(first) and second == first
        assert joined(store, code, 1) == 1
        other = browser.new_context()
        try:
            assert open_tour(other, server.url, code) != first
            assert joined(store, code, 2) == 2  # counted while its tab is open (see open_tour)
        finally:
            other.close()
        store.end(code)
    finally:
        engine.dispose()
