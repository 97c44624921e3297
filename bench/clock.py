"""How long a reader waits in Chromium for a Streamlit page to settle after an action.

:func:`install` adds a script to the browser context, before any page loads, that notes the time
of every message from the server's websocket and of every change to the page (a MutationObserver;
changes inside Streamlit's header, where the "Running…" status widget sits, are left out), and
the first moment a busy sign shows after :func:`mark`: a spinner or progress bar on the
page (``stSpinner``, ``stProgress``), or the header's status widget.

:func:`timed` marks the time, does the action, waits until the script has run and the page
has been still for ``QUIET_MS`` with every chart drawn and no element still waiting for its code
(Streamlit's placeholder, ``stSkeleton``: a first visit's charts are placeholders, not yet charts,
for seconds), and returns the time from the mark to the page's last change: what a reader waits
for the page to stop moving. The quiet wait itself is not counted. The script's state is read
from the ``data-test-script-state`` attribute Streamlit's frontend keeps on its ``stApp`` element
for its own end-to-end tests ("running", "notRunning").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

QUIET_MS = 500  # the page must not change for this long to count as settled
POLL_MS = 100  # how often the page is asked whether it has settled (its answer is timed within, not by this)
SPINNER_WITHIN_S = 0.5  # issue 25: a spinner within 0.5 s of any change that takes longer

SCRIPT = """(() => {
    const b = window.__bench = {mark: 0, lastMut: 0, lastMsg: 0, lastRun: 0, busy: {}};
    const Socket = window.WebSocket;
    window.WebSocket = class extends Socket {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", () => { b.lastMsg = performance.now(); });
        }
    };
    const SIGNS = {
        spinner: "[data-testid='stSpinner'], [data-testid='stProgress']",
        status: "[data-testid='stStatusWidget']",
    };
    // The busy signs are looked for once a frame, not on every batch of changes: on a page of
    // thousands of nodes the lookups were a measurable part of the renderer CPU being measured.
    let header = null, looking = false;
    const look = () => {
        looking = false;
        const now = performance.now();
        for (const [kind, selector] of Object.entries(SIGNS))
            if (!(kind in b.busy) && document.querySelector(selector)) b.busy[kind] = now - b.mark;
    };
    new MutationObserver((records) => {
        const now = performance.now();
        if (!header || !header.isConnected) header = document.querySelector("[data-testid='stHeader']");
        if (records.some((r) => !(header && header.contains(r.target)))) b.lastMut = now;
        if (records.some((r) => r.attributeName === "data-test-script-state")) b.lastRun = now;
        if (!looking) {
            looking = true;
            requestAnimationFrame(look);
        }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();"""

_MARK = "() => { const b = window.__bench; b.mark = performance.now(); b.busy = {}; return b.mark; }"

_SETTLED = """([mark, quiet]) => {
    const b = window.__bench;
    if (Math.max(b.lastMsg, b.lastRun) <= mark) return false;
    const app = document.querySelector("[data-testid='stApp']");
    if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
    if (document.querySelector("[data-testid='stStatusWidget']")) return false;
    if (document.querySelector("[data-stale='true']")) return false;
    if (document.querySelector("[data-testid='stSkeleton']")) return false;  // code still on its way
    if (!document.querySelector("[data-testid='stMain'] h1")) return false;
    if (document.querySelector(".aww-chart[data-drawing]")) return false;  // Plotly still drawing
    if (document.querySelector("[data-testid='stBidiComponentRegular']:not(:has(.aww-chart))")) return false;
    for (const c of document.querySelectorAll(".aww-chart")) {
        const svg = c.querySelector(".main-svg");
        if (!svg || svg.getBoundingClientRect().width === 0) return false;
    }
    return performance.now() - Math.max(b.lastMut, b.lastMsg) > quiet;
}"""


@dataclass(frozen=True)
class Wait:
    """One action's wait: seconds from the action to the page's last change, and when (seconds
    after the action) a spinner or progress bar, and the status widget, first showed (None: never)."""

    seconds: float
    spinner_s: float | None
    status_s: float | None

    @property
    def slow(self) -> bool:
        return self.seconds > SPINNER_WITHIN_S

    @property
    def spinner_in_time(self) -> bool:
        """A spinner, progress bar or the status widget showed within 0.5 s of the action."""
        signs = [s for s in (self.spinner_s, self.status_s) if s is not None]
        return bool(signs) and min(signs) <= SPINNER_WITHIN_S


def install(context) -> None:
    """Add the clock to every page ``context`` opens from now on."""
    context.add_init_script(SCRIPT)


def mark(page) -> float:
    """Note the time (the page's clock, ms) from which :func:`settled` counts, and forget busy signs."""
    return float(page.evaluate(_MARK))


def settled(page, since: float, timeout_ms: int = 300_000) -> Wait:
    """Wait until the page has answered an action made after :func:`mark` and settled."""
    page.wait_for_function(_SETTLED, arg=[since, QUIET_MS], timeout=timeout_ms, polling=POLL_MS)
    b = page.evaluate("() => window.__bench")
    busy = b["busy"]
    return Wait(
        (max(b["lastMut"], b["lastMsg"]) - since) / 1e3,
        busy["spinner"] / 1e3 if "spinner" in busy else None,
        busy["status"] / 1e3 if "status" in busy else None,
    )


def running(page) -> bool:
    """Whether the page's script (or a fragment of it) is running now."""
    state = page.locator("[data-testid='stApp']").get_attribute("data-test-script-state")
    return state != "notRunning"


def timed(page, action: Callable[[], object], timeout_ms: int = 300_000) -> Wait:
    """Do ``action`` on a settled ``page`` and wait for the page to settle again (module docstring)."""
    since = mark(page)
    action()
    return settled(page, since, timeout_ms)


def loaded(page, url: str, timeout_ms: int = 300_000) -> Wait:
    """Open ``url`` and wait for it to settle; the time counts from navigation start."""
    page.goto(url, wait_until="commit")
    return settled(page, 0, timeout_ms)
