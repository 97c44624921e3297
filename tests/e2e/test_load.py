"""Ten readers on one server at once, each moving controls on a different page for 20 seconds."""

from __future__ import annotations

import random

from tests.e2e.browser import Console, charts_drawn, drive, exceptions, open_settled
from tests.e2e.test_browser import page_url
from topics import PAGES

READERS, SECONDS = 10, 20


def test_ten_sessions_keep_rendering_while_they_all_move_controls(server, browser):
    contexts, pages, consoles = [], [], []
    try:
        for i in range(READERS):
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            page = ctx.new_page()
            consoles.append(Console().attach(page))
            open_settled(page, page_url(server, PAGES[1 + i % (len(PAGES) - 1)]))
            contexts.append(ctx)
            pages.append(page)
        rounds = drive(pages, SECONDS, random.Random(7))
        assert rounds >= 2, f"only {rounds} rounds in {SECONDS} s"
        for page, console in zip(pages, consoles, strict=True):
            assert exceptions(page) == [], page.url
            total, drawn = charts_drawn(page)
            assert drawn == total, f"{page.url}: {total - drawn} of {total} charts not drawn"
            assert console.errors == [], page.url
    finally:
        for ctx in contexts:
            ctx.close()
