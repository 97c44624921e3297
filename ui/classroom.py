"""A class that learns together, on the Streamlit side: the database through
``st.connection("classroom", type="sql")``, and the tour's two calls.

- **Where.** By default a SQLite file (WAL mode) in ``CLASSROOM_DATA_DIR`` (``data/`` beside the app),
  so ``streamlit run`` needs nothing more. A URL in ``.streamlit/secrets.toml``
  (``[connections.classroom] url = "postgresql+psycopg://..."``) or in ``CLASSROOM_DB_URL`` makes
  every replica share one database. ``CLASSROOM_HOURS`` (24) is how long a class lives.
- **Faults.** Nothing here raises: a database that cannot be reached leaves the tour solo, with a
  one-line notice, and the Class page says so (:func:`store` is None).
- **The tour.** :func:`tour_notice` (one line under the tour's title) and :func:`record_first_guess`
  (where a prediction's verdict is decided) are all the tour calls.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import streamlit as st

from ui.class_store import LEARNER, STEP, Store, Unavailable, clean_code, clean_guess, new_learner

CONNECTION = "classroom"
QUERY_KEY = "class"
_CODE = "_class_code"  # the class this session's learner is in
_LEARNER = "_class_learner"  # this session's anonymous learner id
_SENT = "_class_sent"  # the steps whose first guess this session has sent
_JOINED = "_class_joined"
_WAITED = "_class_waited"  # a run has passed: the browser has had its turn to send its learner id
_DOWN = "_class_down"  # the database failed in this session: say so once, go solo

_stores: dict[str, Store] = {}
_failed: dict[str, float] = {}  # a database that could not be opened: when, so it is tried again later
RETRY_S = 30.0
_lock = threading.Lock()


def data_dir() -> Path:
    return Path(os.environ.get("CLASSROOM_DATA_DIR") or Path(__file__).resolve().parent.parent / "data")


def hours() -> float:
    try:
        h = float(os.environ.get("CLASSROOM_HOURS", "24"))
    except ValueError:
        return 24.0
    return h if 0 < h <= 24 * 30 else 24.0


def _secrets_url() -> str | None:
    try:
        return str(st.secrets["connections"][CONNECTION]["url"])
    except Exception:  # no secrets file, no such section: the default database
        return None


def store() -> Store | None:
    """This process's store of classes, or None when its database cannot be opened."""
    url = os.environ.get("CLASSROOM_DB_URL") or None
    where = url or _secrets_url() or f"sqlite:///{data_dir() / 'classroom.db'}"
    with _lock:
        if where in _stores:
            return _stores[where]
        if time.monotonic() - _failed.get(where, -RETRY_S) < RETRY_S:
            return None
        try:
            if url is None and _secrets_url() is None:
                data_dir().mkdir(parents=True, exist_ok=True)
                conn = st.connection(CONNECTION, type="sql", url=where, connect_args={"timeout": 5})
            elif url is not None:
                conn = st.connection(CONNECTION, type="sql", url=url, pool_pre_ping=True)
            else:
                conn = st.connection(CONNECTION, type="sql", pool_pre_ping=True)
            s = Store(conn.engine, hours())
            s.schema_version()  # the schema, created on first use
        except Exception:  # an unreachable server, a bad URL, a missing driver: solo
            _failed[where] = time.monotonic()
            return None
        _stores[where] = s
        return s


def learner() -> str:
    """This learner's anonymous id: random, never a name or an address. The one the browser keeps
    (:func:`adopt_learner`), so a reload or another replica is the same learner; a session's own
    when the browser keeps no storage (or has not answered yet)."""
    if _LEARNER not in st.session_state:
        st.session_state[_LEARNER] = new_learner()
    return str(st.session_state[_LEARNER])


def adopt_learner(raw: object) -> None:
    """Take the learner id the browser keeps (the tour's storage element sends it on a session's
    first run) when it is one: from then on this session writes as that learner."""
    if isinstance(raw, str) and LEARNER.fullmatch(raw) and raw != st.session_state.get(_LEARNER):
        st.session_state[_LEARNER] = raw
        st.session_state.pop(_JOINED, None)  # joined (if at all) under the session's id: join again


def current_class() -> str | None:
    return st.session_state.get(_CODE)


def link_value(name: str, longest: int) -> str | None:
    """The link's one value for ``name``, at most ``longest`` characters; None, with a message when
    the link gave something else (the Class page's class, instructor key and projected step)."""
    values = st.query_params.get_all(name)
    if len(values) != 1 or not values[0] or len(values[0]) > longest:
        if values:
            st.warning(f"The link's {name} is not one this app makes, so it is left aside.")
        return None
    return values[0]


def tour_notice() -> None:
    """One line on the tour: the class the learner is in (from the link's ``class``), or why not."""
    raw = st.query_params.get_all(QUERY_KEY)
    if raw:
        code = clean_code(raw[0]) if len(raw) == 1 and len(raw[0]) <= 40 else None
        if code is None:
            st.session_state.pop(_CODE, None)
            st.warning("That class code is not one this app makes: you are reading on your own.")
            return
        s = store()
        try:
            found = s is not None and s.find(code) is not None
        except Unavailable:
            s = None
        if s is None:
            st.caption("The class's database cannot be reached: you are reading on your own for now.")
            return
        if not found:
            st.session_state.pop(_CODE, None)
            st.warning(f"There is no class {code} (it may have ended): you are reading on your own.")
            return
        st.session_state[_CODE] = code
    code = current_class()
    if code is None:
        return
    if st.session_state.get(_DOWN):
        st.caption("The class's database cannot be reached: your guesses stay with you for now.")
        return
    first_run = not st.session_state.get(_WAITED)  # the browser's learner id arrives after it
    st.session_state[_WAITED] = True
    if not first_run and st.session_state.get(_JOINED) != code and (s := store()) is not None:
        try:
            s.join(code, learner())
            st.session_state[_JOINED] = code
        except Unavailable:
            st.session_state[_DOWN] = True
    st.caption(
        f"You are in class {code}: your first guess at each prediction is shared, anonymously, "
        "with its instructor."
    )


def record_first_guess(step: str, guess: float, right: bool, options: int = 0) -> None:
    """Share the learner's first guess at ``step`` with their class (if they are in one). Only the
    first is kept: this session sends each step once, and the database keeps one per learner and
    step whatever it is sent. Never raises."""
    code = current_class()
    sent = st.session_state.setdefault(_SENT, set())
    if code is None or (code, step) in sent or not STEP.fullmatch(step):
        return
    g = clean_guess(guess, options)
    s = store()
    if g is None or s is None or not s.allowed(code, learner()):
        return
    try:
        s.record(code, learner(), step, g, bool(right))
        sent.add((code, step))
    except Unavailable:
        st.session_state[_DOWN] = True
