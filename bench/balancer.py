"""Debian's nginx in front of the replicas, configured by ``deploy/nginx.conf`` itself.

``deploy/nginx.conf`` is a template with two variables, ``${NGINX_PORT}`` and
``${STREAMLIT_UPSTREAMS}``: compose.yaml fills them in with the official nginx image's envsubst
(which replaces only the variables it is given, so nginx's own ``$variables`` stay), and
:func:`render` does the same here, for replicas on loopback ports. The rendered file is the
template with those two variables filled in and nothing else changed, so the bench and the test
run the configuration that a deployment runs, not a copy of it.

nginx runs unprivileged: its prefix (``-p``), where the configuration puts its pid, temporary
files and logs, is a fresh temporary directory, and it listens on loopback only.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.conftest import ROOT, stop_process, wait_healthy

TEMPLATE = ROOT / "deploy" / "nginx.conf"
_VARIABLE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}")
_LOG_LINE = re.compile(
    r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) .*upstream=(?P<upstream>\S+) key=(?P<key>\S+)'
)


def nginx_path() -> str | None:
    """Debian's nginx (``apt-get install nginx``), or None when this machine has none."""
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def render(template: str, variables: Mapping[str, str]) -> str:
    """``template`` with each ``${NAME}`` of ``variables`` replaced, as envsubst given those
    names does; any other ``${...}`` left is an error (a variable nobody filled in)."""
    out = _VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(0)), template)
    if left := _VARIABLE.findall(out):
        raise ValueError(f"deploy/nginx.conf needs {left} filled in")
    return out


@dataclass(frozen=True)
class Request:
    """One line of the access log, in deploy/nginx.conf's ``class`` format."""

    path: str
    status: int
    upstream: str
    key: str  # the browser's affinity key (its cookie, or the one nginx just gave it)


class Balancer:
    """``nginx`` on ``127.0.0.1:port`` in front of ``upstreams`` (``host:port`` each)."""

    def __init__(self, upstreams: list[str], port: int) -> None:
        path = nginx_path()
        if path is None:
            raise RuntimeError("no nginx (apt-get install nginx)")
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.prefix = Path(tempfile.mkdtemp(prefix="class-nginx-"))
        self.variables = {
            "NGINX_PORT": f"127.0.0.1:{port}",
            "STREAMLIT_UPSTREAMS": "\n        ".join(f"server {u};" for u in upstreams),
        }
        self.conf = render(TEMPLATE.read_text(encoding="utf-8"), self.variables)
        (self.prefix / "nginx.conf").write_text(self.conf, encoding="utf-8")
        self.proc = subprocess.Popen(
            [path, "-p", f"{self.prefix}/", "-c", "nginx.conf", "-e", "error.log", "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        self._wait_up()

    def _wait_up(self) -> None:
        try:
            wait_healthy(self.url, self.proc, what="nginx", timeout=20, pause=0.2)
        except RuntimeError as e:
            raise RuntimeError(f"{e}: {(self.prefix / 'error.log').read_text()[-500:]}") from e

    def requests(self) -> list[Request]:
        """Every request nginx has logged so far."""
        out = []
        for line in (self.prefix / "access.log").read_text(encoding="utf-8").splitlines():
            if m := _LOG_LINE.search(line):
                out.append(Request(m["path"], int(m["status"]), m["upstream"], m["key"]))
        return out

    def stop(self) -> None:
        stop_process(self.proc)
        shutil.rmtree(self.prefix, ignore_errors=True)
