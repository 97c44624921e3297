"""Real-browser fixtures: a `streamlit run` server on a free loopback port and headless Chromium.

The tests skip, with the reason, only where no Chromium binary can be found; CI installs
Debian's `chromium` first, so there they always run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.browser import forget_reruns, watch_reruns

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def wait_healthy(
    url: str, proc: subprocess.Popen, *, what: str = "streamlit", timeout: float = 60, pause: float = 0.3
) -> None:
    """Wait until ``url``'s ``/_stcore/health`` answers 200 (Streamlit's, or nginx passing it on),
    raising if ``proc`` exits first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(pause)
    raise RuntimeError(f"{what} did not become healthy within {timeout:g} s")


def stop_process(proc: subprocess.Popen, timeout: float = 10) -> None:
    """End ``proc``: asked to stop, then killed if it has not within ``timeout`` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env() -> dict[str, str]:
    """The environment a test server runs in: this one, with the class database kept out of the
    checkout (``CLASSROOM_DATA_DIR``: the session's, from tests/conftest.py, or a fresh temporary
    directory when none is set)."""
    data = os.environ.get("CLASSROOM_DATA_DIR") or tempfile.mkdtemp(prefix="classroom-")
    return {**os.environ, "CLASSROOM_DATA_DIR": data}


class Server:
    """One `streamlit run streamlit_app.py` process, stopped when the fixture ends."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(ROOT / "artifacts" / f"streamlit-{self.port}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "streamlit_app.py",
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=(env := server_env()),
        )
        self.data = None if os.environ.get("CLASSROOM_DATA_DIR") else env["CLASSROOM_DATA_DIR"]
        self._wait_healthy()

    def _wait_healthy(self) -> None:
        wait_healthy(self.url, self.proc, what=f"streamlit (see {self.log.name})")

    def stop(self) -> None:
        stop_process(self.proc)
        self.log.close()
        if getattr(self, "data", None):  # a directory of its own (none when the session gave one)
            shutil.rmtree(str(self.data), ignore_errors=True)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    (ROOT / "artifacts").mkdir(exist_ok=True)
    srv = Server()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (install Debian's `chromium`, or set CHROMIUM=/path/to/chrome)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield b
        b.close()


def kept(browser, **options):
    """A browser context kept for every test of a worker that asks for one like it, handed to each
    test as new (:func:`handing`), with one tab kept open in it. Its HTTP cache is kept: a
    context's first load of the app costs Chromium 7.3-8.6 s of CPU, a new tab's in a context that
    has loaded it 5-6 s, and a load in a tab that has loaded it before 2.4-2.9 s (measured on this
    2-core machine); some 40 tests each open the app."""
    ctx = browser.new_context(**options)
    ctx.on("page", watch_reruns)
    return ctx


def kept_tab(ctx):
    """The kept context's first tab, kept open from test to test (:func:`handing`)."""
    return ctx.pages[0] if ctx.pages else ctx.new_page()


def _close_tabs(ctx, keep) -> None:
    for page in list(ctx.pages):
        if page is not keep:
            page.close()


def handing(ctx, server: Server) -> Iterator:
    """``ctx`` (a :func:`kept` context) for one test, as new, and after it every tab closed but the
    kept one (:func:`kept_tab`), which is left on a page of the app's origin that loads nothing of
    the app (Streamlit's health check): the app's session there ends, as with a closed tab. What a
    test could leave for the next is cleared first: the other tabs, the cookies, the app's storage
    (the tour's progress and a class learner's id live in ``localStorage``), and the kept tab's
    record of reruns (``tests.e2e.browser.forget_reruns``). A test that opens the app in the kept
    tab (the ``tab`` fixtures) loads it where it has been loaded before: half a new tab's CPU."""
    tab = kept_tab(ctx)
    _close_tabs(ctx, tab)
    ctx.clear_cookies()
    tab.goto(f"{server.url}/_stcore/health")
    tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    forget_reruns(tab)
    yield ctx
    tab = kept_tab(ctx)  # a new one if the test closed it
    _close_tabs(ctx, tab)
    tab.goto(f"{server.url}/_stcore/health")


@pytest.fixture(scope="session")
def desktop(browser) -> Iterator:
    ctx = kept(browser, viewport={"width": 1400, "height": 1000}, color_scheme="light")
    yield ctx
    ctx.close()


@pytest.fixture
def context(desktop, server):
    """A desktop browser context in the light theme, as new: nothing stored, no tab open but its
    kept one on the health check (:func:`kept`, :func:`handing`); every page it opens has its
    reruns watched (tests.e2e.browser.reruns_sent)."""
    yield from handing(desktop, server)


@pytest.fixture
def tab(context):
    """The desktop context's kept tab (:func:`kept_tab`), as new: on the health check, nothing
    stored, its reruns watched. A test that needs a second tab opens one from ``context``."""
    return kept_tab(context)


PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def kept_phone(browser):
    ctx = kept(
        browser, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1, color_scheme="dark"
    )
    yield ctx
    ctx.close()


@pytest.fixture
def phone(kept_phone, server):
    """A phone (390 x 844, touch) in the dark theme, as new (:func:`kept`, :func:`handing`): the
    per-page phone visit audits each page in it (the desktop visit in test_browser audits the light
    one)."""
    yield from handing(kept_phone, server)


@pytest.fixture
def phone_tab(phone):
    """The phone's kept tab (:func:`kept_tab`), as new."""
    return kept_tab(phone)
