"""Three readers on one server at once, on the three pages that compute the most, arriving together
and then each moving a control while the others move theirs: every page keeps rendering, with no
exception and no console error. How fast they settle, over many rounds, is ``python -m bench``'s to
measure (30 s of four readers), not this test's: one round here proves the overlap."""

from __future__ import annotations

import random

from tests.e2e.browser import Console, charts_drawn, drive, exceptions, settle
from tests.e2e.test_browser import page_url
from topics import page_at

HEAVY = ("learning-to-attend", "divide-by-sqrt-dk", "multi-head")
READERS, ROUNDS, SECONDS = len(HEAVY), 1, 120


def test_readers_on_the_heaviest_pages_keep_rendering_while_they_all_move_controls(server, browser):
    contexts, pages, consoles = [], [], []
    try:
        for i in range(READERS):
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            page = ctx.new_page()
            consoles.append(Console().attach(page))
            page.goto(page_url(server, page_at(HEAVY[i])))  # every reader arrives at once
            contexts.append(ctx)
            pages.append(page)
        for page in pages:
            settle(page)
        rounds = drive(pages, SECONDS, random.Random(7), max_rounds=ROUNDS)
        assert rounds >= 1, f"no round of control changes finished in {SECONDS} s"
        for page, console in zip(pages, consoles, strict=True):
            assert exceptions(page) == [], page.url
            total, drawn = charts_drawn(page)
            assert drawn == total, f"{page.url}: {total - drawn} of {total} charts not drawn"
            assert console.errors == [], page.url
    finally:
        for ctx in contexts:
            ctx.close()
