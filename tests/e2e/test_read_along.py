"""The read-along tour in Chromium, walked as a reader walks it: on a desktop with the keyboard
(N for Next), on a phone with the Next button. Every step draws clean, shows its title, reveals its
computed answer, keeps ``?step=`` in the address bar, and, on a phone, shows its figure within the
first screen of the step once it is drawn."""

from __future__ import annotations

import pytest

from tests.e2e.browser import Console, charts_drawn, exceptions, open_settled, settle_on, settled_now
from tests.e2e.conftest import SHOTS
from tests.e2e.test_phone import PHONE
from topics.read_along.steps import STEPS

pytest.importorskip("playwright.sync_api")

TITLES = [d.title for d in STEPS]


def _step_in_url(page) -> str | None:
    from urllib.parse import parse_qs, urlparse

    values = parse_qs(urlparse(page.evaluate("location.href")).query).get("step")
    return values[0] if values else None


def _visit(page, number: int, shots: str | None, reveal_answer: bool = True) -> None:
    """Check the step on screen, reveal its answer if it asks one (AppTest reveals every answer
    too: the desktop walk leaves them), and screenshot it."""
    assert exceptions(page) == [], number
    heads = page.locator("[data-testid='stMain'] h1").all_inner_texts()
    assert TITLES[number - 1] in " ".join(heads), (number, heads)
    reveal = page.get_by_role("button", name="Show the answer")
    if reveal_answer and reveal.count():
        reveal.first.click()
        page.get_by_text("The answer:").first.wait_for(timeout=60_000)
        settled_now(page)
    total, drawn = charts_drawn(page)
    assert drawn == total, (number, total, drawn)
    assert exceptions(page) == [], number
    if shots is not None:
        page.screenshot(path=str(SHOTS / f"read-along-{number:02d}-{shots}.png"))


def test_a_desktop_reader_walks_every_step_with_the_keyboard(server, context):
    page = context.new_page()
    console = Console().attach(page)
    open_settled(page, f"{server.url}/read-along?step=1")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for number in range(1, len(STEPS) + 1):
        assert _step_in_url(page) in (str(number), None if number == 1 else str(number)), number
        _visit(page, number, "1400" if number in (1, 2, len(STEPS)) else None, reveal_answer=number <= 2)
        if number < len(STEPS):
            page.keyboard.press("n")
            settle_on(page, TITLES[number])
    assert _step_in_url(page) == str(len(STEPS))
    assert console.errors == []


def test_a_phone_reader_taps_next_through_every_step(server, browser):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
    try:
        page = ctx.new_page()
        console = Console().attach(page)
        open_settled(page, f"{server.url}/read-along?step=1&text=the+cat+sat+on+the+mat")
        for number in range(1, len(STEPS) + 1):
            page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollTo(0, 0)")
            _visit(page, number, "390" if number in (1, 2, len(STEPS)) else None)
            top = page.evaluate(
                '() => { const c = document.querySelector(".aww-chart"); '
                "return c ? c.getBoundingClientRect().top : null; }"
            )
            assert top is None or top < PHONE["height"], (number, top)  # the figure in the first screen
            if number < len(STEPS):
                page.get_by_role("button", name="Next").tap()
                settle_on(page, TITLES[number])
                assert _step_in_url(page) == str(number + 1)
        assert "text=the+cat" in page.evaluate("location.href")  # the sentence stayed in the link
        assert console.errors == []
    finally:
        ctx.close()
