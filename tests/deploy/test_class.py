"""A class behind nginx, as CI can run it (issue 37): two replicas of the app behind Debian's nginx
running deploy/nginx.conf, six simulated learners (Locust, Streamlit's websocket protocol) for
24 s, with short pauses so their walks reach the topic pages.

What a course needs from it: no learner meets an error; both replicas serve sessions; each
browser's requests (its page, its health and config requests, its websocket, which carries every
message of its session) all reach one replica; and a share link shows the same numbers whichever
replica opens it. Skipped, with the reason, where nginx is missing (``.ci/run`` installs it).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator

import pytest

from bench.balancer import TEMPLATE, nginx_path
from bench.bench_class import Actions, Class, Learners, served
from bench.stream import MOVABLE, Session
from tests.e2e.conftest import free_port

pytestmark = pytest.mark.slow

LEARNERS, REPLICAS, SECONDS = 6, 2, 24  # with the servers, nginx and Locust starting: ~40 s
THINK_SCALE = 0.03  # 0.15-0.6 s between actions: a walk of 24 actions ends well inside the run
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@pytest.fixture(scope="module")
def lecture() -> Iterator[tuple[Class, Actions]]:
    if nginx_path() is None:
        pytest.skip("no nginx found (apt-get install nginx; .ci/run installs it)")
    port = free_port()
    # The learners' process starts with the servers (its imports take seconds) and waits for nginx.
    crowd = Learners(f"http://127.0.0.1:{port}", LEARNERS, SECONDS, THINK_SCALE, 3, wait_seconds=120)
    try:
        with served(REPLICAS, port) as c:
            yield c, crowd.result()
    finally:
        crowd.stop()


def test_no_learner_meets_an_error(lecture: tuple[Class, Actions]) -> None:
    _, acts = lecture
    assert acts.errors == []
    kinds = {r[0] for r in acts.rows}
    assert {"open", "next", "guess", "reveal"} <= kinds, kinds
    assert len(acts.waits) >= 2 * LEARNERS
    assert acts.locust["requests"] == len(acts.rows)  # Locust counted every action


def test_both_replicas_serve_sessions(lecture: tuple[Class, Actions]) -> None:
    c, _ = lecture
    sessions = c.sessions()
    assert set(sessions) == {f"127.0.0.1:{s.port}" for s in c.servers}, sessions
    assert all(n > 0 for n in sessions.values())
    assert sum(sessions.values()) >= LEARNERS


def test_every_request_of_a_browser_reaches_one_replica(lecture: tuple[Class, Actions]) -> None:
    c, _ = lecture
    by_browser = defaultdict(list)
    for r in c.balancer.requests():
        by_browser[r.key].append(r)
    sessions = {k: rs for k, rs in by_browser.items() if any(r.path == "/_stcore/stream" for r in rs)}
    assert len(sessions) >= LEARNERS
    for key, rs in sessions.items():
        paths = {r.path.split("?")[0] for r in rs}
        # The page, then the frontend's health and config requests, then its websocket.
        assert {"/read-along", "/_stcore/health", "/_stcore/host-config", "/_stcore/stream"} <= paths, key
        assert len({r.upstream for r in rs}) == 1, (key, [(r.path, r.upstream) for r in rs])
    assert c.split_browsers() == {}


def test_a_share_link_shows_the_same_numbers_on_either_replica(lecture: tuple[Class, Actions]) -> None:
    c, _ = lecture
    rng = random.Random(37)
    # Make a share link as a learner does: a step's link to its page, then one control moved.
    learner = Session(c.url)
    try:
        run = learner.open("read-along", "step=4")
        link = next(lk for lk in run.links if "open_in_new" in lk.icon)
        run = learner.follow(link)
        control = next(k for k, w in run.widgets.items() if w.kind in MOVABLE and w.proto.query_param_key)
        learner.move(control, rng)
        path = next(p for p, h in learner.pages.items() if h == learner.page_script_hash)
        query = learner.query_string
    finally:
        learner.close()
    assert control in query  # the moved control is in the link
    seen = []
    for server in c.servers:  # each replica directly, past nginx
        tab = Session(server.url)
        try:
            seen.append(tab.open(path, query).text())
        finally:
            tab.close()
    numbers = [[n for t in text for n in NUMBER.findall(t)] for text in seen]
    assert len(numbers[0]) >= 5, seen[0]
    assert numbers[0] == numbers[1]
    assert seen[0] == seen[1]


def test_nginx_runs_deploys_config(lecture: tuple[Class, Actions]) -> None:
    """The file nginx was started with is deploy/nginx.conf with its two variables filled in,
    and nothing else changed."""
    c, _ = lecture
    running = (c.balancer.prefix / "nginx.conf").read_text(encoding="utf-8")
    for name, value in sorted(c.balancer.variables.items(), key=lambda nv: -len(nv[1])):
        running = running.replace(value, "${" + name + "}")
    assert running == TEMPLATE.read_text(encoding="utf-8")
    assert c.balancer.proc.poll() is None
