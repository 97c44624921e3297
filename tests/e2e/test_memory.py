"""A real server's peak memory over a short random session: ``python -m bench memory``, shortened.

The server is this test's own (not the shared fixture's), so its peak is this session's alone.
The session is the bench's, cut to the four pages that compute and cache (the others hold no
cache and allocate kilobytes): each with all its ranges at their high end, then random legal
settings, each opened from its URL in one tab. The limit is generous (the bench reports the
figure; the target is 450 MB): the peak here is about 190 MB, so a change that doubles the
app's memory fails, noise does not.
"""

from __future__ import annotations

import random

import pytest

from bench import rss
from bench.bench_memory import long_session, plan
from tests.e2e.conftest import Server

LIMIT_MB = 400
SETTINGS = 4
HEAVY = ("divide-by-sqrt-dk", "dropout", "learning-to-attend", "multi-head")


@pytest.mark.slow
def test_a_random_session_keeps_the_server_under_400_mb(browser):
    steps = plan(SETTINGS, random.Random(1414), high_corners=True, pages=HEAVY)
    assert len(steps) >= SETTINGS
    server = Server()
    try:
        start = rss.current(server.proc.pid)
        peak, _ = long_session(server, browser, steps)
    finally:
        server.stop()
    assert start < peak, "the session did not reach the server"
    assert peak < LIMIT_MB * rss.MB, f"peak {peak / rss.MB:.0f} MB over {len(steps)} settings"
