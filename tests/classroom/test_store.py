"""The class store (ui.class_store), against SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from ui.class_store import (
    ALPHABET,
    CODE,
    SCHEMA_VERSION,
    WRITES_PER_SECOND,
    Store,
    Unavailable,
    clean_code,
    clean_guess,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(db_url: str) -> Store:
    return Store(sa.create_engine(db_url), hours=24, clock=Clock())


def test_the_schema_is_made_on_first_use_with_its_version(store: Store) -> None:
    assert store.schema_version() == SCHEMA_VERSION
    assert {"classes", "class_guesses", "class_learners", "class_meta"} <= set(
        sa.inspect(store.engine).get_table_names()
    )
    if store.dialect == "sqlite":
        with store.engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_two_replicas_starting_together_make_one_schema(db_url: str) -> None:
    stores = [Store(sa.create_engine(db_url)) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda s: s.schema_version(), stores)) == [SCHEMA_VERSION] * 4


def test_a_class_has_a_short_unambiguous_code_and_a_key_kept_only_as_a_hash(store: Store) -> None:
    code, key = store.create("the cat sat")
    assert CODE.fullmatch(code) and not set("0O1IL2Z5S8B") & set(code)
    assert len(key) >= 40
    with store.engine.connect() as c:
        stored = " ".join(str(v) for row in c.execute(sa.text("SELECT * FROM classes")) for v in row)
    assert key not in stored
    assert (info := store.find(code)) is not None and info.sentence == "the cat sat"
    assert store.is_instructor(code, key)
    assert not store.is_instructor(code, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert not store.is_instructor(code, "' OR 1=1 --")
    assert not store.is_instructor("ACDEFH" if code != "ACDEFH" else "ACDEFJ", key)


def test_only_the_first_guess_per_learner_and_step_is_kept(store: Store) -> None:
    code, _ = store.create()
    assert store.record(code, "learner-one-aaaaaaaa", "weightless", 1, True)
    assert not store.record(code, "learner-one-aaaaaaaa", "weightless", 2, False)  # a second try
    assert store.record(code, "learner-two-bbbbbbbb", "weightless", 2, False)
    got = sorted((g.learner, g.guess, g.right) for g in store.guesses(code, "weightless"))
    assert got == [("learner-one-aaaaaaaa", 1.0, True), ("learner-two-bbbbbbbb", 2.0, False)]
    assert store.roll(code).joined == 2 and store.roll(code).active == 2


def test_concurrent_identical_writes_keep_one_guess(store: Store) -> None:
    code, _ = store.create()
    go = threading.Barrier(6)

    def write(_: int) -> bool:
        go.wait()
        return store.record(code, "learner-same-cccccccc", "huddle", 3.0, False)

    with ThreadPoolExecutor(6) as pool:
        kept = list(pool.map(write, range(6)))
    assert sum(kept) == 1
    assert len(store.guesses(code)) == 1


def test_sql_in_a_value_is_only_ever_a_value(store: Store) -> None:
    code, _ = store.create("'); DROP TABLE classes; --")
    assert (info := store.find(code)) is not None and info.sentence == "'); DROP TABLE classes; --"
    store.record(code, "x'; DELETE FROM class_guesses; --", "weightless", 0, True)
    assert store.find("' OR '1'='1") is None
    assert len(store.guesses(code)) == 1


def test_end_class_and_expiry_delete_the_records(store: Store) -> None:
    clock = store.clock
    assert isinstance(clock, Clock)
    ended, _ = store.create()
    kept, _ = store.create()
    for code in (ended, kept):
        store.record(code, "learner-ddddddddddddd", "weightless", 0, True)
    store.end(ended)
    assert store.find(ended) is None and store.guesses(ended) == [] and store.roll(ended).joined == 0
    assert len(store.guesses(kept)) == 1
    clock.now += 24 * 3600 + 1
    assert store.find(kept) is None  # expired: gone for the learners at once
    assert store.expire() == 1
    with store.engine.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM class_guesses")).scalar() == 0
        assert c.execute(sa.text("SELECT count(*) FROM classes")).scalar() == 0


def test_a_learner_writes_at_most_a_few_times_a_second(store: Store) -> None:
    allowed = [store.allowed("ACDEFH", "learner-eeeeeeeeeeee") for _ in range(WRITES_PER_SECOND + 3)]
    assert allowed == [True] * WRITES_PER_SECOND + [False] * 3
    assert store.allowed("ACDEFH", "learner-ffffffffffff")  # another learner is not held back


def test_an_unreachable_database_raises_only_unavailable_after_brief_retries() -> None:
    s = Store(sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none"))
    with pytest.raises(Unavailable):
        s.find("ACDEFH")


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("acd efh", "ACDEFH"),
        ("ACD-EFH", "ACDEFH"),
        ("ACDEF0", None),
        ("<b>x</b>", None),
        ("A" * 10_000, None),
        ("", None),
    ],
)
def test_codes_as_typed(raw: str, want: str | None) -> None:
    assert clean_code(raw) == want
    assert set(ALPHABET) <= set("ACDEFHJKMNPQRTWXY3479")


@pytest.mark.parametrize(
    ("guess", "options", "want"),
    [
        (2, 4, 2.0),
        (4, 4, None),
        (-1, 4, None),
        (1.5, 4, None),
        (float("nan"), 0, None),
        (float("inf"), 0, None),
        (1e300, 0, None),
        (-0.25, 0, -0.25),
    ],
)
def test_guesses_out_of_range_are_refused(guess: float, options: int, want: float | None) -> None:
    assert clean_guess(guess, options) == want
