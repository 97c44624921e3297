"""A throwaway PostgreSQL cluster of Debian's ``postgresql`` in a temporary directory, for the class
bench and the class tests: ``initdb``, then ``pg_ctl start`` on a free loopback port with its socket
in the same directory; stopped and deleted on exit. None of it needs root."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def pg_bin() -> Path | None:
    """The newest Debian PostgreSQL's bin directory (``initdb``, ``pg_ctl``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def cluster() -> Iterator[str]:
    """A running cluster's SQLAlchemy URL (``postgresql+psycopg://``), for the ``with`` block."""
    bin_dir = pg_bin()
    if bin_dir is None:
        raise RuntimeError("no PostgreSQL found (apt-get install postgresql)")
    top = Path(tempfile.mkdtemp(prefix="class-pg-"))
    data, port = top / "data", _free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    # PostgreSQL refuses to run as root: there, it runs as Debian's ``postgres`` user.
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(top, "postgres", "postgres")

    def run(*args: str, check: bool = True) -> None:
        subprocess.run(
            [*as_user, *args], env=env, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "class", "-A", "trust", "-E", "UTF8")
        opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {top} -c max_connections=200"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(top / "log"), "-w", "start")
        try:
            yield f"postgresql+psycopg://class@127.0.0.1:{port}/postgres"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop", check=False)
    finally:
        shutil.rmtree(top, ignore_errors=True)
