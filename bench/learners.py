"""``python -m bench.learners``: a class of simulated learners, driven by Locust, in this process.

Locust (used as a library, headless: no web UI, no locustfile) spawns ``--learners`` users, each
walking :func:`bench.learner.walk` again and again (a finished walk's tab is closed and a new
learner arrives), for ``--seconds``; every action is reported to Locust's statistics as a
request and kept whole (its start, wait and error) for the caller, which reads them from the JSON
written to ``--out``.

Run only as its own process (``bench.bench_class`` starts it): importing Locust monkey-patches
the standard library for gevent, which must never happen inside pytest or another bench.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import random
import sys
import time
import urllib.request

import gevent
from locust import User, constant, events, task
from locust.env import Environment

from bench.learner import walk

QUIT_SECONDS = 30  # a walk's action waits 60 s at most; a stop is at most a close away


def healthy(host: str, wait_seconds: float) -> bool:
    """Whether ``host`` answers ``/_stcore/health`` within ``wait_seconds``."""
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            with urllib.request.urlopen(f"{host}/_stcore/health", timeout=5) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        if time.monotonic() >= deadline:
            return False
        gevent.sleep(0.25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.learners")
    parser.add_argument("--host", required=True, help="the app's (or the load balancer's) base URL")
    parser.add_argument("--learners", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--think-scale", type=float, default=1.0, help="times the 5-20 s think time")
    parser.add_argument("--spawn-seconds", type=float, default=5.0, help="all learners arrive within this")
    parser.add_argument("--wait-seconds", type=float, default=0, help="wait this long for the host's health")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--class-code", help="open the tour in this class (its first guesses recorded)")
    parser.add_argument("--out", required=True, help="where to write the actions, as JSON")
    args = parser.parse_args(argv)
    if args.wait_seconds and not healthy(args.host, args.wait_seconds):
        print(f"{args.host} did not answer a health check within {args.wait_seconds:g} s", file=sys.stderr)
        return 1

    t_start = time.perf_counter()
    actions: list[tuple[str, float, float, str | None]] = []  # name, start (s), wait (s), error
    walks = {"started": 0, "completed": 0}
    made: list[tuple[str, float]] = []  # each first guess made in the class: step, guess
    seeds = random.Random(args.seed)

    class Learner(User):
        host = args.host
        wait_time = constant(0)  # the think time is inside the walk, between its actions

        @task
        def one_walk(self) -> None:
            walks["started"] += 1

            def record(name: str, seconds: float, error: str | None) -> None:
                start = time.perf_counter() - seconds - t_start
                actions.append((name, start, seconds, error))
                events.request.fire(
                    request_type="ws",
                    name=name,
                    response_time=seconds * 1000,
                    response_length=0,
                    exception=RuntimeError(error) if error else None,
                    context={},
                )

            rng = random.Random(seeds.getrandbits(32))
            done = walk(
                self.host or args.host,
                rng,
                gevent.sleep,
                record,
                think_scale=args.think_scale,
                class_code=args.class_code,
                made=lambda step, guess: made.append((step, guess)),
            )
            if done:
                walks["completed"] += 1

    env = Environment(user_classes=[Learner], events=events)
    runner = env.create_local_runner()
    runner.start(args.learners, spawn_rate=args.learners / max(args.spawn_seconds, 0.1))
    gevent.sleep(args.seconds)
    # Stopping is bounded: a user that will not die must not hold the class's results for ever.
    # Should it happen, the log shows where every thread stood.
    faulthandler.dump_traceback_later(QUIT_SECONDS + 5, exit=False)
    stopped = gevent.with_timeout(QUIT_SECONDS, runner.quit, timeout_value=False) is None
    faulthandler.cancel_dump_traceback_later()
    if not stopped:
        print(f"the learners did not stop within {QUIT_SECONDS} s", file=sys.stderr)
    total = env.stats.total
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(
            {
                "actions": actions,
                "walks": walks,
                "stopped": stopped,
                "made": made,
                "seconds": time.perf_counter() - t_start,
                "locust": {"requests": total.num_requests, "failures": total.num_failures},
            },
            f,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
