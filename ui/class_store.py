"""What a class shares, in a real database: the classes and each learner's first guess per step.

No Streamlit here: :class:`Store` takes a SQLAlchemy engine (``ui.classroom`` gets it from
``st.connection("classroom", type="sql")``), so the tests and the bench run it the same against
SQLite and PostgreSQL. Every statement is SQLAlchemy Core, so every value is a bound parameter.

What is stored, and nothing else: a class's code, the SHA-256 of its instructor's key, its
sentence, when it was made and when it expires; each learner's anonymous random id, when it joined
and when it was last seen; and each learner's first guess at each step (the guess, whether it was
right, when). The key (class, learner, step) is unique, and an insert that meets it does nothing,
so a second try, a reload or a retried write never writes a second first guess.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

SCHEMA_VERSION = 1
# No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G, U/V: a code read aloud or off a projector is typed right.
ALPHABET = "ACDEFHJKMNPQRTWXY3479"
CODE_LENGTH = 6
CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
LEARNER = re.compile(r"[A-Za-z0-9_-]{16,43}")
STEP = re.compile(r"[a-z][a-z0-9_]{0,39}")
KEY_LENGTH = 43  # secrets.token_urlsafe(32)
SENTENCE_MAX = 200
GUESS_MAX = 1e12  # beyond any answer the tour asks for
WRITES_PER_SECOND = 4  # per learner, per replica (a learner's session stays on its replica)
ACTIVE_S = 300  # a learner seen in the last five minutes is active
RETRIES = (0.05, 0.2, 0.5)  # a write's pauses before trying again

metadata = sa.MetaData()
meta = sa.Table(
    "class_meta",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(64), nullable=False),
)
classes = sa.Table(
    "classes",
    metadata,
    sa.Column("code", sa.String(CODE_LENGTH), primary_key=True),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("sentence", sa.String(SENTENCE_MAX), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)
learners = sa.Table(
    "class_learners",
    metadata,
    sa.Column("code", sa.String(CODE_LENGTH), primary_key=True),
    sa.Column("learner", sa.String(43), primary_key=True),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
)
guesses = sa.Table(
    "class_guesses",
    metadata,
    sa.Column("code", sa.String(CODE_LENGTH), primary_key=True),
    sa.Column("learner", sa.String(43), primary_key=True),
    sa.Column("step", sa.String(40), primary_key=True),
    sa.Column("guess", sa.Float, nullable=False),
    sa.Column("is_right", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

T = TypeVar("T")


class Unavailable(Exception):
    """The database could not be reached or refused the statement, after the retries."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    return secrets.token_urlsafe(32)


def new_learner() -> str:
    return secrets.token_urlsafe(16)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def clean_code(raw: str) -> str | None:
    """A class code as typed (spaces and case forgiven), or None when it cannot be one."""
    code = raw.strip().upper().replace(" ", "").replace("-", "")[: CODE_LENGTH + 1]
    return code if CODE.fullmatch(code) else None


def clean_guess(guess: float, options: int) -> float | None:
    """``guess`` when it can be a guess: an option's index when ``options`` > 0, else a finite number."""
    try:
        g = float(guess)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(g) or abs(g) > GUESS_MAX:
        return None
    if options and (g != int(g) or not 0 <= g < options):
        return None
    return g


@dataclass(frozen=True)
class ClassInfo:
    code: str
    sentence: str | None
    created: float
    expires: float


@dataclass(frozen=True)
class Guess:
    learner: str
    step: str
    guess: float
    right: bool
    at: float


@dataclass(frozen=True)
class Roll:
    joined: int
    active: int


class Store:
    """One database's classes. Every method raises :class:`Unavailable` when the database fails;
    ``ui.classroom`` turns that into a notice."""

    def __init__(self, engine: Engine, hours: float = 24.0, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.hours = hours
        self.clock = clock
        self._ready = False
        self._lock = threading.Lock()
        self._writes: dict[tuple[str, str], deque[float]] = {}

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _retry(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction, tried again briefly on failure; every write here is
        idempotent (an insert that meets its key does nothing), so a retry never duplicates."""
        for pause in (*RETRIES, None):
            try:
                with self.engine.begin() as c:
                    return work(c)
            except SQLAlchemyError as e:
                if pause is None:
                    raise Unavailable(str(e).splitlines()[0][:200]) from e
                time.sleep(pause)
        raise AssertionError("unreachable")

    @contextmanager
    def _ensured(self) -> Iterator[None]:
        if not self._ready:
            with self._lock:
                if not self._ready:
                    self._retry(self._create)
                    self._ready = True
        yield

    def _create(self, c: Connection) -> None:
        if self.dialect == "sqlite":
            c.exec_driver_sql("PRAGMA journal_mode=WAL")  # kept in the file: readers never wait for a writer
        if self.dialect == "postgresql":  # replicas starting together create the schema once
            c.execute(sa.text("SELECT pg_advisory_xact_lock(4545)"))
        metadata.create_all(c, checkfirst=True)
        have = c.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar()
        if have is None:
            c.execute(sa.insert(meta).values(name="schema_version", value=str(SCHEMA_VERSION)))

    def schema_version(self) -> int:
        with self._ensured():
            v = self._retry(
                lambda c: c.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar()
            )
        return int(str(v))

    def _insert_new(self, table: sa.Table, **values: object) -> sa.Insert:
        """An insert that does nothing when its key is there already (SQLite and PostgreSQL)."""
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table).values(**values).on_conflict_do_nothing()
        from sqlalchemy.dialects.sqlite import insert as lite_insert

        return lite_insert(table).values(**values).on_conflict_do_nothing()

    # The instructor's side.

    def create(self, sentence: str | None = None) -> tuple[str, str]:
        """A new class: its code and its instructor's key (only the key's hash is stored)."""
        with self._ensured():
            self.expire()
            key = new_key()
            now = self.clock()
            kept = (sentence or None) and sentence[:SENTENCE_MAX]

            def add(c: Connection, code: str) -> bool:
                row = c.execute(
                    self._insert_new(
                        classes,
                        code=code,
                        key_hash=key_hash(key),
                        sentence=kept,
                        created=now,
                        expires=now + self.hours * 3600,
                    ).returning(classes.c.code)
                ).first()
                return row is not None

            for _ in range(20):  # a code taken already: draw another
                code = new_code()
                if self._retry(partial(add, code=code)):
                    return code, key
        raise Unavailable("no free class code")

    def find(self, code: str) -> ClassInfo | None:
        """The class ``code``, or None when there is none or it has expired."""
        with self._ensured():
            row = self._retry(
                lambda c: c.execute(
                    sa.select(classes.c.code, classes.c.sentence, classes.c.created, classes.c.expires).where(
                        classes.c.code == code
                    )
                ).first()
            )
        if row is None or row.expires <= self.clock():
            return None
        return ClassInfo(row.code, row.sentence, row.created, row.expires)

    def is_instructor(self, code: str, key: str) -> bool:
        """Whether ``key`` is the class's key, compared in constant time with the stored hash."""
        with self._ensured():
            stored = self._retry(
                lambda c: c.execute(
                    sa.select(classes.c.key_hash).where(
                        classes.c.code == code, classes.c.expires > self.clock()
                    )
                ).scalar()
            )
        return hmac.compare_digest(key_hash(key[: KEY_LENGTH + 1]), stored or "0" * 64) and stored is not None

    def end(self, code: str) -> None:
        """Delete the class and everything its learners wrote."""
        with self._ensured():
            self._retry(lambda c: self._delete(c, [code]))

    def expire(self) -> int:
        """Delete every expired class with its records; how many classes went."""
        with self._ensured():

            def work(c: Connection) -> int:
                gone = [
                    r[0]
                    for r in c.execute(sa.select(classes.c.code).where(classes.c.expires <= self.clock()))
                ]
                self._delete(c, gone)
                return len(gone)

            return self._retry(work)

    @staticmethod
    def _delete(c: Connection, codes: list[str]) -> None:
        if codes:
            for table in (guesses, learners, classes):
                c.execute(sa.delete(table).where(table.c.code.in_(codes)))

    def roll(self, code: str) -> Roll:
        with self._ensured():
            since = self.clock() - ACTIVE_S
            row = self._retry(
                lambda c: c.execute(
                    sa.select(
                        sa.func.count(),
                        sa.func.coalesce(sa.func.sum(sa.case((learners.c.seen >= since, 1), else_=0)), 0),
                    ).where(learners.c.code == code)
                ).one()
            )
        return Roll(int(row[0]), int(row[1]))

    def guesses(self, code: str, step: str | None = None) -> list[Guess]:
        """The first guesses of class ``code`` (at ``step`` only, when given)."""
        with self._ensured():
            q = sa.select(guesses).where(guesses.c.code == code)
            if step is not None:
                q = q.where(guesses.c.step == step)
            rows = self._retry(lambda c: c.execute(q).all())
        return [Guess(r.learner, r.step, float(r.guess), bool(r.is_right), float(r.at)) for r in rows]

    # The learner's side.

    def allowed(self, code: str, learner: str) -> bool:
        """At most ``WRITES_PER_SECOND`` writes a second from one learner (this replica's count)."""
        now = time.monotonic()
        with self._lock:
            times = self._writes.setdefault((code, learner), deque())
            while times and times[0] <= now - 1:
                times.popleft()
            if len(times) >= WRITES_PER_SECOND:
                return False
            times.append(now)
            if len(self._writes) > 10_000:  # forget the quiet ones
                for k in [k for k, v in self._writes.items() if not v or v[-1] <= now - 1]:
                    del self._writes[k]
            return True

    def join(self, code: str, learner: str) -> None:
        with self._ensured():
            now = self.clock()
            self._retry(
                lambda c: c.execute(
                    self._insert_new(learners, code=code, learner=learner, joined=now, seen=now)
                )
            )

    def record(self, code: str, learner: str, step: str, guess: float, right: bool) -> bool:
        """Keep ``learner``'s first guess at ``step``; False when one was kept already."""
        with self._ensured():
            now = self.clock()

            def work(c: Connection) -> bool:
                c.execute(self._insert_new(learners, code=code, learner=learner, joined=now, seen=now))
                c.execute(
                    sa.update(learners)
                    .where(learners.c.code == code, learners.c.learner == learner)
                    .values(seen=now)
                )
                added = c.execute(
                    self._insert_new(
                        guesses,
                        code=code,
                        learner=learner,
                        step=step,
                        guess=float(guess),
                        is_right=right,
                        at=now,
                    ).returning(guesses.c.step)
                ).first()
                return added is not None

            return self._retry(work)
