"""Every page on a phone (390 × 844, touch) and on a desktop (1,400 px): a phone arrives with the
sidebar collapsed and a figure in its first screen, the sidebar still opens onto every control, and
no Plotly toolbar sits over a chart. Whole-page phone screenshots land in
``artifacts/screenshots/<page>-390.png`` beside the desktop ones ``test_browser`` takes.
"""

from __future__ import annotations

import pytest

from tests.e2e.browser import Console, exceptions, open_settled, screenshot_whole, settle
from tests.e2e.conftest import SHOTS
from tests.e2e.test_browser import page_url
from topics import PAGES

PHONE = {"width": 390, "height": 844}
IDS = [p.url_path for p in PAGES]
# Pages whose first chart comes after what the page is about, by design, and so starts just below the
# first screen on a phone (within a third of a screen more): Multi-head opens on the output shapes
# (the exercise's answer) and its one-wide-heads warning, What comes next on its three-point lead.
READOUTS_FIRST = {"multi-head", "what-comes-next"}


@pytest.fixture
def phone(browser):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
    yield ctx
    ctx.close()


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
            const c = document.querySelector("[data-testid='stPlotlyChart']");
            return c ? c.getBoundingClientRect().top : null;
        }"""
    )


# The tour's phone walk (test_read_along) visits every one of its steps at 390 px.
PHONE_PAGES = [p for p in PAGES if p.url_path != "read-along"]


@pytest.mark.parametrize("info", PHONE_PAGES, ids=[p.url_path for p in PHONE_PAGES])
def test_a_phone_opens_on_the_figures_with_the_sidebar_collapsed_and_no_toolbar(server, phone, info):
    """One visit a page: the sidebar is out of the way, the first chart in the first screen, and a
    tap on that chart brings up no Plotly toolbar to cover it."""
    page = phone.new_page()
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
    top = first_chart_top(page)
    screens = 4 / 3 if info.url_path in READOUTS_FIRST else 1
    assert top is not None and top < screens * PHONE["height"], f"the first chart starts {top} px down"
    page.locator("[data-testid='stPlotlyChart']").first.tap()
    settle(page)
    assert page.locator(".modebar-btn").count() == 0
    assert console.errors == []


def test_the_collapsed_sidebar_still_opens_onto_every_control(server, phone):
    info = next(p for p in PAGES if p.url_path == "three-matrices")
    page = phone.new_page()
    open_settled(page, page_url(server, info))
    assert not sidebar_open(page)
    page.locator("[data-testid='stExpandSidebarButton']").click()
    page.wait_for_function(
        "() => document.querySelector(\"[data-testid='stSidebar']\").getBoundingClientRect().left >= 0"
    )
    assert sidebar_open(page)
    sidebar = page.locator("[data-testid='stSidebarUserContent']")
    for label in ("Mode", "Weights", "Focus on a query"):
        assert sidebar.get_by_text(label, exact=True).first.is_visible(), label
