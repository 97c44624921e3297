"""The tour's progress lives in the reader's browser (issue 43): a reload, a new tab and a server's
new session find every answered prediction and the tally again; "Start over" clears them after a
confirmation; a browser that refuses storage keeps the session's tally and says so in one line."""

from __future__ import annotations

import pytest

from tests.e2e.browser import exceptions, open_settled, settled_now
from topics.read_along.progress import STORAGE_KEY
from topics.read_along.steps import STEPS

pytest.importorskip("playwright.sync_api")

NUMBER = {d.key: i for i, d in enumerate(STEPS, 1)}
TALLY = "[data-testid='stMain'] [data-testid='stCaptionContainer']"


def _tally(page) -> str:
    return " ".join(t for t in page.locator(TALLY).all_inner_texts() if "prediction" in t)


def _wait_tally(page, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => Array.from(document.querySelectorAll(s)).some(e => e.innerText.includes(t))",
        arg=[TALLY, text],
        timeout=30_000,
        polling=100,
    )


def test_a_reload_and_a_new_tab_keep_the_answers_and_start_over_clears_them(server, context, tab):
    page = tab
    open_settled(page, f"{server.url}/read-along?step={NUMBER['weightless']}")
    page.get_by_role("button", name="Show the answer").click()
    _wait_tally(page, "0 of 1 prediction right")
    page.goto(f"{server.url}/read-along?step={NUMBER['huddle']}")
    settled_now(page)
    page.locator("[data-testid='stMain'] [role='radiogroup'] label").nth(0).click()
    page.get_by_role("button", name="Check my answer").click()
    _wait_tally(page, "of 2 predictions right")
    page.wait_for_function(  # the storage element writes on the run after the tally's (a loaded CI box lags)
        "(k) => Object.keys(JSON.parse(localStorage.getItem(k) || '{}').answers || {}).length >= 2",
        arg=STORAGE_KEY,
        timeout=30_000,
        polling=100,
    )
    stored = page.evaluate("(k) => JSON.parse(localStorage.getItem(k)).answers", STORAGE_KEY)
    assert set(stored) == {"weightless", "huddle"}
    assert stored["weightless"]["guess"] is None and stored["weightless"]["right"] is False
    assert stored["huddle"]["guess"] == 0 and stored["huddle"]["sentence"]["dim"] == 3
    tally = _tally(page)

    page.reload()  # F5: the same tally, and the answered step opens revealed as it was left
    _wait_tally(page, tally.split(" (")[0])
    page.get_by_role("button", name="Predict again").wait_for(timeout=30_000)
    assert exceptions(page) == []

    other = context.new_page()  # a new tab (a new session, as after a server restart), at the end
    open_settled(other, f"{server.url}/read-along?step={len(STEPS)}")
    _wait_tally(other, tally.split(" (")[0])
    heading = other.locator("[data-testid='stMain'] h2, [data-testid='stMain'] h3").all_inner_texts()
    right = tally.split(" of ")[0]
    assert any(f"{right} of 20 predictions right" in h for h in heading), heading
    assert other.get_by_text("(not yet answered)").count() == 18  # the two answered are not "not yet"

    other.get_by_role("button", name="Start over").click()
    other.get_by_role("button", name="Yes, start over").click()
    other.wait_for_function(
        "(k) => localStorage.getItem(k) === null", arg=STORAGE_KEY, timeout=30_000, polling=100
    )
    settled_now(other)
    assert _tally(other) == ""
    other.reload()
    settled_now(other)
    other.get_by_text("(not yet answered)").first.wait_for(timeout=30_000)
    assert _tally(other) == "" and other.get_by_text("(not yet answered)").count() == 20


def test_a_browser_that_refuses_storage_gets_the_session_tally_and_a_note(server, browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{ get() { throw new DOMException('refused', 'SecurityError'); } });"
    )
    try:
        page = ctx.new_page()
        open_settled(page, f"{server.url}/read-along?step={NUMBER['weightless']}")
        sidebar = page.locator("[data-testid='stSidebar']")
        sidebar.get_by_text("keeps no storage").wait_for(timeout=30_000)
        page.get_by_role("button", name="Show the answer").click()
        _wait_tally(page, "0 of 1 prediction right")  # today's behaviour: the session's tally
        assert exceptions(page) == []
    finally:
        ctx.close()
