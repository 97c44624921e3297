"""The server as a user meets it: cold start, and peak memory with every page visited and under
ten readers at once. Targets: cold start under 3 s; peak memory under 400 MB (Community Cloud's
smallest apps get 690 MB). Needs Chromium and Playwright; without them only the start is timed.

The browser is launched before the server, so the cold start counts the server alone: from
``streamlit run`` to the first page's title on screen ("served"), and to its charts drawn.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

from bench import Figure


def run(quick: bool) -> Iterable[Figure]:
    from tests.e2e.conftest import CHROMIUM_FLAGS, ROOT, Server, chromium_path

    (ROOT / "artifacts").mkdir(exist_ok=True)
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        path = None
    if path is None:
        t0 = time.perf_counter()
        Server().stop()
        yield Figure("server_start_to_healthy", time.perf_counter() - t0, "s")
        return
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        t0 = time.perf_counter()
        server = Server()
        try:
            yield Figure("server_start_to_healthy", time.perf_counter() - t0, "s")
            yield from _visit(server, browser, t0, quick)
        finally:
            server.stop()
            browser.close()


def _visit(server, browser, t0: float, quick: bool) -> Iterable[Figure]:
    from tests.e2e.browser import drive, open_settled, peak_rss_bytes
    from tests.e2e.test_browser import page_url
    from topics import PAGES

    page = browser.new_page()
    page.goto(server.url)
    page.wait_for_selector("[data-testid='stMain'] h1", timeout=60_000)
    yield Figure("cold_start_to_first_page_served", time.perf_counter() - t0, "s")
    open_settled(page, server.url)
    yield Figure("cold_start_to_first_page_drawn", time.perf_counter() - t0, "s")
    # The same first visit to the now warm server, from a fresh browser context: what the
    # browser itself spends (fetching and starting Streamlit's frontend) on any first visit.
    fresh = browser.new_context().new_page()
    t1 = time.perf_counter()
    fresh.goto(server.url)
    fresh.wait_for_selector("[data-testid='stMain'] h1", timeout=60_000)
    yield Figure("warm_server_first_page_served_fresh_browser", time.perf_counter() - t1, "s")
    for info in PAGES:
        open_settled(page, page_url(server, info))
    yield Figure("server_peak_memory_all_pages", peak_rss_bytes(server.proc.pid) / 2**20, "MiB")
    readers = [browser.new_context().new_page() for _ in range(10)]
    for i, reader in enumerate(readers):
        open_settled(reader, page_url(server, PAGES[1 + i % (len(PAGES) - 1)]))
    rounds = drive(readers, 10 if quick else 30, random.Random(7))
    yield Figure("load_rounds_ten_readers", rounds, "rounds")
    yield Figure("server_peak_memory_ten_readers", peak_rss_bytes(server.proc.pid) / 2**20, "MiB")
