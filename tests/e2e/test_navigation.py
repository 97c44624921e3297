"""Page switches in a real browser: a page's URL holds its own controls only, nothing leaks from
one page to another, and Back and Forward restore the exact view that was left.

AppTest cannot check this: its ``switch_page`` carries every query value across, which a browser
does not, and it has no history.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.e2e.browser import Console, exceptions, open_settled, settle

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

TIED = "Tied W_q = W_k"


def via_sidebar(page, title: str) -> None:
    """Click the sidebar link to ``title`` and wait for that page to finish its run. A click that
    lands while a rerun redraws the sidebar can be swallowed, so it is retried."""
    left = page_path(page)
    link = page.locator("[data-testid='stSidebarNav'] a", has_text=title).first
    for _ in range(3):
        link.click()
        try:
            page.wait_for_function(f"() => location.pathname !== {left!r}", timeout=20_000)
            break
        except PlaywrightTimeout:
            settle(page)
    settle(page)


def page_path(page) -> str:
    return urlsplit(page.url).path


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def history(page, step: str) -> None:
    """Back or Forward, then wait for the page the browser now shows to finish its run."""
    before = page.url
    page.go_back() if step == "back" else page.go_forward()
    page.wait_for_function(f"() => location.href !== {before!r}", timeout=60_000)
    settle(page)


def metric(page, label: str) -> str:
    box = page.locator("[data-testid='stMetric']", has_text=label).first
    return box.locator("[data-testid='stMetricValue']").inner_text()


def slider_value(page, label: str) -> str:
    box = page.locator("[data-testid='stSlider']", has_text=label).first
    return box.locator("[data-testid='stSliderThumbValue']").first.inner_text()


def caption_text(page) -> str:
    return " ".join(
        page.locator("[data-testid='stMain'] [data-testid='stCaptionContainer']").all_inner_texts()
    )


def test_a_seed_from_one_page_never_reaches_another(server, tab):
    """The issue's path: an old Scaling link with ?seed=5, then Dropout and Multi-head through the
    sidebar. Both open at their own defaults, and their URLs carry no seed."""
    page = tab
    console = Console().attach(page)
    open_settled(page, f"{server.url}/divide-by-sqrt-dk?seed=5")
    assert query(page) == {"dk_seed": ["5"]}, "the old link's seed was not carried over to dk_seed"
    assert slider_value(page, "Seed") == "5"

    via_sidebar(page, "Dropout")
    assert query(page) == {}
    seed_box = page.locator("[data-testid='stNumberInput']", has_text="Seed").locator("input")
    assert seed_box.input_value() == "123"

    via_sidebar(page, "Multi-head")
    assert page_path(page) == "/multi-head" and query(page) == {}
    assert "torch.manual_seed(123)" in caption_text(page)
    assert exceptions(page) == [] and console.errors == []


def test_back_and_forward_walk_every_view_in_order(server, tab):
    """Three matrices opened from a link (tied weights), then Multi-head through the sidebar with one
    more head than its default, then Masking: each page opens at its own defaults (no value leaks
    from the page before), and Back twice and Forward twice show each page again as it was left,
    query string included. A page visit is one history entry (control changes replace it, as
    Streamlit does for a reader's own changes), so each step is one page."""
    page = tab
    open_settled(page, f"{server.url}/three-matrices?mode=Tied+W_q+%3D+W_k")
    assert metric(page, "Score error") == "0.0000"
    via_sidebar(page, "Multi-head")
    assert page_path(page) == "/multi-head" and query(page) == {}
    assert metric(page, "Output, wrapper") == "[2, 6, 4]"
    thumb = page.locator("[data-testid='stSlider']", has_text="Number of heads").locator(
        "input[type='range']"
    )
    thumb.focus()
    thumb.press("ArrowRight")
    page.wait_for_function("() => location.search.includes('preset=Custom')")  # the page's follow-up
    settle(page)
    assert metric(page, "Output, wrapper") == "[2, 6, 6]"
    via_sidebar(page, "Masking the future")
    assert page_path(page) == "/masking" and query(page) == {}

    views = [
        ("/three-matrices", {"mode": [TIED]}),
        ("/multi-head", {"heads": ["3"], "preset": ["Custom"]}),
        ("/masking", {}),
    ]
    history(page, "back")
    assert (page_path(page), query(page)) == views[1]
    assert metric(page, "Output, wrapper") == "[2, 6, 6]"
    history(page, "back")
    assert (page_path(page), query(page)) == views[0]
    assert metric(page, "Score error") == "0.0000"

    history(page, "forward")
    assert (page_path(page), query(page)) == views[1]
    assert metric(page, "Output, wrapper") == "[2, 6, 6]"
    history(page, "forward")
    assert (page_path(page), query(page)) == views[2]


def test_the_overview_answers_at_its_own_path(server, tab):
    page = tab
    for path in ("/overview", "/"):
        open_settled(page, f"{server.url}{path}")
        assert page.locator("[role='dialog']").count() == 0, (
            f"{path}: {page.locator('[role=dialog]').all_inner_texts()}"
        )
        assert page.locator("h1").first.inner_text() == "Attention, with weights"
        assert page_path(page) == "/overview"
