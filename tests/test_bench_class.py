"""``python -m bench class --record --kill-replica``: the flags' plumbing, without a class run (the
run itself takes minutes: its figures are in the README)."""

from __future__ import annotations

import argparse

import pytest
import sqlalchemy as sa

from bench.bench_class import add_options, lost, recording, run
from ui import classroom
from ui.class_store import Store


def test_the_flags_are_off_unless_given():
    parser = argparse.ArgumentParser()
    add_options(parser)
    assert not parser.parse_args([]).record
    assert not parser.parse_args([]).kill_replica
    given = parser.parse_args(["--record", "--kill-replica", "--replicas", "3"])
    assert given.record and given.kill_replica and given.replicas == 3


def test_killing_the_only_replica_is_refused_before_anything_starts():
    options = argparse.Namespace(replicas=1, kill_replica=True, record=False)
    with pytest.raises(RuntimeError, match="--kill-replica needs --replicas 2"):
        next(iter(run(quick=True, options=options)))


def test_a_lost_guess_is_one_made_that_the_database_lacks():
    made = [("dot", 3.0), ("dot", 3.0), ("dot", 5.0), ("softmax", 1.0)]
    assert lost(made, made) == 0
    assert lost(made, [("dot", 3.0), ("softmax", 1.0)]) == 2  # one 3 and the 5
    assert lost(made, [*made, ("dot", 7.0)]) == 0  # a write the learner never saw end is no loss


def test_one_replica_records_in_the_sqlite_file_the_app_opens(monkeypatch: pytest.MonkeyPatch):
    with recording(1) as rec:
        assert rec.store.dialect == "sqlite"
        assert rec.store.find(rec.code) is not None
        for name, value in rec.env.items():  # what the replicas are started with
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("CLASSROOM_DB_URL", raising=False)
        engine = sa.create_engine(f"sqlite:///{classroom.data_dir() / 'classroom.db'}")
        try:
            assert Store(engine).record(rec.code, "a-learner-id-0123456", "dot", 4.0, True)
        finally:
            engine.dispose()
        assert [(g.step, g.guess) for g in rec.store.guesses(rec.code)] == [("dot", 4.0)]
