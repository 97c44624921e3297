"""``python -m bench class``: a class at once, behind nginx, and what one core holds (issue 37).

An instructor shares a Read along link and a lecture hall opens it. This bench starts
``--replicas`` app servers (``streamlit run``, on loopback ports) behind Debian's nginx running
``deploy/nginx.conf`` (:mod:`bench.balancer`), then drives ``--learners`` simulated learners
with Locust for ``--seconds`` (:mod:`bench.learners`, in its own process). Each learner speaks
Streamlit's websocket protocol (:mod:`bench.stream`) and walks the tour as
:mod:`bench.learner` describes: 24 actions, each waiting for its run's ``script_finished``.

**Think time.** A learner pauses 5 to 20 s before each action, so one walk takes about 290 s. A
run shorter than that scales every pause down (``--think-scale``, by default
``0.4 × seconds / 290``: a 45 s run thinks 0.3 to 1.25 s) so that walks still end inside the run.
Each simulated learner then asks ``1 / scale`` times as often as a real one: it stands for
several real learners, which is what the capacity below converts back.

Figures of the run (``class_*``): learners, replicas, the think scale, actions and walks
completed, runs per second (one action is one run, from its message to its ``script_finished``),
the p50, p95 and largest wait per action and the p95 of a first page load, errors (an exception
on the page or a lost connection), each replica's peak resident memory, the replicas' CPU per
action, how many replicas served sessions (from nginx's log: the websocket requests by upstream)
and how many browsers' requests reached more than one replica (0 when sessions are sticky).

**Capacity per core.** The first replica (warm from the run) is then served alone, pinned to
one core, with the load generator pinned to another, and the number of simulated learners is
stepped (``--capacity-start``, doubling until a step fails, then halving the gap between the
last pass and the first failure; at most ``--capacity-steps`` steps of ``--step-seconds`` each,
think scale 0.1: 0.5 to 2 s); a step passes when its p95 wait is under 1 s and it had no error.
At the largest step that passed, the replica answered ``X`` actions per second with
mean wait ``W``; by Little's law, real learners pausing 12.5 s on average would need
``X × (12.5 + W)`` of them to ask that often: ``class_capacity_per_core``. It is 0 when even the
first step failed. Beside it: each step's p95 (``class_step_<n>_learners_p95_ms``), the simulated
learners and runs per second at that step, and the replica's peak resident memory. The machine
is shared, so every figure here moves with its other load.

**Recording** (``--record``). The bench makes a class through :mod:`ui.class_store` in a database
of its own, SQLite in a temporary directory with one replica (``CLASSROOM_DATA_DIR``), a throwaway
PostgreSQL cluster (:mod:`bench.pg`) shared by all with two or more (``CLASSROOM_DB_URL``); the
learners open the tour with ``class=CODE``, so each first guess is written, during the class run
and the capacity steps alike. Printed: ``class_db`` (the database's kind), the first guesses the
database holds (``class_recorded_guesses``), the first guesses the learners made (their check ran
to its end) that it does not hold, matched by step and guess (``class_lost_guesses``), and the
p95 wait of a reveal, the run that writes the first guess (``class_record_p95_ms``).

**A replica killed** (``--kill-replica``, two replicas or more). Half-way through the class run
the last replica is killed (SIGKILL). Its learners' connections drop; each opens the step it was
on again (:mod:`bench.learner`), nginx sends it to a replica that is up, and it carries on. Those
lost connections are in ``class_errors``; ``class_reopens`` counts the steps opened again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench import Figure, rss
from bench.learner import ACTIONS_PER_WALK, THINK_S

if TYPE_CHECKING:
    from bench.serve import Served
    from ui.class_store import Store

MEAN_THINK_S = sum(THINK_S) / 2
WALK_S = MEAN_THINK_S * (ACTIONS_PER_WALK - 1)  # a real learner's walk, waits aside
P95_LIMIT_S = 1.0
CAPACITY_THINK_SCALE = 0.1


def add_options(parser: argparse.ArgumentParser) -> None:
    """This bench's flags, on ``python -m bench``'s command line."""
    group = parser.add_argument_group("class")
    group.add_argument("--learners", type=int, default=10, help="class: simulated learners (10)")
    group.add_argument("--replicas", type=int, default=2, help="class: app servers behind nginx (2)")
    group.add_argument("--seconds", type=float, default=45, help="class: length of the run (45)")
    group.add_argument("--think-scale", type=float, help="class: times the 5-20 s think time (auto)")
    group.add_argument("--capacity-start", type=int, default=4, help="class: first step's learners (4)")
    group.add_argument("--capacity-steps", type=int, default=5, help="class: at most this many steps (5)")
    group.add_argument("--step-seconds", type=float, default=20, help="class: length of a step (20)")
    group.add_argument("--record", action="store_true", help="class: record first guesses in a class")
    group.add_argument("--kill-replica", action="store_true", help="class: kill a replica half-way")


def think_scale_for(seconds: float) -> float:
    """The think scale at which a walk's pauses take 40% of a run of ``seconds``, at most 1: the
    waits take the rest, and on a loaded machine they are as long as the pauses."""
    return min(1.0, 0.4 * seconds / WALK_S)


@dataclass
class Actions:
    """What the learners' process reported: each action's name, start (s), wait (s) and error."""

    rows: list[tuple[str, float, float, str | None]]
    walks: dict[str, int]
    seconds: float
    locust: dict[str, int] = field(default_factory=dict)
    made: list[tuple[str, float]] = field(default_factory=list)  # first guesses in a class: step, guess

    def after(self, start: float) -> Actions:
        """The actions that started at or after ``start`` seconds (a step's ramp left out)."""
        rows = [r for r in self.rows if r[1] >= start]
        return Actions(rows, self.walks, self.seconds, self.locust, self.made)

    @property
    def waits(self) -> list[float]:
        return [r[2] for r in self.rows if r[3] is None]

    @property
    def errors(self) -> list[str]:
        return [f"{r[0]}: {r[3]}" for r in self.rows if r[3] is not None]

    def quantile(self, q: float, name: str | None = None) -> float:
        waits = [r[2] for r in self.rows if r[3] is None and (name is None or r[0] == name)]
        if len(waits) < 2:
            return waits[0] if waits else float("nan")
        return statistics.quantiles(waits, n=100, method="inclusive")[round(q * 100) - 1]


class Class:
    """``replicas`` app servers on free loopback ports, behind nginx with deploy/nginx.conf on
    ``port`` (a free one when not given); ``env`` is added to the replicas' environment."""

    def __init__(self, replicas: int, port: int | None = None, env: Mapping[str, str] | None = None) -> None:
        from bench.balancer import Balancer
        from bench.serve import Served
        from tests.e2e.conftest import free_port

        self.servers: list[Served] = []
        try:
            with ThreadPoolExecutor(replicas) as pool:  # start together: each takes seconds to boot
                starting = [pool.submit(Served, free_port(), None, env) for _ in range(replicas)]
                for f in starting:
                    with suppress(Exception):
                        self.servers.append(f.result())
            if len(self.servers) < replicas:
                raise RuntimeError("a replica did not start; see artifacts/streamlit-*.log")
            self.balancer = Balancer([f"127.0.0.1:{s.port}" for s in self.servers], port or free_port())
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return self.balancer.url

    def sessions(self) -> Counter[str]:
        """Sessions opened per replica (upstream address): websocket requests in nginx's log."""
        return Counter(r.upstream for r in self.balancer.requests() if r.path == "/_stcore/stream")

    def split_browsers(self) -> dict[str, set[str]]:
        """Browsers (affinity keys) whose requests reached more than one replica."""
        where: dict[str, set[str]] = defaultdict(set)
        for r in self.balancer.requests():
            where[r.key].add(r.upstream)
        return {k: v for k, v in where.items() if len(v) > 1}

    def stop(self) -> None:
        if hasattr(self, "balancer"):
            self.balancer.stop()
        for s in self.servers:  # all at once: each takes a moment to shut down
            s.proc.terminate()
        for s in self.servers:
            s.stop()


@contextmanager
def served(replicas: int, port: int | None = None, env: Mapping[str, str] | None = None) -> Iterator[Class]:
    c = Class(replicas, port, env)
    try:
        yield c
    finally:
        c.stop()


class Learners:
    """:mod:`bench.learners` (Locust) against ``url``, in a process of its own, on ``cpus``.

    It starts at once; with ``wait_seconds`` it first waits that long at most for ``url`` to
    answer a health check, so it can be started while the servers boot (its imports take
    seconds of their own). :meth:`result` waits for it and reads what it measured.
    """

    def __init__(
        self,
        url: str,
        learners: int,
        seconds: float,
        think_scale: float,
        spawn_seconds: float,
        cpus: set[int] | None = None,
        wait_seconds: float = 0,
        class_code: str | None = None,
    ) -> None:
        from tests.e2e.conftest import ROOT

        self.seconds = seconds + wait_seconds
        self.tmp = Path(tempfile.mkdtemp(prefix="class-learners-"))
        self.log = ROOT / "artifacts" / f"class-learners-{url.rsplit(':', 1)[-1]}.log"  # one per target
        self.log.parent.mkdir(exist_ok=True)
        command = [sys.executable, "-m", "bench.learners", "--host", url, "--learners", str(learners)]
        command += ["--seconds", str(seconds), "--think-scale", str(think_scale)]
        command += ["--spawn-seconds", str(spawn_seconds), "--wait-seconds", str(wait_seconds)]
        command += ["--out", str(self.tmp / "actions.json")]
        command += ["--class-code", class_code] if class_code else []
        with open(self.log, "w") as f:
            self.proc = subprocess.Popen(command, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
        if cpus:
            os.sched_setaffinity(self.proc.pid, cpus)

    def result(self) -> Actions:
        try:
            try:
                code = self.proc.wait(timeout=self.seconds + 120)
            except subprocess.TimeoutExpired:
                raise RuntimeError(f"the learners' process hung:\n{self.tail()}") from None
            if code != 0:
                raise RuntimeError(f"the learners' process failed (exit {code}):\n{self.tail()}")
            data = json.loads((self.tmp / "actions.json").read_text(encoding="utf-8"))
            if not data.get("stopped", True):
                raise RuntimeError(f"a learner would not stop:\n{self.tail()}")
        finally:
            self.stop()
        made = [(str(step), float(guess)) for step, guess in data.get("made", [])]
        rows = [tuple(r) for r in data["actions"]]
        return Actions(rows, data["walks"], data["seconds"], data["locust"], made)

    def tail(self, lines: int = 60) -> str:
        """The end of the learners' log (in ``artifacts/``), for a failure's message."""
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:]) or f"(nothing in {self.log})"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


def drive(
    url: str,
    learners: int,
    seconds: float,
    think_scale: float,
    spawn_seconds: float,
    cpus: set[int] | None = None,
    class_code: str | None = None,
) -> Actions:
    """:class:`Learners` against a server already up, to the end of their run."""
    return Learners(url, learners, seconds, think_scale, spawn_seconds, cpus, class_code=class_code).result()


@dataclass
class Recording:
    """The class the learners are in (``--record``): its database and code."""

    store: Store
    code: str
    env: dict[str, str]


@contextmanager
def recording(replicas: int) -> Iterator[Recording]:
    """A class in a database of the bench's own: SQLite for one replica, PostgreSQL for more."""
    import sqlalchemy as sa

    from bench import pg
    from ui.class_store import Store

    with ExitStack() as stack:
        if replicas == 1:
            top = stack.enter_context(tempfile.TemporaryDirectory(prefix="class-db-"))
            url, env = f"sqlite:///{top}/classroom.db", {"CLASSROOM_DATA_DIR": top}
        else:
            url = stack.enter_context(pg.cluster())
            env = {"CLASSROOM_DB_URL": url}
        engine = sa.create_engine(url)
        stack.callback(engine.dispose)
        store = Store(engine)
        code, _key = store.create()
        yield Recording(store, code, env)


def lost(made: list[tuple[str, float]], held: list[tuple[str, float]]) -> int:
    """The first guesses in ``made`` that ``held`` lacks, matched by step and guess (each held one
    matches one made)."""
    return sum((Counter(made) - Counter(held)).values())


def run(quick: bool, options: argparse.Namespace | None = None) -> Iterable[Figure]:
    from bench.balancer import nginx_path

    o = options or argparse.Namespace()
    learners = getattr(o, "learners", 10) if not quick else 6
    replicas = getattr(o, "replicas", 2)
    seconds = getattr(o, "seconds", 45) if not quick else 30
    scale = getattr(o, "think_scale", None) or think_scale_for(seconds)
    kill = bool(getattr(o, "kill_replica", False))
    if kill and replicas < 2:
        raise RuntimeError("--kill-replica needs --replicas 2 or more (one to kill, one to carry on)")
    if nginx_path() is None:
        raise RuntimeError("bench class needs nginx (apt-get install nginx)")
    with ExitStack() as stack:
        rec = stack.enter_context(recording(replicas)) if getattr(o, "record", False) else None
        c = stack.enter_context(served(replicas, env=rec.env if rec else None))
        yield from _class_figures(c, learners, replicas, seconds, scale, rec, kill)
        # Capacity: the first replica alone, warm, on one core.
        c.balancer.stop()
        del c.balancer
        for s in c.servers[1:]:
            s.stop()
        c.servers[:] = c.servers[:1]
        yield from _capacity(
            c.servers[0],
            getattr(o, "capacity_start", 4),
            getattr(o, "capacity_steps", 5) if not quick else 2,
            getattr(o, "step_seconds", 20),
            rec.code if rec else None,
        )


def _class_figures(
    c: Class,
    learners: int,
    replicas: int,
    seconds: float,
    scale: float,
    rec: Recording | None = None,
    kill: bool = False,
) -> Iterable[Figure]:
    yield Figure("class_learners", learners, "learners")
    yield Figure("class_replicas", replicas, "replicas")
    yield Figure("class_think_scale", scale, "× 5-20 s")
    cpu0 = [s.cpu_s() for s in c.servers]
    last: dict[int, tuple[float, float]] = {}  # a killed replica's CPU seconds and peak, just before

    def kill_one() -> None:
        victim = c.servers[-1]
        last[len(c.servers) - 1] = (victim.cpu_s(), rss.peak(victim.proc.pid) / rss.MB)
        victim.proc.kill()
        print(f"# killed replica {len(c.servers)} (port {victim.port})", file=sys.stderr)

    timer = threading.Timer(seconds / 2, kill_one) if kill else None
    if timer is not None:
        timer.start()
    try:
        spawn = min(10.0, seconds / 6)
        acts = drive(
            c.url, learners, seconds, scale, spawn_seconds=spawn, class_code=rec.code if rec else None
        )
    finally:
        if timer is not None:
            timer.cancel()

    def cpu_of(i: int) -> float:
        return last[i][0] if i in last else c.servers[i].cpu_s()

    def peak_of(i: int) -> float:
        return last[i][1] if i in last else rss.peak(c.servers[i].proc.pid) / rss.MB

    cpu = sum(cpu_of(i) - c0 for i, c0 in enumerate(cpu0))
    done = len(acts.waits)
    yield Figure("class_actions", done, "actions")
    yield Figure("class_walks_completed", acts.walks["completed"], "walks")
    yield Figure("class_runs_per_s", done / seconds, "runs/s")
    yield Figure("class_p50_ms", 1000 * acts.quantile(0.5), "ms")
    yield Figure("class_p95_ms", 1000 * acts.quantile(0.95), "ms")
    yield Figure("class_max_ms", 1000 * max(acts.waits, default=float("nan")), "ms")
    yield Figure("class_first_load_p95_ms", 1000 * acts.quantile(0.95, "open"), "ms")
    yield Figure("class_errors", len(acts.errors), "errors")
    for e in acts.errors[:5]:
        print(f"# error: {e}", file=sys.stderr)
    for i in range(len(c.servers)):
        yield Figure(f"class_replica{i + 1}_peak_rss", peak_of(i), "MiB")
    yield Figure("class_cpu_ms_per_action", 1000 * cpu / max(done, 1), "ms")
    sessions = c.sessions()
    for i, s in enumerate(c.servers, 1):
        yield Figure(f"class_replica{i}_sessions", sessions.get(f"127.0.0.1:{s.port}", 0), "sessions")
    yield Figure("class_replicas_served", sum(1 for n in sessions.values() if n > 0), "replicas")
    yield Figure("class_browsers_on_two_replicas", len(c.split_browsers()), "browsers")
    if kill:
        yield Figure("class_reopens", sum(1 for r in acts.rows if r[0] == "reopen"), "reopens")
    if rec is not None:
        held = [(g.step, g.guess) for g in rec.store.guesses(rec.code)]
        yield Figure("class_db", rec.store.dialect, "")
        yield Figure("class_recorded_guesses", len(held), "guesses")
        yield Figure("class_lost_guesses", lost(acts.made, held), "guesses")
        yield Figure("class_record_p95_ms", 1000 * acts.quantile(0.95, "reveal"), "ms")


def _capacity(
    server: Served, start: int, steps: int, step_seconds: float, class_code: str | None = None
) -> Iterable[Figure]:
    """Step the simulated learners on one replica: doubling from ``start`` until a step fails,
    then halving the gap between the last pass and the first failure (below ``start`` when the
    first step fails), at most ``steps`` steps in all."""
    cpus = sorted(os.sched_getaffinity(0))
    pinned = len(cpus) >= 2
    if pinned:  # the replica on one core, the learners on another
        os.sched_setaffinity(server.proc.pid, {cpus[0]})
    cores = 1 if pinned else len(cpus)
    spawn = 2.0
    best = best_rate = 0.0
    passed, failed = 0, 0  # the most learners that passed, the fewest that failed (0: none yet)
    learners = start
    for _ in range(max(steps, 0)):
        acts = drive(
            server.url,
            learners,
            step_seconds,
            CAPACITY_THINK_SCALE,
            spawn_seconds=spawn,
            cpus={cpus[1]} if pinned else None,
            class_code=class_code,
        ).after(spawn)
        p95 = acts.quantile(0.95)
        yield Figure(f"class_step_{learners}_learners_p95_ms", 1000 * p95, "ms")
        if not acts.errors and p95 < P95_LIMIT_S and acts.waits:
            passed = learners
            rate = len(acts.waits) / (step_seconds - spawn)
            best_rate = rate / cores
            best = rate * (MEAN_THINK_S + statistics.fmean(acts.waits)) / cores
        else:
            failed = learners
        learners = (passed + failed) // 2 if failed else 2 * passed
        if learners in (passed, failed) or learners < 1:
            break
    yield Figure("class_capacity_sim_learners", passed, "learners")
    yield Figure("class_capacity_replica_peak_rss", rss.peak(server.proc.pid) / rss.MB, "MiB")
    yield Figure("class_capacity_runs_per_s_per_core", best_rate, "runs/s")
    yield Figure("class_capacity_per_core", best, "learners")
