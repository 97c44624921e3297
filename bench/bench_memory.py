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
3. **Twenty Dropout readers, each with their own long sentence** (issue 25). Each reader opens
   Dropout on a 26-token sentence of their own words (so no two share an embedding, a weight
   matrix or a cache entry), at the most draws that fit it (5,000), PyTorch's generator and their
   own ``drop_seed``, all twenty at once, in real Chromium contexts. The server's peak resident
   memory, and the seconds from the first request until the last reader's page has settled. Goal:
   peak under 450 MB, every reader settles (before the heavy-work budget: 748 MB, about 5 minutes).

``BENCH_MEMORY_PARTS`` (``session,readers,dropout``; all by default) runs only the parts named;
``--quick`` makes every part smaller (the Dropout crowd: 6 readers). ``BENCH_PORT`` puts each
server on that port instead of a free one.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bench import Figure, rss

SETTINGS = 250
READERS = 10
DROPOUT_READERS = 20  # issue 25's crowd
DROPOUT_TOKENS = 26
DROPOUT_TIMEOUT_S = 1_800  # a reader not settled by then counts as not settled (a loaded box is slow)
PARTS = ("session", "readers", "dropout")
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


def _server(Server):
    """A new ``streamlit run`` server, on ``BENCH_PORT`` when it is set (else a free port)."""
    port = os.environ.get("BENCH_PORT")
    if not port:
        return Server()
    from unittest import mock

    with mock.patch("tests.e2e.conftest.free_port", lambda: int(port)):
        return Server()


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


def dropout_plan(readers: int, tokens: int = DROPOUT_TOKENS) -> list[dict[str, str]]:
    """Each reader's Dropout link: their own ``tokens`` words (``r3w0 … r3w25`` for reader 3, so no
    two readers share a word), the most draws that fit, PyTorch's generator, their own seed."""
    from topics.dropout import view

    draws = view.draw_choices(tokens)[-1]  # 5,000 at 26 tokens
    return [
        {
            "text": " ".join(f"r{r}w{i}" for i in range(tokens)),
            "drop_draws": str(draws),
            "generator": view.GENERATOR_NAMES["torch"],
            "drop_seed": str(1_000 + r),
        }
        for r in range(readers)
    ]


def dropout_crowd(server, browser, settings: list[dict[str, str]]) -> tuple[int, float, int, list[str]]:
    """Open every Dropout reader at once; the server's peak resident bytes, the seconds until the
    last reader settled, how many settled within :data:`DROPOUT_TIMEOUT_S`, and the exceptions shown."""
    from playwright.sync_api import Error as PlaywrightError

    from tests.e2e.browser import exceptions, settle
    from tests.e2e.test_browser import page_url
    from topics import PAGES

    info = next(p for p in PAGES if p.url_path == "dropout")
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in settings]
    pages = [c.new_page() for c in contexts]
    t0 = time.perf_counter()
    for page, setting in zip(pages, settings, strict=True):
        page.goto(page_url(server, info, setting), wait_until="commit")
    settled, last, errors = 0, 0.0, []
    for page in pages:
        left_ms = max(1_000, int((DROPOUT_TIMEOUT_S - (time.perf_counter() - t0)) * 1_000))
        try:
            settle(page, timeout_ms=left_ms)
        except PlaywrightError:
            continue
        settled, last = settled + 1, time.perf_counter() - t0
        errors += exceptions(page)
    peak = rss.peak(server.proc.pid)
    for c in contexts:
        c.close()
    return peak, last, settled, errors


def run(quick: bool) -> Iterator[Figure]:
    from playwright.sync_api import sync_playwright

    parts = [p.strip() for p in os.environ.get("BENCH_MEMORY_PARTS", ",".join(PARTS)).split(",") if p.strip()]
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"BENCH_MEMORY_PARTS names no part {sorted(unknown)}; the parts are {PARTS}")
    Server, path, flags = _server_and_browser()
    wait = 15 if quick else SESSION_TTL_S
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=flags)
        try:
            if "session" in parts:
                yield from _session_part(Server, browser, quick, wait)
            if "readers" in parts:
                yield from _readers_part(Server, browser, quick, wait)
            if "dropout" in parts:
                yield from _dropout_part(Server, browser, quick)
        finally:
            browser.close()


def _dropout_part(Server, browser, quick: bool) -> Iterator[Figure]:
    settings = dropout_plan(6 if quick else DROPOUT_READERS)
    server = _server(Server)
    try:
        start = rss.current(server.proc.pid)
        peak, seconds, settled, errors = dropout_crowd(server, browser, settings)
    finally:
        server.stop()
    if errors:
        raise RuntimeError(f"a Dropout reader's page shows an exception: {errors[0][:300]}")
    yield Figure("memory.dropout_readers", len(settings), "sessions")
    yield Figure("memory.dropout_tokens", DROPOUT_TOKENS, "tokens")
    yield Figure("memory.dropout_draws", int(settings[0]["drop_draws"]), "draws")
    yield Figure("memory.dropout_start_rss", start / rss.MB, "MB")
    yield Figure("memory.dropout_peak_rss", peak / rss.MB, "MB")
    yield Figure("memory.dropout_settled", settled, "sessions")
    yield Figure("memory.dropout_last_settled", seconds, "s")


def _session_part(Server, browser, quick: bool, wait: int) -> Iterator[Figure]:
    steps = plan(40 if quick else SETTINGS, random.Random(14), high_corners=True)
    server = _server(Server)
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


def _readers_part(Server, browser, quick: bool, wait: int) -> Iterator[Figure]:
    readers = readers_plan(quick)
    server = _server(Server)
    try:
        peak = concurrent_readers(server, browser, readers)
        time.sleep(wait)
        yield Figure("memory.readers", len(readers), "sessions")
        yield Figure("memory.readers_peak_rss", peak / rss.MB, "MB")
        final = rss.current(server.proc.pid)
        yield Figure(f"memory.readers_final_rss_after_{wait}s", final / rss.MB, "MB")
    finally:
        server.stop()
