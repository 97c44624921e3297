"""One learner in a class, as the instructor's Read along link brings them in (issue 37).

The learner opens a shared step (``/read-along?step=N``), walks ``STEPS`` steps with Next,
predicts and reveals the answer on half of them (where the step asks a question), then opens two
topic pages from the steps' "whole page" links and moves one control on each. Between actions
they think: 5 to 20 s, uniformly (a paragraph and a figure to read), times ``think_scale`` (a
short run scales it down so a walk still ends inside the run; ``bench.bench_class`` says so).

Every action is one message on the session's websocket and waits for its run's
``script_finished`` (:class:`bench.stream.Session`); ``record`` receives each action's name, wait
and error (None when it went well). An exception on the page, a compile error or a lost
connection ends the walk: the learner's tab is broken, as it would be in a browser.

**In a class** (``class_code``, ``python -m bench class --record``) the learner opens the tour with
``class=CODE``, so the tour records each first guess, and tells ``made`` each first guess it
made (the step's key and the guess as the tour records it: a choice's index, or the number) once
its check has run. A connection lost during the tour (a replica killed, ``--kill-replica``) no
longer ends the walk, nor does one while the tour first opens: the learner opens the step they
were on again in a new tab (nginx sends it to a replica that is up), as a browser reloading
would, and carries on; a step whose first guess was made already is not guessed again. Only one
such reopening a walk.

No gevent here: Locust's process calls :func:`walk` with a gevent sleep, a test may call it with
``time.sleep``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial

from bench.stream import MOVABLE, Run, Session, SessionError
from ui.pages import SHARED_KEYS

STEPS = 10
TOUR = 24  # the tour's steps (topics/read_along/steps, 5 s to import here; a test holds them equal)
THINK_S = (5.0, 20.0)  # a learner's pause before each action, before scaling
NEXT, GUESS, CHECK = "read_along_next", "_read_along_guess_", "_read_along_check_"
ACTIONS_PER_WALK = 1 + (STEPS - 1) + 2 * (STEPS // 2) + 4  # open, Next, guess + reveal, 2 × (page, control)

Record = Callable[[str, float, "str | None"], None]
Made = Callable[[str, float], None]


def walk(
    base_url: str,
    rng: random.Random,
    think: Callable[[float], None],
    record: Record,
    think_scale: float = 1.0,
    class_code: str | None = None,
    made: Made | None = None,
) -> bool:
    """One learner's walk on ``base_url``; True when it got to the end without an error (or, in a
    class, with one lost connection it recovered from)."""

    def pause() -> None:
        think(rng.uniform(*THINK_S) * think_scale)

    def act(name: str, action: Callable[[], Run]) -> Run:
        t0 = time.perf_counter()
        try:
            run = action()
        except (SessionError, KeyError, OSError) as e:
            record(name, time.perf_counter() - t0, f"{type(e).__name__}: {e}")
            raise
        record(name, time.perf_counter() - t0, None)
        return run

    def query(step: int) -> str:
        return f"step={step}" + (f"&class={class_code}" if class_code else "")

    session = Session(base_url, color_scheme=rng.choice(("light", "dark")))
    reopens = 1 if class_code else 0
    try:
        start = rng.randint(1, TOUR - STEPS + 1)  # a walk of 10 fits
        try:
            run = act("open", partial(session.open, "read-along", query(start)))
        except (SessionError, OSError):
            if reopens == 0 or session.ws is not None:
                raise
            reopens -= 1
            session = Session(base_url, color_scheme=session.color_scheme)
            run = act("reopen", partial(session.open, "read-along", query(start)))
        reveal = set(rng.sample(range(STEPS), STEPS // 2))
        links: dict[str, object] = {}  # page script hash -> a step's "whole page" link to it
        guessed: set[str] = set()  # the steps whose first guess was made (and checked)
        i = 0
        while i < STEPS:
            try:
                for link in run.links:
                    if "open_in_new" in link.icon:  # the step's link to its topic page
                        links.setdefault(link.page_script_hash, link)
                guess = next((k for k in run.widgets if k.startswith(GUESS)), None)
                if i in reveal and guess is not None and guess not in guessed:
                    pause()
                    w = run.widgets[guess]
                    if w.kind == "radio":
                        options = list(w.proto.options)
                        said = rng.randrange(len(options))
                        run = act("guess", partial(session.choose, guess, options[said]))
                    else:
                        said = rng.randint(0, 12)
                        run = act("guess", partial(session.enter, guess, float(said)))
                    check = next((k for k in run.widgets if k.startswith(CHECK)), CHECK)  # KeyError if gone
                    pause()
                    run = act("reveal", partial(session.click, check))
                    guessed.add(guess)
                    if made is not None:
                        made(guess.removeprefix(GUESS), float(said))
                if i < STEPS - 1:
                    if session.widgets[NEXT].proto.disabled:
                        break
                    pause()
                    run = act("next", partial(session.click, NEXT))
                i += 1
            except (SessionError, OSError):
                if reopens == 0 or session.ws is not None:  # not a lost connection: the tab is broken
                    raise
                reopens -= 1
                session = Session(base_url, color_scheme=session.color_scheme)
                run = act("reopen", partial(session.open, "read-along", query(start + i)))
        for link in rng.sample(list(links.values()), min(2, len(links))):
            pause()
            run = act("topic", partial(session.follow, link))
            controls = [
                k
                for k, w in run.widgets.items()
                if w.kind in MOVABLE and not w.proto.disabled and k not in SHARED_KEYS
            ]
            if controls:
                pause()
                act("control", partial(session.move, rng.choice(controls), rng))
        return True
    except (SessionError, KeyError, OSError):
        return False
    finally:
        session.close()
