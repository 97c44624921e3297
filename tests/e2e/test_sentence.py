"""The reader's sentence in a real browser: typed on one page it is there on the next, Back and
Forward keep it, an edited embedding travels in a link to a fresh browser, and a 5,000-word link
is cut to the sentence the address bar then holds."""

from __future__ import annotations

from urllib.parse import parse_qs, quote_plus, urlsplit

import pytest

from tests.e2e.browser import Console, exceptions, open_settled, settle
from tests.e2e.test_navigation import history, page_path, query, via_sidebar

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

CAT = "the cat sat on the mat"
CELL = 36  # a data editor row, header included, in px (Streamlit's default row height + border)


def sentence_box(page):
    return page.get_by_role("textbox", name="Your sentence", exact=True)


def type_sentence(page, text: str) -> None:
    box = sentence_box(page)
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(f"() => location.search.includes({('text=' + quote_plus(text))!r})")
    settle(page)


def tick_labels(page) -> set[str]:
    """Every axis label the page's Plotly charts draw (SVG text)."""
    texts = page.locator(".aww-chart :is(.xtick, .ytick) text")
    return set(texts.evaluate_all("els => els.map(e => e.textContent)"))


def metric_values(page) -> list[str]:
    return page.locator("[data-testid='stMain'] [data-testid='stMetricValue']").all_inner_texts()


def alerts(page) -> str:
    return " ".join(page.locator("[data-testid='stMain'] [data-testid='stAlert']").all_inner_texts())


def open_editor(page):
    """Open the sidebar's embedding editor; returns its grid."""
    page.locator("[data-testid='stSidebar'] [data-testid='stExpander'] summary").first.click()
    grid = page.locator("[data-testid='stSidebar'] [data-testid='stDataFrame']").first
    grid.wait_for()
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(800)  # the expander's opening animation
    return grid


def cell_point(grid, row: int, dim: int) -> tuple[float, float]:
    """The centre of the editor's cell for token ``row`` (0-based) and dimension ``dim`` (1-based):
    the token column is 72 px wide and each dimension 44 px (ui.sentence sets both)."""
    box = grid.bounding_box()
    assert box is not None
    return box["x"] + 72 + 44 * (dim - 1) + 22, box["y"] + CELL * (row + 1) + CELL / 2


def edit_cell(page, grid, row: int, dim: int, value: str, expect: str) -> None:
    """Type ``value`` into a cell and wait for the URL to carry ``expect``.

    The value goes in with ``fill``, not key by key: keys typed into the cell's editor the moment
    it opens reach the input but not always the grid's own state, and Enter then commits the old
    value, so nothing reaches the server (about one edit in two in headless Chromium; with
    ``fill``, none in this repo's runs). A double-click that lands while the grid is still
    mounting or redrawing is lost, so the edit is retried."""
    editor = page.locator(".gdg-input")  # a text cell edits in a textarea
    for _ in range(3):
        page.mouse.dblclick(*cell_point(grid, row, dim))
        try:
            editor.wait_for(timeout=5_000)
        except PlaywrightTimeout:
            settle(page)
            continue
        page.wait_for_timeout(200)
        editor.fill(value)
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(f"() => location.search.includes({expect!r})", timeout=10_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            settle(page)
    else:
        raise AssertionError(f"three tries could not type {value!r} into row {row}, dimension {dim}")
    settle(page)


def test_a_sentence_typed_on_recap_is_there_on_masking_and_back_and_forward_keep_it(server, tab):
    page = tab
    console = Console().attach(page)
    open_settled(page, f"{server.url}/recap")
    type_sentence(page, CAT)
    assert {"cat", "the²", "mat"} <= tick_labels(page)

    via_sidebar(page, "Masking the future")
    assert page_path(page) == "/masking"
    assert sentence_box(page).input_value() == CAT
    assert query(page).get("text") == [CAT]
    assert {"cat", "the²", "mat"} <= tick_labels(page) and "journey" not in tick_labels(page)

    via_sidebar(page, "What n² costs")  # a page without the sentence: the URL carries none of it
    assert "text" not in query(page)
    via_sidebar(page, "Dropout")
    assert sentence_box(page).input_value() == CAT

    history(page, "back")
    assert page_path(page) == "/n-squared"
    history(page, "back")
    assert page_path(page) == "/masking" and query(page).get("text") == [CAT]
    assert sentence_box(page).input_value() == CAT
    history(page, "back")
    assert page_path(page) == "/recap" and query(page).get("text") == [CAT]
    assert "cat" in tick_labels(page)
    history(page, "forward")
    assert page_path(page) == "/masking" and sentence_box(page).input_value() == CAT
    assert exceptions(page) == [] and console.errors == []


def test_an_edited_embedding_travels_in_a_link_to_a_fresh_browser(server, browser, tab):
    page = tab
    open_settled(page, f"{server.url}/recap")
    type_sentence(page, CAT)
    before = metric_values(page)
    grid = open_editor(page)
    edit_cell(page, grid, row=1, dim=3, value="0.5", expect="emb=_c50")  # cat, dimension 3
    assert query(page)["emb"] == ["_c50"]
    edited = metric_values(page)
    assert edited != before
    link = page.url

    # A refused edit (an emptied cell) leaves the numbers and the link as they were.
    grid = page.locator("[data-testid='stSidebar'] [data-testid='stDataFrame']").first
    for _ in range(3):  # a click on a grid that is still redrawing after the edit is lost
        page.mouse.click(*cell_point(grid, row=0, dim=1))
        page.wait_for_timeout(200)
        page.keyboard.press("Delete")
        try:
            page.wait_for_function(
                "() => document.querySelector(\"[data-testid='stMain'] [data-testid='stAlert']\") !== null",
                timeout=10_000,
            )
            break
        except PlaywrightTimeout:
            settle(page)
    settle(page)
    assert "Edit refused" in alerts(page)
    assert page.url == link and metric_values(page) == edited

    fresh = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = fresh.new_page()
    console = Console().attach(page)
    open_settled(page, link)
    assert metric_values(page) == edited
    assert sentence_box(page).input_value() == CAT
    open_editor(page)
    assert page.get_by_role("textbox", name="Edits, as the link carries them").input_value() == "_c50"
    assert exceptions(page) == [] and console.errors == []
    fresh.close()


def test_a_five_thousand_word_link_is_cut_to_32_tokens_in_the_box_and_the_address_bar(server, tab):
    page = tab
    open_settled(page, f"{server.url}/masking?text=" + "+".join(["word"] * 5_000))
    assert "the pages use its first 32 tokens" in alerts(page)
    page.wait_for_function("() => location.search.length < 1000", timeout=30_000)
    text = parse_qs(urlsplit(page.url).query)["text"][0]
    assert text.split() == ["word"] * 32
    assert sentence_box(page).input_value() == text
    assert exceptions(page) == []
