"""The class tests run the same against SQLite and PostgreSQL: ``db_url`` is each in turn (a
throwaway cluster of Debian's postgresql, started once for the session; skipped, with the reason,
where its binaries are absent: ``.ci/run`` installs them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.pg import cluster, pg_bin


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    if pg_bin() is None:
        pytest.skip("no PostgreSQL binaries (apt-get install postgresql; .ci/run installs it)")
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'classroom.db'}"
    url: str = request.getfixturevalue("postgres_url")
    import sqlalchemy as sa

    from ui.class_store import metadata

    engine = sa.create_engine(url)
    metadata.drop_all(engine)  # each test starts from an empty database, as SQLite's does
    with engine.begin() as c:
        c.exec_driver_sql("DROP TABLE IF EXISTS class_meta")
    engine.dispose()
    return url
