"""The read-along tour in Chromium, walked as a reader walks it: on a desktop with the keyboard
(N for Next), on a phone with the Next button. Every step draws clean, shows its title, reveals its
computed answer, keeps ``?step=`` in the address bar; on a phone it shows its figure within the
first screen before the guess, and the verdict within it after the reveal. Each walk measures every
step's charts as the step opens (``tests.e2e.whole.chart_faults``: issue 42's sweep of the tour, at
1,400 px in light and at 390 px in dark). The browser's Back returns to the previous step, and the
dark theme's Next button is readable."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.browser import Console, charts_drawn, exceptions, open_settled, settle_on, settled_now
from tests.e2e.conftest import PHONE, SHOTS
from tests.e2e.whole import chart_faults
from topics.read_along.steps import STEPS

pytest.importorskip("playwright.sync_api")

TITLES = [d.title for d in STEPS]


def _step_in_url(page) -> str | None:
    from urllib.parse import parse_qs, urlparse

    values = parse_qs(urlparse(page.evaluate("location.href")).query).get("step")
    return values[0] if values else None


# Streamlit's header covers the screen's top: a verdict under it had its first line hidden.
HEADER_BOTTOM = """() => {
    const head = document.querySelector("[data-testid='stHeader']");
    return head ? head.getBoundingClientRect().bottom : 0;
}"""
FIGURE = "[data-testid='stMain'] .aww-chart, [data-testid='stTable']"
# What a phone reader sees once the verdict's scroller (``topics.read_along.predict._IN_VIEW``) is
# done: the verdict below the header and over 100 px above the screen's foot, and the figure (where
# the step has one) starting on the screen. The scroller moves at the next frame and again 600 ms
# later, so the walk waits for this state, not for a half-way one: a verdict already in the top half
# before the phone's move to the top left step 18's figure at 905 px on an 844 px screen (my run).
AFTER_REVEAL = f"""(h) => {{
    const v = document.querySelector("[data-testid='stMain'] [data-testid='stAlert']");
    if (!v) return false;
    const t = v.getBoundingClientRect().top;
    const figure = document.querySelector("{FIGURE}");
    const f = figure ? figure.getBoundingClientRect().top : 0;
    return ({HEADER_BOTTOM})() <= t && t < h - 100 && 0 <= f && f < h;
}}"""


QUESTION_BOTTOM = """() => {
    const p = Array.from(document.querySelectorAll("[data-testid='stMain'] p"))
        .find(e => e.innerText.startsWith("Predict first"));
    return p ? p.getBoundingClientRect().bottom : null;
}"""


def _top(page, selector: str) -> float | None:
    return page.evaluate(
        "(s) => { const c = document.querySelector(s); return c ? c.getBoundingClientRect().top : null; }",
        selector,
    )


def _visit(
    page, number: int, shots: str | None, faults: list[str], reveal_answer: bool = True, screen: int = 0
) -> None:
    """Check the step on screen, add what ``tests.e2e.whole.chart_faults`` finds in its charts to
    ``faults`` (before any reveal: every step drawn whole as it opens), reveal its answer if it asks
    one (AppTest reveals every answer too: the desktop walk leaves them), and screenshot it. With
    ``screen`` (a phone's height), the question is in the first screen before the guess, the figure
    right below it (in the first screen where nothing is asked), and the verdict in the first
    screen after the reveal."""
    assert exceptions(page) == [], number
    heads = page.locator("[data-testid='stMain'] h1").all_inner_texts()
    assert TITLES[number - 1] in " ".join(heads), (number, heads)
    faults += [f"step {number}: {fault}" for fault in chart_faults(page)]
    reveal = page.get_by_role("button", name="Show the answer")
    if screen:
        if STEPS[number - 1].asks:  # the question's column can be drawn a moment after the title
            with contextlib.suppress(PlaywrightTimeout):  # the assertion below says what stood there
                page.wait_for_function(f"() => ({QUESTION_BOTTOM})() !== null", timeout=10_000, polling=100)
        asked = page.evaluate(QUESTION_BOTTOM)  # the question, on the first screen (issue 43)
        assert (asked is not None) == STEPS[number - 1].asks, (number, asked)
        assert asked is None or asked < screen, (number, asked)
        chart = _top(page, FIGURE)
        first = screen if asked is None else screen * 1.5  # below a question: within half a screen more
        assert chart is None or chart < first, (number, chart)  # the figure before the guess
    if reveal_answer and reveal.count():
        reveal.first.click()
        page.get_by_text("The answer:").first.wait_for(timeout=60_000)
        settled_now(page)
        if screen:  # the verdict's scroller brings it into the first screen (within 10 s, on a busy box)
            with contextlib.suppress(PlaywrightTimeout):  # the assertion below says where it stood
                page.wait_for_function(AFTER_REVEAL, arg=screen, timeout=10_000, polling=100)
            verdict = _top(page, "[data-testid='stMain'] [data-testid='stAlert']")
            header = page.evaluate(HEADER_BOTTOM)
            assert verdict is not None and header <= verdict < screen - 100, (number, verdict, header)
            chart = _top(page, FIGURE)
            assert chart is None or 0 <= chart < screen, (number, chart)  # the figure starts below it
    total, drawn = charts_drawn(page)
    assert drawn == total, (number, total, drawn)
    assert exceptions(page) == [], number
    if shots is not None:
        page.screenshot(path=str(SHOTS / f"read-along-{number:02d}-{shots}.png"))


def test_a_desktop_reader_walks_every_step_with_the_keyboard(server, tab):
    page = tab
    console = Console().attach(page)
    open_settled(page, f"{server.url}/read-along?step=1")
    SHOTS.mkdir(parents=True, exist_ok=True)
    faults: list[str] = []
    for number in range(1, len(STEPS) + 1):
        assert _step_in_url(page) in (str(number), None if number == 1 else str(number)), number
        shots = "1400" if number in (1, 2, len(STEPS)) else None
        _visit(page, number, shots, faults, reveal_answer=number <= 2)
        if number < len(STEPS):
            page.keyboard.press("n")
            settle_on(page, TITLES[number])
    assert _step_in_url(page) == str(len(STEPS))
    assert console.errors == []
    assert not faults, "\n".join(faults)  # every step's charts drawn whole at 1,400 px in light


def test_a_phone_reader_taps_next_through_every_step(server, phone_tab):
    page = phone_tab
    console = Console().attach(page)
    open_settled(page, f"{server.url}/read-along?step=1&text=the+cat+sat+on+the+mat")
    faults: list[str] = []
    for number in range(1, len(STEPS) + 1):
        page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollTo(0, 0)")
        shots = "390" if number in (1, 2, len(STEPS)) else None
        _visit(page, number, shots, faults, screen=PHONE["height"])
        if number < len(STEPS):
            page.get_by_role("button", name="Next").tap()
            try:
                settle_on(page, TITLES[number])
            except PlaywrightTimeout:  # say where the walk stood
                heads = page.locator("[data-testid='stMain'] h1").all_inner_texts()
                shown = f"{page.url} shows {heads}, exceptions {exceptions(page)}"
                pytest.fail(f"Next from step {number}: {shown}")
            assert _step_in_url(page) == str(number + 1)
    assert "text=the+cat" in page.evaluate("location.href")  # the sentence stayed in the link
    assert console.errors == []
    assert not faults, "\n".join(faults)  # every step's charts drawn whole at 390 px in dark


TITLE_TOP = "() => document.querySelector(\"[data-testid='stMain'] h1\").getBoundingClientRect().top"


def test_next_and_back_from_a_scrolled_step_land_on_the_new_title(server, tab):
    """Next kept the old scroll position: the new step opened 123-265 px below its title."""
    page = tab
    open_settled(page, f"{server.url}/read-along?step=9")
    for button, number in (("Next", 10), ("Back", 9)):
        for attempt in range(3):  # a wheel turned while a late element still lays the page out can be lost
            page.mouse.move(700, 500)
            page.mouse.wheel(0, 5000)  # to the foot of the page, where Next and Back are
            try:
                page.wait_for_function(f"() => ({TITLE_TOP})() < -100", timeout=10_000, polling=100)
                break
            except PlaywrightTimeout:
                if attempt == 2:
                    raise
        page.locator(f".st-key-read_along_{button.lower()} button").first.click()
        settle_on(page, TITLES[number - 1])
        with contextlib.suppress(PlaywrightTimeout):  # the assertion below says where it stood
            page.wait_for_function(f"() => ({TITLE_TOP})() >= 0", timeout=10_000, polling=100)
        top = page.evaluate(TITLE_TOP)
        assert 0 <= top < 200, (number, top)


def test_the_browsers_back_returns_to_the_previous_step(server, tab):
    """Next, Next, then the browser's Back: each step is a history entry, the session kept."""
    page = tab
    open_settled(page, f"{server.url}/read-along?step=3")
    page.get_by_role("button", name="Show the answer").first.click()
    page.get_by_text("The answer:").first.wait_for(timeout=60_000)
    for number in (4, 5):
        page.get_by_role("button", name="Next").click()
        settle_on(page, TITLES[number - 1])
        assert _step_in_url(page) == str(number)
    page.go_back()
    settle_on(page, TITLES[3])
    assert _step_in_url(page) == "4"
    assert page.get_by_text("of 1 prediction right", exact=False).count() == 1  # the session kept
    page.go_forward()
    settle_on(page, TITLES[4])


def test_the_dark_themes_next_button_reads_at_4_5_to_1(server, browser):
    """White on the dark theme's primary colour, measured from the button's pixels."""
    from PIL import Image

    from ui.colors import contrast

    ctx = browser.new_context(viewport=PHONE, color_scheme="dark", device_scale_factor=2)
    try:
        page = ctx.new_page()
        open_settled(page, f"{server.url}/read-along?step=2")
        button = page.get_by_role("button", name="Next")
        hints = "Array.from(document.querySelectorAll('.st-key-read_along_next kbd'))"
        with contextlib.suppress(PlaywrightTimeout):  # the style sheet comes after the first paint
            page.wait_for_function(f"() => {hints}.every(k => getComputedStyle(k).opacity === '1')")
        for part in (button, button.locator("kbd")):  # its label, and its key hint "N" (2.70:1 at 60%)
            shot = np.asarray(Image.open(io.BytesIO(part.screenshot())).convert("RGB"), dtype=np.float64)
            pixels = shot.reshape(-1, 3) / 255
            colours, counts = np.unique(np.round(pixels, 3), axis=0, return_counts=True)
            fill = colours[np.argmax(counts)]  # the button's own colour: most of its pixels
            ratios = contrast(pixels, fill)
            assert float(ratios.max()) >= 4.5, float(ratios.max())  # its text's ink against its fill
    finally:
        ctx.close()
