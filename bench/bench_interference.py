"""One reader's heavy computation against another reader's control change, in two real sessions.

Goal (issue 25): while reader A runs the heaviest computation, reader B's control change on
another page takes at most 2× its idle time. Each scenario gets a ``streamlit run`` server of its
own (so nothing A computes was cached by an earlier scenario) and two Chromium contexts (two
sessions, as two readers in two browsers). For each scenario and each of B's pages:

- ``*_idle``: the median wait (:mod:`bench.clock`) after B moves the page's most-moved control
  (``CHANGES`` in ``bench.bench_pages``) one step and back, with A absent: measured before A
  opens and again after A has closed, both in the median.
- ``*_during``: the same move, made as soon as A's run has started (A's script state reads
  "running") and again while it still runs, each starting during A's computation.
  ``*_during_vs_idle`` is the ratio; ``*_overlapped`` how many of those moves also settled before A's
  run ended (a move that outlives A's run meets only part of it: the ratio then understates).
- ``*_a_run``: the median of A's own wait, from A's click to A's page settled.
- Server CPU per wait beside each wall time (``*_server_cpu``; the machine is shared). The server
  is one process, so ``*_during_server_cpu`` holds A's computation over B's wait too.

The scenarios (A's action):

- ``multihead``: A opens Multi-head with every ordered control at its high end and the 32-token
  sentence and clicks "Measure", once: the timing is shared by every press in the same ten
  minutes (``topics.multihead.study.measure``), so a second press would be served from the cache.
  One press measures for about four seconds, long enough for several of B's moves.
- ``dropout``: A opens Dropout at the heaviest draws setting (the sentence length and draw count
  with the most cells, ``draws × n²``, from ``topics.dropout.view.draw_choices``) and clicks
  Resample (the seed plus one, a draw nobody has asked for) in each of several rounds.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from bench import Figure

READERS = ("masking", "three-matrices")  # B's pages
TIMEOUT_MS = 180_000  # a click on a loaded machine, while a heavy page draws, can take long
STARTED = """(since) => window.__bench.lastRun > since
    || document.querySelector("[data-testid='stApp']").dataset.testScriptState !== 'notRunning'"""


@dataclass(frozen=True)
class Heavy:
    """A's scenario: the page, the URL of round ``r``, the click that starts the computation, and
    how many rounds make sense (Measure's timing is shared for ten minutes: one real press)."""

    name: str
    url_path: str
    query: Callable[[int], dict[str, str]]
    button: str  # the key of the button A clicks
    rounds: int | None = None  # None: the bench's repeats


def words(n: int) -> str:
    """A sentence of ``n`` tokens: the book's when ``n`` is 6, else the first ``n`` of a long one."""
    from bench.bench_pages import SENTENCE_32

    return "Your journey starts with one step" if n == 6 else " ".join(SENTENCE_32.split()[:n])


def multihead() -> Heavy:
    from bench.bench_pages import SENTENCE_32
    from bench.controls import query, read_controls
    from topics import page_at

    controls = read_controls(page_at("multi-head").path)
    high = {c.key: c.values[-1] if c.ordered else c.default for c in controls}
    setting = {**high, "text": SENTENCE_32}
    return Heavy(
        "multihead",
        "multi-head",
        lambda r: {**query(setting, controls), "mh_seed": str(100 + r)},
        "mh_measure",
        rounds=1,
    )


def dropout() -> Heavy:
    from topics.dropout import view

    n = max(range(1, 33), key=lambda k: (view.draw_choices(k)[-1] * k * k, k))
    draws = view.draw_choices(n)[-1]
    setting = {"text": words(n), "drop_draws": str(draws)}
    return Heavy("dropout", "dropout", lambda r: {**setting, "drop_seed": str(1000 + 10 * r)}, "resample")


@dataclass
class Waits:
    wall: list[float]
    cpu: list[float]

    def figures(self, name: str) -> Iterator[Figure]:
        yield Figure(name, statistics.median(self.wall) * 1e3, "ms")
        yield Figure(f"{name}_server_cpu", statistics.median(self.cpu) * 1e3, "ms")


def idle(reader, mover, server, repeats: int, waits: Waits) -> Waits:
    from bench import clock

    for _ in range(repeats):
        c0 = server.cpu_s()
        waits.wall.append(clock.timed(reader, mover).seconds)
        waits.cpu.append(server.cpu_s() - c0)
    return waits


MOVES_PER_ROUND = 6  # B's moves while one of A's runs lasts, at most


def scenario(browser, server, heavy: Heavy, reader_path: str, repeats: int) -> Iterator[Figure]:
    from bench import clock
    from bench.bench_browser import WARM, moved_key
    from bench.moves import Mover
    from tests.e2e.test_browser import page_url
    from topics import page_at

    name = f"interference_{heavy.name}_{reader_path.replace('-', '_')}"
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
    for c in contexts:
        clock.install(c)
        c.set_default_timeout(TIMEOUT_MS)
    reader = contexts[1].new_page()
    clock.loaded(reader, page_url(server, page_at(reader_path)))
    mover = Mover(reader, moved_key(reader_path) or "")
    calm = idle(reader, mover, server, WARM, Waits([], []))  # warms both values, untimed
    calm = idle(reader, mover, server, repeats, Waits([], []))
    busy, a_runs, whole = Waits([], []), Waits([], []), 0
    a = contexts[0].new_page()
    for r in range(heavy.rounds or repeats):
        clock.loaded(a, page_url(server, page_at(heavy.url_path), heavy.query(r)))
        since, c0 = clock.mark(a), server.cpu_s()
        a.locator(f".st-key-{heavy.button} button").first.click()
        a.wait_for_function(STARTED, arg=since, polling=20)
        for _ in range(MOVES_PER_ROUND):
            if not clock.running(a):  # each move starts while A's computation runs
                break
            c1 = server.cpu_s()
            busy.wall.append(clock.timed(reader, mover).seconds)
            busy.cpu.append(server.cpu_s() - c1)
            whole += clock.running(a)  # and A still ran when it settled: met A's run throughout
        a_runs.wall.append(clock.settled(a, since).seconds)
        a_runs.cpu.append(server.cpu_s() - c0)
    contexts[0].close()
    calm = idle(reader, mover, server, repeats, calm)
    contexts[1].close()
    yield from calm.figures(f"{name}_idle")
    if busy.wall:
        yield from busy.figures(f"{name}_during")
        during = statistics.median(busy.wall) / statistics.median(calm.wall)
        yield Figure(f"{name}_during_vs_idle", during, "x")
    yield Figure(f"{name}_overlapped", whole, f"of {len(busy.wall)} moves")
    yield from a_runs.figures(f"{name}_a_run")


def run(quick: bool) -> Iterable[Figure]:
    from playwright.sync_api import sync_playwright

    from bench.serve import Served, port
    from tests.e2e.conftest import CHROMIUM_FLAGS, chromium_path

    path = chromium_path()
    if path is None:
        raise RuntimeError("bench interference needs Chromium (apt-get install chromium) and Playwright")
    repeats = 3 if quick else 5
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        for heavy in (multihead(), dropout()):
            for reader_path in READERS:
                server = Served(port(2))  # a server of its own: nothing A computes is cached yet
                try:
                    yield from scenario(browser, server, heavy, reader_path, repeats)
                finally:
                    server.stop()
        browser.close()
