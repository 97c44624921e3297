"""Every page on a phone (390 × 844, touch) and on a desktop (1,400 px): a phone arrives with the
sidebar collapsed and a figure in its first screen, the sidebar still opens onto every control, and
no Plotly toolbar sits over a chart. Whole-page phone screenshots land in
``artifacts/screenshots/<page>-390.png`` beside the desktop ones ``test_browser`` takes.
"""

from __future__ import annotations

import pytest

from tests.e2e.a11y import audit
from tests.e2e.browser import Console, exceptions, open_settled, screenshot_whole, settle, settle_on
from tests.e2e.conftest import PHONE, SHOTS
from tests.e2e.test_browser import page_url
from topics import PAGES

IDS = [p.url_path for p in PAGES]
# Pages whose first chart comes after what the page is about, by design, and so starts just below the
# first screen on a phone (within a third of a screen more): Multi-head opens on the output shapes
# (the exercise's answer) and its one-wide-heads warning, What comes next on its three-point lead.
READOUTS_FIRST = {"multi-head", "what-comes-next"}
# The Class page opens on "Start a class": its one chart, the class's guesses, comes with a class.
NO_CHART_YET = {"class"}


def sidebar_open(page) -> bool:
    """Whether the sidebar covers part of the screen (Streamlit slides it out to the left when closed)."""
    return page.evaluate(
        """() => {
            const s = document.querySelector("[data-testid='stSidebar']");
            if (!s) return false;
            if (s.getAttribute("aria-expanded") === "false") return false;
            const r = s.getBoundingClientRect();
            return r.right > 1 && r.width > 1;
        }"""
    )


def first_chart_top(page) -> float | None:
    """The top edge of the first chart on the page, in pixels from the top of the screen."""
    return page.evaluate(
        """() => {
            const c = document.querySelector(".aww-chart");
            return c ? c.getBoundingClientRect().top : null;
        }"""
    )


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_a_phone_opens_on_the_figures_with_the_sidebar_collapsed_and_passes_the_audit(
    server, phone_tab, info
):
    """One visit a page, in the dark theme: the sidebar is out of the way, the first chart in the
    first screen, a tap on that chart brings up no Plotly toolbar to cover it, and the page passes
    the accessibility audit (tests/e2e/a11y.py) with every expander open."""
    page = phone_tab
    console = Console().attach(page)
    open_settled(page, page_url(server, info))
    assert exceptions(page) == []
    assert not sidebar_open(page), "the sidebar covers the page on arrival"
    SHOTS.mkdir(parents=True, exist_ok=True)
    screenshot_whole(page, str(SHOTS / f"{info.url_path}-390.png"))
    # every page opens on a chart, the Overview's preview included
    reveal = page.get_by_role("button", name="Show the answer")  # the tour asks before it draws
    if reveal.count():
        reveal.first.tap()
        settle(page)
    if info.url_path in NO_CHART_YET:
        assert page.locator(".aww-chart").count() == 0  # else it belongs with the other pages
        assert {k: v for k, v in audit(page, info.title).items() if v} == {}
        return
    top = first_chart_top(page)
    screens = 4 / 3 if info.url_path in READOUTS_FIRST else 1
    assert top is not None and top < screens * PHONE["height"], f"the first chart starts {top} px down"
    page.locator(".aww-chart").first.tap()
    settle(page)
    assert page.locator(".modebar-btn:visible").count() == 0
    assert {k: v for k, v in audit(page, info.title).items() if v} == {}
    assert console.errors == []


def wait_closed(page) -> None:
    """Wait until the sidebar has slid out (a run-finished collapse, then Streamlit's animation)."""
    page.wait_for_function(
        """() => {
            const s = document.querySelector("[data-testid='stSidebar']");
            return s === null || s.getBoundingClientRect().right <= 1;
        }""",
        timeout=30_000,
    )


def open_sidebar(page) -> None:
    page.locator("[data-testid='stExpandSidebarButton']").click()
    page.wait_for_function(
        "() => document.querySelector(\"[data-testid='stSidebar']\").getBoundingClientRect().left >= 0"
    )
    assert sidebar_open(page)


def test_on_a_phone_the_sidebar_closes_after_a_page_link_and_after_a_committed_change(server, phone_tab):
    """ui.phone: a click on a sidebar page link, the Enter that commits the sentence, and a slider
    moved in the sidebar each leave the sidebar closed once the page has drawn; typing does not.
    Before all that, the collapsed sidebar opens onto every control of the page."""
    start = next(p for p in PAGES if p.url_path == "three-matrices")
    target = next(p for p in PAGES if p.url_path == "masking")
    page = phone_tab
    console = Console().attach(page)
    open_settled(page, page_url(server, start))
    assert not sidebar_open(page)
    open_sidebar(page)  # the collapsed sidebar still opens onto every control
    sidebar = page.locator("[data-testid='stSidebarUserContent']")
    for label in ("Mode", "Weights", "Focus on a query"):
        assert sidebar.get_by_text(label, exact=True).first.is_visible(), label
    page.locator(f"[data-testid='stSidebarNav'] a[href$='/{target.url_path}']").click()
    settle_on(page, target.title)
    wait_closed(page)
    assert not sidebar_open(page), "the sidebar still covers the page after a page link"

    open_sidebar(page)
    box = page.locator("[data-testid='stSidebar'] input[type='text']").first
    box.click()
    box.press("End")
    box.type(" today", delay=20)
    settle(page)
    assert sidebar_open(page), "the sidebar closed while the reader was typing"
    box.press("Enter")
    wait_closed(page)
    settle(page)
    assert "today" in page.url
    assert not sidebar_open(page), "the sidebar still covers the page after the sentence changed"

    open_sidebar(page)
    slider = page.locator("[data-testid='stSidebar'] [data-testid='stSlider']").first  # d_in
    before = slider.locator("input[type='range']").input_value()
    track = slider.locator("[data-orientation='horizontal']").last.bounding_box()
    assert track is not None
    page.mouse.click(track["x"] + 0.8 * track["width"], track["y"] + track["height"] / 2)
    wait_closed(page)
    settle(page)
    assert not sidebar_open(page), "the sidebar still covers the page after a slider moved"
    assert slider.locator("input[type='range']").input_value() != before
    assert exceptions(page) == []
    assert console.errors == []


NARROWEST = {"width": 320, "height": 700}


@pytest.mark.parametrize("url_path", ["divide-by-sqrt-dk", "multi-head"])
def test_no_page_scrolls_sideways_at_320_px_with_its_equations_and_open_checks(server, phone_tab, url_path):
    """Display equations and the open checks tables scroll inside themselves (ui.style): neither the
    document nor the main block is wider than a 320 px screen. Divide by √d_k has the widest
    display equations, Multi-head the widest checks table. The phone's kept tab, narrowed to 320 px
    for the test."""
    page = phone_tab
    page.set_viewport_size(NARROWEST)
    try:
        open_settled(page, page_url(server, next(p for p in PAGES if p.url_path == url_path)))
        summaries = page.locator("[data-testid='stMain'] [data-testid='stExpander'] summary")
        for i in range(summaries.count()):
            summaries.nth(i).click()
        settle(page)
        assert page.locator("[data-testid='stMain'] table").count() > 0  # a checks table is open
        widths = page.evaluate(
            """() => [document.documentElement.scrollWidth,
                      document.querySelector("[data-testid='stMain']").scrollWidth,
                      document.querySelector("[data-testid='stMainBlockContainer']").scrollWidth]"""
        )
        assert widths[0] <= NARROWEST["width"], widths
        assert widths[1] <= NARROWEST["width"], widths
        assert widths[2] <= NARROWEST["width"], widths
    finally:
        page.set_viewport_size(PHONE)
