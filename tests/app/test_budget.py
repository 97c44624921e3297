"""The heavy-work budget: bytes and jobs in flight stay inside it, arrival order is kept, a waiting
job is told its place, and a job that raises or is abandoned gives its turn back."""

from __future__ import annotations

import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from ui.budget import Budget, place


def _start(budget: Budget, cost: int, log: list[str], name: str, hold: threading.Event, told: list[int]):
    def job() -> None:
        with budget.turn(cost, told.append):
            log.append(f"{name} start")
            hold.wait(5)
            log.append(f"{name} end")

    t = threading.Thread(target=job, daemon=True)
    t.start()
    return t


def _until(predicate, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def test_a_job_waits_while_the_bytes_in_flight_would_pass_the_capacity_and_is_told_its_place():
    budget = Budget(capacity=100, workers=4)
    log: list[str] = []
    first, second = threading.Event(), threading.Event()
    told_a: list[int] = []
    told_b: list[int] = []
    a = _start(budget, 70, log, "a", first, told_a)
    _until(lambda: "a start" in log)
    b = _start(budget, 40, log, "b", second, told_b)
    _until(lambda: budget.load()[1] == 1)
    assert told_b and told_b[-1] == 1  # one job ahead: the running one
    assert budget.load() == (1, 1, 70)
    first.set()
    a.join(5)
    _until(lambda: "b start" in log)
    second.set()
    b.join(5)
    assert log == ["a start", "a end", "b start", "b end"]
    assert told_a == [] and budget.load() == (0, 0, 0)


def test_jobs_that_fit_run_together_up_to_the_worker_count():
    budget = Budget(capacity=100, workers=2)
    log: list[str] = []
    hold = threading.Event()
    told: list[int] = []
    threads = [_start(budget, 10, log, n, hold, told) for n in "abc"]
    _until(lambda: budget.load()[0] == 2 and budget.load()[1] == 1)
    hold.set()
    for t in threads:
        t.join(5)
    assert sorted(x for x in log if x.endswith("start")) == ["a start", "b start", "c start"]
    assert 2 in told or 1 in told  # the third was told its place while two ran


def test_the_head_of_the_queue_is_not_overtaken_by_a_smaller_job():
    budget = Budget(capacity=100, workers=4)
    log: list[str] = []
    holds = [threading.Event() for _ in range(3)]
    big_running = _start(budget, 60, log, "a", holds[0], [])
    _until(lambda: "a start" in log)
    big_waiting = _start(budget, 60, log, "b", holds[1], [])
    _until(lambda: budget.load()[1] == 1)
    small = _start(budget, 10, log, "c", holds[2], [])
    _until(lambda: budget.load()[1] == 2)
    time.sleep(0.1)
    assert "c start" not in log  # 10 bytes would fit beside a, but b came first
    for h in holds:
        h.set()
    for t in (big_running, big_waiting, small):
        t.join(5)
    assert log.index("b start") < log.index("c start")


def test_a_job_larger_than_the_capacity_runs_alone():
    budget = Budget(capacity=100, workers=2)
    with budget.turn(500):
        assert budget.load() == (1, 0, 500)
    assert budget.load() == (0, 0, 0)


def test_a_job_that_raises_gives_its_turn_back():
    budget = Budget(capacity=100, workers=1)
    with pytest.raises(ValueError), budget.turn(50):
        raise ValueError
    assert budget.load() == (0, 0, 0)


def test_a_reader_who_leaves_while_waiting_leaves_the_queue():
    budget = Budget(capacity=100, workers=1)
    hold = threading.Event()
    a = _start(budget, 10, [], "a", hold, [])
    _until(lambda: budget.load()[0] == 1)

    def leave(ahead: int) -> None:
        raise RuntimeError("the reader closed the tab")  # Streamlit's stop arrives as an exception

    with pytest.raises(RuntimeError), budget.turn(10, leave):
        pass
    assert budget.load() == (1, 0, 10)
    hold.set()
    a.join(5)


def test_the_place_is_said_in_words():
    assert place(1) == (
        "Waiting for the server: 1 other reader's computation is ahead of yours. Heavy work runs a few "
        "at a time, in order of arrival, so that the server stays within its memory."
    )
    assert place(3).startswith("Waiting for the server: 3 other readers' computations are ahead")


SCRIPT = """
import threading
import streamlit as st
from ui import budget, cache

@cache.data(entry_bytes=1024, entries=2, worst=lambda: [(1,)])
def work(x: int) -> int:
    with budget.heavy(10):
        return x + 1

if st.session_state.get("block"):
    budget.BUDGET = budget.Budget(capacity=100, workers=1)
    hold = threading.Event()
    st.session_state["hold"] = hold
    def other():
        with budget.BUDGET.turn(10):
            hold.wait(5)
    threading.Thread(target=other, daemon=True).start()
    import time
    while budget.BUDGET.load()[0] == 0:
        time.sleep(0.01)
    threading.Timer(0.6, hold.set).start()
with budget.waiting_room():
    st.write(f"result {work(1)}")
"""


def test_the_waiting_message_is_never_replayed_from_the_cache():
    """A reader who waited saw the message while waiting; the next reader, served from the cache,
    sees only the result (what the cached function drew while it waited was not recorded)."""
    at = AppTest.from_string(SCRIPT, default_timeout=20)
    at.session_state["block"] = True
    at.run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["result 2"]
    assert not at.info  # the room emptied itself once the work began
    again = AppTest.from_string(SCRIPT, default_timeout=20)
    again.run()
    assert [m.value for m in again.markdown] == ["result 2"] and not again.info
