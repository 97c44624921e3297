"""Cold start, as the first reader meets it: from ``streamlit run streamlit_app.py`` to the Overview
fully drawn (every chart's SVG on screen, the run finished) in headless Chromium, timed from the
server process's start. Target (issue 25): under 3 s.

Beside it: the server's import time (a fresh interpreter importing Streamlit, then every module the
entry script and the Overview import: what the first run waits for), and the server's resident
memory once the Overview is drawn. The browser is launched before the server, so its own start is
not counted. The port is ``BENCH_COLD_PORT`` if set (a helper keeps to its range), else a free one.
"""

from __future__ import annotations

import ast
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from bench import Figure

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ("streamlit_app.py", "topics/overview/page.py")  # what the first run executes


def app_imports(root: Path = ROOT) -> list[str]:
    """The modules the entry script and the Overview import at their top level, in order."""
    names: list[str] = []
    for script in ENTRY:
        for node in ast.parse((root / script).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.append(node.module)
    return list(dict.fromkeys(names))


def import_seconds(root: Path = ROOT) -> tuple[float, float]:
    """Seconds a fresh interpreter takes to import Streamlit, then the app's modules on top."""
    code = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "t0 = time.perf_counter()\n"
        "import streamlit, streamlit.web.bootstrap\n"
        "t1 = time.perf_counter()\n"
        f"for m in {app_imports(root)!r}: __import__(m)\n"
        "print(t1 - t0, time.perf_counter() - t1)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    st_s, app_s = (float(v) for v in out.stdout.split())
    return st_s, app_s


def _port() -> int:
    if "BENCH_COLD_PORT" in os.environ:
        return int(os.environ["BENCH_COLD_PORT"])
    from tests.e2e.conftest import free_port

    return free_port()


def _rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cold_start(browser, root: Path = ROOT) -> tuple[float, float, float]:
    """One cold start: (seconds to healthy, seconds to the Overview drawn, server RSS in bytes)."""
    from tests.e2e.browser import settled_now
    from tests.e2e.conftest import wait_healthy

    port = _port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "streamlit", "run", "streamlit_app.py", "--server.port", str(port)]
    cmd += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    cmd += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(url, proc, pause=0.05)  # fine-grained: the time to healthy is a figure
        healthy = time.perf_counter() - t0
        page = browser.new_context().new_page()
        page.goto(url)
        page.wait_for_selector(".aww-chart .main-svg", timeout=60_000)
        settled_now(page)  # the run finished and every chart has drawn its SVG
        drawn = time.perf_counter() - t0
        rss = _rss_bytes(proc.pid)
        page.context.close()
        return healthy, drawn, rss
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def run(quick: bool, root: Path = ROOT) -> Iterable[Figure]:
    st_s, app_s = import_seconds(root)
    yield Figure("cold_import_streamlit", st_s, "s")
    yield Figure("cold_import_app_modules", app_s, "s")
    from tests.e2e.conftest import CHROMIUM_FLAGS, chromium_path

    path = chromium_path()
    if path is None:
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            runs = [cold_start(browser, root) for _ in range(1 if quick else 3)]
        finally:
            browser.close()
    yield Figure("cold_start_to_healthy", statistics.median(r[0] for r in runs), "s")
    yield Figure("cold_start_to_overview_drawn", statistics.median(r[1] for r in runs), "s")
    yield Figure("cold_start_to_overview_drawn_best", min(r[1] for r in runs), "s")
    yield Figure("cold_server_rss_after_start", statistics.median(r[2] for r in runs) / 2**20, "MiB")
