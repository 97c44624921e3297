"""A ``streamlit run`` server for a browser bench, on a chosen port, of the app or of any script.

The e2e fixtures' :class:`tests.e2e.conftest.Server` always serves ``streamlit_app.py`` on a free
port; a bench also serves :data:`bench.pages.BARE` (the yardstick) beside it, and on a shared
machine each user may be given a range of ports: ``BENCH_PORT`` in the environment names the first
one (a bench uses it and the next few), otherwise free ports are picked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.e2e.conftest import ROOT, Server, free_port


def port(offset: int) -> int:
    """``BENCH_PORT + offset`` when ``BENCH_PORT`` is set, else a free port."""
    base = os.environ.get("BENCH_PORT")
    return int(base) + offset if base else free_port()


class Served(Server):
    """``streamlit run script`` (the app by default) on ``port``, with ``env`` added to this
    process's environment; :meth:`stop` ends it."""

    def __init__(self, port: int, script: Path | None = None, env: Mapping[str, str] | None = None) -> None:
        (ROOT / "artifacts").mkdir(exist_ok=True)
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(ROOT / "artifacts" / f"streamlit-{port}.log", "w")  # noqa: SIM115
        command = [sys.executable, "-m", "streamlit", "run", str(script or "streamlit_app.py")]
        flags = {
            "server.port": str(port),
            "server.address": "127.0.0.1",
            "server.headless": "true",
            "browser.gatherUsageStats": "false",
            "server.fileWatcherType": "none",
        }
        for name, value in flags.items():
            command += [f"--{name}", value]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
        self._wait_healthy()

    def cpu_s(self) -> float:
        """The server process's CPU seconds so far (user + system), from Linux's /proc."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bare_app() -> Served:
    """:data:`bench.pages.BARE` served on its own (port offset 1)."""
    from bench.pages import BARE

    return script_app(BARE, "bench_bare_app.py", 1)


def shell_app() -> Served:
    """:data:`bench.pages.SHELL`, Streamlit's multipage shell alone (port offset 2)."""
    from bench.pages import SHELL

    return script_app(SHELL, "bench_shell_app.py", 2)


def script_app(source: str, name: str, offset: int) -> Served:
    script = ROOT / "artifacts" / name
    script.parent.mkdir(exist_ok=True)
    script.write_text(source, encoding="utf-8")
    return Served(port(offset), script)
