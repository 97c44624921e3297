"""Resident memory of a process, from Linux's /proc: now, at its peak, and a reset of the peak.

The peak (``VmHWM``) is what a host such as Community Cloud compares with its limit; writing
``5`` to ``clear_refs`` resets it, so one run's peak can be read on its own.
"""

from __future__ import annotations

import os

MB = 2**20


def _status(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status (Linux only)")


def current(pid: int | None = None) -> int:
    """Resident bytes now (``VmRSS``)."""
    return _status(pid or os.getpid(), "VmRSS")


def peak(pid: int | None = None) -> int:
    """The largest resident size since the start or the last :func:`reset_peak` (``VmHWM``)."""
    return _status(pid or os.getpid(), "VmHWM")


def reset_peak(pid: int | None = None) -> None:
    """Start a new peak from the current resident size."""
    with open(f"/proc/{pid or os.getpid()}/clear_refs", "w") as f:
        f.write("5")
