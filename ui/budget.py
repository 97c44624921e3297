"""One process-wide budget for heavy work, shared fairly: a first-come, first-served queue.

Why. Community Cloud runs the whole app in one process with 690 MB in all. Four computations
here are heavy: Dropout's draws, the brute-force √d_k sampler, Learning's training and
Multi-head's Measure. Each is cached per setting, but twenty readers who each ask for a new
setting at once would run twenty working sets side by side; the server would be killed. So each
heavy computation declares its working set in bytes and waits for its turn here: the computations
in flight never hold more than :data:`CAPACITY` bytes together, nor more than :data:`WORKERS` at
once: one core fewer than the machine has (at least one, at most two), so that one core is always
left for the readers who are only moving a control; more would slice the same CPU thinner and
hold more memory.

Fair. The queue is strict first come, first served: a large job at the head is not overtaken by
small ones behind it, so it never starves. A job larger than the whole capacity runs alone.

Seen. A reader who waits sees their place: the page opens a :func:`waiting_room` around the
cached call, and while the computation inside waits for its turn, the room says how many readers'
computations are ahead. The room lives outside the cached function, and its messages are never
recorded into the cache (they would be replayed to the next reader, who did not wait).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import streamlit as st

from ui.cache import MB

CAPACITY = 160 * MB  # the working sets in flight; the server idles near 185 MB, its caches hold ≤ 64 MB
WORKERS = max(1, min(2, (os.cpu_count() or 1) - 1))  # heavy jobs at once
POLL_S = 0.25  # how often a waiting reader's place is refreshed

Notify = Callable[[int], None]  # called with the number of jobs ahead while a job waits
_ROOM: contextvars.ContextVar[Notify | None] = contextvars.ContextVar("budget_room", default=None)


@dataclass(eq=False)
class _Ticket:
    cost: int


class Budget:
    """At most ``capacity`` bytes and ``workers`` jobs in flight; the rest wait in arrival order."""

    def __init__(self, capacity: int = CAPACITY, workers: int = WORKERS) -> None:
        self.capacity, self.workers = capacity, workers
        self._cond = threading.Condition()
        self._queue: deque[_Ticket] = deque()
        self._running: list[_Ticket] = []

    def _fits(self, ticket: _Ticket) -> bool:
        if not self._running:
            return True  # alone, any job runs: even one larger than the capacity
        in_use = sum(t.cost for t in self._running)
        return len(self._running) < self.workers and in_use + ticket.cost <= self.capacity

    @contextlib.contextmanager
    def turn(self, cost: int, notify: Notify | None = None) -> Iterator[None]:
        """Wait for this job's turn (``notify(ahead)`` every :data:`POLL_S` while waiting), run the
        block, then give the turn back, even when the block raises or the reader leaves."""
        ticket = _Ticket(max(0, int(cost)))
        with self._cond:
            self._queue.append(ticket)
        try:
            while True:
                with self._cond:
                    if self._queue[0] is ticket and self._fits(ticket):
                        self._queue.popleft()
                        self._running.append(ticket)
                        self._cond.notify_all()
                        break
                    ahead = len(self._running) + self._queue.index(ticket)
                if notify is not None:
                    notify(ahead)  # may raise: a reader who left stops waiting here
                with self._cond:
                    if not (self._queue[0] is ticket and self._fits(ticket)):
                        self._cond.wait(POLL_S)
        except BaseException:
            with self._cond:
                if ticket in self._queue:
                    self._queue.remove(ticket)
                    self._cond.notify_all()
            raise
        try:
            yield
        finally:
            with self._cond:
                self._running.remove(ticket)
                self._cond.notify_all()

    def load(self) -> tuple[int, int, int]:
        """Jobs running, jobs waiting, and the bytes the running ones declared."""
        with self._cond:
            return len(self._running), len(self._queue), sum(t.cost for t in self._running)


BUDGET = Budget()


def place(ahead: int) -> str:
    """What a waiting reader reads."""
    who = "1 other reader's computation is" if ahead == 1 else f"{ahead} other readers' computations are"
    return (
        f"Waiting for the server: {who} ahead of yours. Heavy work runs a few at a time, in order "
        "of arrival, so that the server stays within its memory."
    )


@contextlib.contextmanager
def waiting_room() -> Iterator[None]:
    """Around a cached call that may run heavy work: while that work waits for its turn, a message
    here tells the reader their place; it disappears once the work starts."""
    slot = st.empty()
    shown: list[int] = []  # the places shown so far

    def notify(ahead: int) -> None:
        if not shown or shown[-1] != ahead:
            with unrecorded():
                slot.info(place(ahead), icon=":material/hourglass_top:")
            shown.append(ahead)

    token = _ROOM.set(notify)
    try:
        yield
    finally:
        _ROOM.reset(token)
        if shown:
            with unrecorded():
                slot.empty()


@contextlib.contextmanager
def heavy(cost: int) -> Iterator[None]:
    """Inside a cached function's body: wait for a turn for ``cost`` bytes of working set, telling
    the page's :func:`waiting_room` (if any) the reader's place."""
    notify = _ROOM.get()

    def told(ahead: int) -> None:
        if notify is not None:
            with unrecorded():
                notify(ahead)

    with BUDGET.turn(cost, told):
        yield


@contextlib.contextmanager
def unrecorded() -> Iterator[None]:
    """Write to the page without the write being recorded into the cached function that is running
    (Streamlit replays what a cached function draws; a waiting message must not be replayed)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import in_cached_function
    except ImportError:  # a Streamlit without it records nothing to undo
        yield
        return
    token = in_cached_function.set(False)
    try:
        yield
    finally:
        in_cached_function.reset(token)
