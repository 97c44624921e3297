"""The server's resident memory over a long random session, and under ten readers at once.

Targets (issue 14): peak under 450 MB in any sequence of legal settings and with ten concurrent
sessions; under 300 MB resident after a long session. Community Cloud's smallest apps get 690 MB
in all. Needs Chromium and Playwright (``tests/e2e``); each part starts its own
``streamlit run`` server, so each peak is that part's alone.

1. **One long session.** One browser tab opens every page with all its ranges at their high end,
   then random legal settings (a quarter of the controls at an extreme of their range on each;
   :func:`bench.controls.random_setting`), ``SETTINGS`` in all, page after page in a shuffled
   order, each from its URL, waiting for every chart to draw. The
   server's peak resident memory over the session, then its resident memory once the tab has been
   closed and Streamlit has dropped the disconnected session (``server.disconnectedSessionTTL``,
   120 s by default, plus a margin).
2. **Ten readers at the heaviest settings.** The ten readers are spread over the four pages
   that compute and cache, each at its slowest setting as ``bench worst`` found it, each reader
   with its own seed where the page has one (so no two share a cache entry), all ten opened at
   once; the Dropout readers then press Resample three times. Peak, then resident
   memory after all ten have closed and the sessions have expired.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bench import Figure, rss

SETTINGS = 250
READERS = 10
SESSION_TTL_S = 120 + 10  # Streamlit keeps a disconnected session this long, then frees it

if TYPE_CHECKING:
    from ui.pages import PageInfo


def _server_and_browser():
    from tests.e2e.conftest import CHROMIUM_FLAGS, ROOT, Server, chromium_path

    (ROOT / "artifacts").mkdir(exist_ok=True)
    path = chromium_path()
    if path is None:
        raise RuntimeError("bench memory needs Chromium (apt-get install chromium) and Playwright")
    return Server, path, CHROMIUM_FLAGS


def plan(
    n: int, rng: random.Random, high_corners: bool = False, pages: tuple[str, ...] | None = None
) -> list[tuple[PageInfo, dict[str, str]]]:
    """``n`` (page, random legal setting) pairs, every page in turn, in a shuffled order each round;
    with ``high_corners``, first every page with each of its ranges and ladders at the high end.
    ``pages`` (url paths) limits the session to those pages."""
    from bench.controls import query, random_setting, read_controls
    from topics import PAGES

    chosen = [p for p in PAGES if pages is None or p.url_path in pages]
    controls = {p.url_path: read_controls(p.path) for p in chosen}
    out: list[tuple[PageInfo, dict[str, str]]] = []
    if high_corners:
        for p in chosen:
            out.append((p, {c.key: c.values[-1] if c.ordered else c.default for c in controls[p.url_path]}))
    while len(out) < n:
        order = list(chosen)
        rng.shuffle(order)
        out += [(p, random_setting(controls[p.url_path], rng, extreme_share=0.25)) for p in order]
    return [(p, query(s, controls[p.url_path])) for p, s in out[:n]]


def long_session(server, browser, steps: list[tuple[PageInfo, dict[str, str]]]) -> tuple[int, float]:
    """Open every step in one tab; the server's peak resident bytes and the seconds it took.
    Raises if a page shows an exception: memory of a page that failed would prove nothing."""
    from tests.e2e.browser import exceptions, open_settled
    from tests.e2e.test_browser import page_url

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    t0 = time.perf_counter()
    for info, setting in steps:
        url = page_url(server, info, setting)
        open_settled(page, url)
        if exceptions(page):
            raise RuntimeError(f"{url}: {exceptions(page)[0][:300]}")
    context.close()
    return rss.peak(server.proc.pid), time.perf_counter() - t0


HEAVY = ("divide-by-sqrt-dk", "dropout", "learning-to-attend", "multi-head")  # the pages that cache
SEEDED = ("divide-by-sqrt-dk", "dropout", "multi-head")  # with a seed control in the sidebar


def readers_plan(quick: bool) -> list[tuple[PageInfo, dict[str, str]]]:
    """``READERS`` (page, setting) pairs over the four pages that compute and cache, each at its
    slowest setting as ``bench worst`` last found it (``artifacts/worst.json``; a quick search
    when it is missing), each reader with its own seed where the page has one."""
    from bench.bench_worst import FOUND, worst_settings
    from tests.e2e.conftest import ROOT
    from topics import PAGES

    info = {p.url_path: p for p in PAGES}
    path = ROOT / FOUND
    if path.exists():
        found = json.loads(path.read_text(encoding="utf-8"))
    else:
        found = {page: setting for page, setting, _ in worst_settings(quick=True) if page in HEAVY}
    out = []
    for i in range(READERS):
        page = HEAVY[i % len(HEAVY)]
        setting = found.get(page, {})
        if page in SEEDED:  # each reader its own cache entry: the worst case for memory
            # The page's own seed key (dk_seed, drop_seed, mh_seed): a bare "seed" is a legacy name,
            # which the page's current key in the same link overrides (ui.links), so every reader
            # of a page shared one cache entry.
            key = next(k for k in info[page].keys if k.endswith("seed"))
            setting = {**setting, key: str(int(setting.get(key, "0")) // 2 + i)}
        out.append((info[page], setting))
    return out


def concurrent_readers(server, browser, readers: list[tuple[PageInfo, dict[str, str]]]) -> int:
    """Open every reader at once, let all settle, press Resample where there is one; peak bytes."""
    from tests.e2e.browser import settle
    from tests.e2e.test_browser import page_url

    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in readers]
    pages = [c.new_page() for c in contexts]
    for page, (info, setting) in zip(pages, readers, strict=True):
        page.goto(page_url(server, info, setting), wait_until="commit")
    for page in pages:
        settle(page, timeout_ms=600_000)
    for _ in range(3):
        clicked = []
        for page in pages:
            button = page.locator("[data-testid='stSidebarUserContent'] button", has_text="Resample")
            if button.count():
                button.first.click()
                clicked.append(page)
        for page in clicked:
            settle(page, timeout_ms=600_000)
    for c in contexts:
        c.close()
    return rss.peak(server.proc.pid)


def run(quick: bool) -> Iterator[Figure]:
    from playwright.sync_api import sync_playwright

    Server, path, flags = _server_and_browser()
    steps = plan(40 if quick else SETTINGS, random.Random(14), high_corners=True)
    readers = readers_plan(quick)
    wait = 15 if quick else SESSION_TTL_S
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=flags)
        try:
            server = Server()
            try:
                start = rss.current(server.proc.pid)
                peak, seconds = long_session(server, browser, steps)
                time.sleep(wait)
                yield Figure("memory.session_settings", len(steps), "settings")
                yield Figure("memory.session_seconds", seconds, "s")
                yield Figure("memory.session_start_rss", start / rss.MB, "MB")
                yield Figure("memory.session_peak_rss", peak / rss.MB, "MB")
                final = rss.current(server.proc.pid)
                yield Figure(f"memory.session_final_rss_after_{wait}s", final / rss.MB, "MB")
            finally:
                server.stop()
            server = Server()
            try:
                peak = concurrent_readers(server, browser, readers)
                time.sleep(wait)
                yield Figure("memory.readers", len(readers), "sessions")
                yield Figure("memory.readers_peak_rss", peak / rss.MB, "MB")
                final = rss.current(server.proc.pid)
                yield Figure(f"memory.readers_final_rss_after_{wait}s", final / rss.MB, "MB")
            finally:
                server.stop()
        finally:
            browser.close()
