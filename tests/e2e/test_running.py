"""A reader can tell a rerun in flight from a settled page: the running indicator and faded elements.

The app's websocket is routed through Playwright, and once the server has started the rerun a
click asked for, its new elements are held back: the rerun stays in flight for as long as the
test likes, on any machine. Streamlit then marks every old element stale (faded) and, half a
second in, shows its running indicator, but the indicator lives in the toolbar, which
``toolbarMode = "minimal"`` removes unless the app names a menu item (streamlit_app.py does).

Before the server answers at all, Streamlit's frontend shows nothing: a widget change does not
mark the page as running until the server says a run started (checked in Streamlit 1.67's
frontend; its own "Rerun" menu item does). That gap is as short as the server is responsive.
"""

from __future__ import annotations

import re

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.e2e.browser import open_settled, readouts, settle
from tests.e2e.test_browser import page_url
from topics import PAGES

STATUS = "[data-testid='stStatusWidget']"


def test_a_rerun_in_flight_shows_the_running_indicator_and_fades_the_old_numbers(server, context):
    held: list = []
    state: dict = {"hold": False, "page_side": None}

    def route(ws):
        upstream = ws.connect_to_server()
        state["page_side"] = ws

        def from_server(message):
            kind = ForwardMsg.FromString(message).WhichOneof("type") if isinstance(message, bytes) else ""
            if state["hold"] and (held or kind == "delta"):  # the run started; its elements wait
                held.append(message)
            else:
                ws.send(message)

        upstream.on_message(from_server)
        ws.on_message(upstream.send)

    page = context.new_page()
    page.route_web_socket(re.compile(r".*/_stcore/stream"), route)
    info = next(p for p in PAGES if p.url_path == "divide-by-sqrt-dk")
    open_settled(page, page_url(server, info))
    assert page.locator(STATUS).count() == 0, "the indicator shows on a settled page"
    before = readouts(page)

    state["hold"] = True
    page.locator("[data-testid='stSidebarUserContent'] [data-testid='stCheckbox'] label").first.click()
    page.wait_for_selector(STATUS, state="visible", timeout=10_000)
    assert page.locator(f"{STATUS} [aria-label='Running...']").is_visible()
    assert readouts(page)["metrics"] == before["metrics"]  # the old numbers, still on screen…
    stale = page.locator("[data-testid='stMain'] [data-testid='stMetric']").first.locator(
        "xpath=ancestor::*[@data-stale='true']"
    )
    assert stale.count() >= 1  # …marked stale, which Streamlit draws faded

    state["hold"] = False
    for message in held:
        state["page_side"].send(message)
    settle(page)
    assert page.locator(STATUS).count() == 0
    assert readouts(page)["captions"] != before["captions"]  # the divisor toggle reached the page
