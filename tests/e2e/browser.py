"""What a test needs to drive one Streamlit page in Chromium and read what it shows."""

from __future__ import annotations

import os
import re
import weakref
from dataclasses import dataclass, field

# Streamlit's frontend probes for its base path: on a page URL such as /recap it first asks
# /recap/_stcore/health and /recap/_stcore/host-config, gets 404 and falls back to /_stcore/.
# Those two console lines are the framework's, not the app's.
BASE_PATH_PROBE = re.compile(r"/_stcore/(health|host-config)")


@dataclass
class Console:
    errors: list[str] = field(default_factory=list)

    def attach(self, page) -> Console:
        def on_console(msg):
            if msg.type == "error" and not BASE_PATH_PROBE.search(msg.location.get("url", "") or ""):
                self.errors.append(msg.text)

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        return self


def rerun_fragment(payload: bytes | str) -> str | None:
    """What one frame the page sent asks for: the ``fragment_id`` of a rerun request (``""`` for a
    rerun of the whole script), or ``None`` for any other message (a heartbeat, a file request)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    if not isinstance(payload, bytes):
        return None
    msg = BackMsg.FromString(payload)
    return msg.rerun_script.fragment_id if msg.WhichOneof("type") == "rerun_script" else None


def run_event(payload: bytes | str) -> str | None:
    """What one frame the server sent says of a script run: ``"started"`` (``new_session``, which
    opens every run), ``"finished"`` (``script_finished``), or None."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if not isinstance(payload, bytes):
        return None
    kind = ForwardMsg.FromString(payload).WhichOneof("type")
    return {"new_session": "started", "script_finished": "finished"}.get(kind or "")


_RERUNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_RUNS_SEEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch_reruns(page) -> None:
    """Record every rerun request the page sends over its websocket, for :func:`reruns_sent`, and
    count the runs the server finishes, for :func:`visit`. Call it before the page opens its app
    (the ``context`` fixture does, for every page it opens)."""
    sent: list[str] = _RERUNS.setdefault(page, [])
    runs: list[int] = _RUNS_SEEN.setdefault(page, [0, 0])  # runs finished, and whether one is running

    def on_sent(payload: bytes | str) -> None:
        fragment = rerun_fragment(payload)
        if fragment is not None:
            sent.append(fragment)

    def on_received(payload: bytes | str) -> None:
        event = run_event(payload)
        if event == "finished":
            runs[0], runs[1] = runs[0] + 1, 0
        elif event == "started":
            runs[1] = 1

    def on_socket(ws) -> None:
        ws.on("framesent", on_sent)
        ws.on("framereceived", on_received)

    page.on("websocket", on_socket)


def forget_reruns(page) -> None:
    """Start the page's records afresh (a kept tab handed to a new test): no rerun asked, no run seen."""
    _RERUNS.get(page, []).clear()
    _RUNS_SEEN.get(page, [0, 0])[:] = [0, 0]


def reruns_sent(page) -> list[str]:
    """Every rerun the page has asked for so far, oldest first, each as :func:`rerun_fragment` reads it."""
    return list(_RERUNS.get(page, []))


_SETTLED = """() => {
    if (document.querySelector("[data-testid='stStatusWidget']")) return false;
    if (document.querySelector("[data-testid='stSkeleton']")) return false;
    if (document.querySelector("[data-stale='true']")) return false;
    if (document.querySelector(".aww-chart[data-drawing]")) return false;  // a spec not yet drawn
    // A chart element whose code has not yet run (Streamlit's box for a custom component, empty).
    if (document.querySelector("[data-testid='stBidiComponentRegular']:not(:has(.aww-chart))")) return false;
    const charts = document.querySelectorAll(".aww-chart");
    for (const c of charts) {
        const svg = c.querySelector(".main-svg");
        if (!svg || svg.getBoundingClientRect().width === 0) return false;
    }
    return document.querySelector("h1") !== null;
}"""


def settle(page, timeout_ms: int = 120_000) -> None:
    """Wait until the script run has finished and every Plotly chart has drawn its SVG.

    A rerun starts a moment after the click that asked for it, so the page must read as settled
    on two checks 250 ms apart, with a wait for the run to begin in between.
    """
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=timeout_ms)
    for _ in range(2):
        page.wait_for_timeout(250)
        page.wait_for_function(_SETTLED, timeout=timeout_ms, polling=100)


def settle_on(page, title: str, timeout_ms: int = 60_000) -> None:
    """Wait until the page's title reads ``title`` and the page has settled: after a click that
    changes the title, the new title itself says the rerun has come, so no fixed pause is needed."""
    page.wait_for_function(
        "(t) => { const h = document.querySelector(\"[data-testid='stMain'] h1\"); "
        "return h !== null && h.innerText.trim() === t; }",
        arg=title,
        timeout=timeout_ms,
        polling=100,
    )
    page.wait_for_function(_SETTLED, timeout=timeout_ms, polling=100)


def settled_now(page, timeout_ms: int = 60_000) -> None:
    """Wait for the page to read as settled once, with no pause first: for a caller that has already
    seen the rerun's result arrive (a new title, a revealed answer)."""
    page.wait_for_function(_SETTLED, timeout=timeout_ms, polling=100)


_VISIT = """(url) => {
    history.pushState({}, "", url);
    window.dispatchEvent(new PopStateEvent("popstate", {state: {}}));
}"""


def visit(page, url: str, timeout_ms: int = 60_000) -> None:
    """Show ``url`` in the app ``page`` has open, as the browser's Back and Forward move between a
    tab's entries: the URL becomes the tab's current entry and a ``popstate`` follows, on which
    Streamlit runs the page the URL names with its query (the sentence, the focus, the step), as a
    rerun. The frontend is not loaded again: in Chromium a page load costs 4 to 6 s of CPU (the
    frontend's code parsed and run again), a visit 1 to 2 s, for the same charts drawn from the
    same spec. Returns once the server has finished a run after the visit, none has started since,
    and the page reads as settled, twice 250 ms apart (a second run can follow the first, as after a
    load). The page must be watched (:func:`watch_reruns`) from before it opened the app."""
    import time

    runs = _RUNS_SEEN.get(page)
    if runs is None:
        raise RuntimeError("visit() needs a page watched by watch_reruns() before it opened the app")
    before = runs[0]
    page.evaluate(_VISIT, url)
    deadline = time.monotonic() + timeout_ms / 1000
    for pause in (0, 250):
        page.wait_for_timeout(pause)
        while runs[0] == before or runs[1]:  # the frames arrive while Playwright waits
            if time.monotonic() > deadline:
                raise TimeoutError(f"no run finished within {timeout_ms} ms of visiting {url}")
            page.wait_for_timeout(50)
        page.wait_for_function(_SETTLED, timeout=timeout_ms, polling=100)
    shown = page.url.split("?")[0].rstrip("/")
    if shown != url.split("?")[0].rstrip("/"):  # a page's controls may rewrite the query, not the path
        raise AssertionError(f"visited {url}, but the tab shows {page.url}")


def open_settled(page, url: str) -> None:
    """Open ``url`` and wait until the page has settled: read as settled, then again 250 ms later
    (a second run can follow the first). No pause comes first, as :func:`settle` has after a click:
    the new document has no title until its first run has drawn one, so it cannot read as settled
    before that run has begun."""
    page.goto(url)
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=120_000)
    page.wait_for_function(_SETTLED, timeout=120_000, polling=100)
    page.wait_for_timeout(250)
    page.wait_for_function(_SETTLED, timeout=120_000, polling=100)


def readouts(page) -> dict[str, list[str]]:
    """The numbers a reader sees: metric values, markdown in the main area, the title."""
    main = page.locator("[data-testid='stMain']")
    return {
        "title": main.locator("h1").all_inner_texts(),
        "metrics": main.locator("[data-testid='stMetricValue']").all_inner_texts(),
        "captions": main.locator("[data-testid='stCaptionContainer']").all_inner_texts(),
        "markdown": main.locator("[data-testid='stMarkdownContainer']").all_inner_texts(),
    }


def exceptions(page) -> list[str]:
    return page.locator("[data-testid='stException']").all_inner_texts()


def charts_drawn(page) -> tuple[int, int]:
    """(charts on the page, charts whose SVG has a size and at least one trace)."""
    return page.evaluate(
        """() => {
            const charts = Array.from(document.querySelectorAll(".aww-chart"));
            const drawn = charts.filter(c => {
                const svg = c.querySelector(".main-svg");
                const r = svg && svg.getBoundingClientRect();
                const marks = ".trace, .heatmaplayer image, .barlayer, .scatterlayer, .gl-container, .scene";
                return r && r.width > 0 && r.height > 0 && c.querySelector(marks);
            });
            return [charts.length, drawn.length];
        }"""
    )


def nudge(page, rng) -> bool:
    """Move one sidebar control at random (a radio option, a toggle, a slider step), without
    waiting for the rerun it starts. False when the page has no such control."""
    sidebar = page.locator("[data-testid='stSidebarUserContent']")
    radios = sidebar.locator("[data-testid='stRadio'] label").all()
    toggles = sidebar.locator("[data-testid='stCheckbox'] label").all()
    thumbs = sidebar.locator("input[type='range']").all()
    choices = [("click", x) for x in radios + toggles] + [("slide", x) for x in thumbs]
    if not choices:
        return False
    kind, target = rng.choice(choices)
    if kind == "click":
        target.click()
    else:
        target.focus()
        target.press(rng.choice(["ArrowRight", "ArrowLeft"]))
    return True


def drive(pages: list, seconds: float, rng, max_rounds: int | None = None) -> int:
    """Round after round, nudge a control on every page at once, then let all of them settle, until
    ``seconds`` have passed or ``max_rounds`` rounds are done. Returns the number of rounds completed."""
    import time

    deadline, rounds = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and (max_rounds is None or rounds < max_rounds):
        for page in pages:
            if not nudge(page, rng):
                page.reload()
        for page in pages:
            settle(page)
        rounds += 1
    return rounds


def peak_rss_bytes(pid: int) -> int:
    """The process's peak resident memory (VmHWM), Linux only."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc status")


def screenshot_whole(page, path: str) -> None:
    """A screenshot of the page. With ``SCREENSHOTS=whole`` in the environment, of the whole page:
    Streamlit scrolls inside its main container, so the viewport is stretched to the content's
    height (capped) instead of using full_page, and every chart redraws; otherwise of the first
    screen, which costs no redraw."""
    if os.environ.get("SCREENSHOTS") != "whole":
        page.screenshot(path=path)
        return
    height = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollHeight")
    size = page.viewport_size or {"width": 1400, "height": 1000}
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 40, 12_000)})
    settle(page)
    page.screenshot(path=path)
    page.set_viewport_size(size)
