"""A click on a heatmap cell picks it: the URL names the query and the key, and the panel works the
cell out (issue #22). AppTest cannot click a Plotly chart, so this runs in Chromium."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.e2e.browser import exceptions, open_settled, settle
from tests.e2e.test_browser import page_url
from topics import page_at

JOURNEY, STARTS = 1, 2  # row and column of the book's sentence


def query(page) -> dict[str, list[str]]:
    """The address bar's query, as the browser holds it now (``page.url`` can lag a pushState)."""
    return parse_qs(urlsplit(page.evaluate("location.href")).query)


def click_cell(page, chart: int, row: int, col: int, n: int) -> None:
    """Click the centre of cell ``(row, col)`` of the ``chart``-th Plotly chart's n × n grid."""
    box = page.locator(".js-plotly-plot .nsewdrag").nth(chart).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * (col + 0.5) / n, box["y"] + box["height"] * (row + 0.5) / n)


def test_a_click_on_a_weights_cell_puts_its_query_and_key_in_the_url_and_the_panel(server, context):
    page = context.new_page()
    open_settled(page, page_url(server, page_at("three-matrices")))
    assert "focus" not in query(page)
    click_cell(page, 2, JOURNEY, STARTS, 6)  # the third heatmap: the weights A
    page.wait_for_function("() => location.search.includes('cell=')", timeout=30_000)
    settle(page)
    assert query(page)["focus"] == ["journey"] and query(page)["cell"] == ["starts"]
    text = page.locator("[data-testid='stMain']").inner_text()
    assert "One cell, step by step: journey → starts" in text
    assert "= 1.8111" in text and "= 0.2199" in text and "[0.3061, 0.8210]" in text
    click_cell(page, 0, 4, 0, 6)  # the scores heatmap: one → Your
    page.wait_for_function("() => location.search.includes('focus=one')", timeout=30_000)
    settle(page)
    assert query(page)["cell"] == ["Your"]
    assert exceptions(page) == []
