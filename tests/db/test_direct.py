"""A pooled PostgreSQL connection used through its driver (app/db/direct.py) reads and writes
what SQLAlchemy's own execution would, raises SQLAlchemy's exceptions, and goes back to the pool
as it came."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, bindparam, exc, select, text, update

from app.db.direct import DirectConnection
from app.db.models import Match
from app.db.session import make_engine

pytestmark = pytest.mark.postgres
MATCHES = Match.__table__
READ = select(MATCHES.c.id, MATCHES.c.seed, MATCHES.c.options, MATCHES.c.created_at).where(
    MATCHES.c.id == bindparam("match_id"))
WRITE = update(MATCHES).where(MATCHES.c.id == bindparam("w_id"))


@pytest.fixture
def engine(postgres_database_url: str) -> Iterator[Engine]:
    engine = make_engine(postgres_database_url, pool_size=1)
    with engine.begin() as connection:
        connection.execute(text(
            "insert into matches (id, game, options, seed, num_seats, status, rated, eliminated,"
            " version, ply, snapshot, created_at, updated_at, sealed, rules_version) values"
            " ('m1', 'stairs', '{\"size\": 5}', '340282366920938463463374607431768211455', 2,"
            " 'active', false, '[]', 0, 0, '{}', now(), now(), false, 1)"))
    yield engine
    engine.dispose()


def test_reads_and_writes_as_sqlalchemy_does(engine: Engine) -> None:
    with engine.connect() as connection:
        expected = connection.execute(READ, {"match_id": "m1"}).one()
    direct = DirectConnection(engine)
    try:
        found = direct.execute(READ, {"match_id": "m1"}).first()
        assert tuple(found) == tuple(expected)
        assert found.seed == 2**128 - 1 and isinstance(found.seed, int)  # the column's type ran
        assert found.options == {"size": 5}
        changed = direct.execute(WRITE, {"w_id": "m1", "options": {"size": 7}, "clock": None})
        assert changed.rowcount == 1
        assert direct.execute(WRITE, {"w_id": "none", "options": {}, "clock": None}).rowcount == 0
    finally:
        direct.close()
    with engine.connect() as connection:  # committed on its own, JSON null as SQLAlchemy writes it
        row = connection.execute(text("select options, clock::text from matches")).one()
    assert row.options == {"size": 7} and row.clock == "null"


def test_a_driver_error_is_sqlalchemys_and_the_connection_goes_back(engine: Engine) -> None:
    direct = DirectConnection(engine)
    try:
        with pytest.raises(exc.DataError):  # PostgreSQL refuses NUL in text
            direct.execute(READ, {"match_id": "m\x00"})
        assert direct.execute(READ, {"match_id": "m1"}).first().id == "m1"  # still usable
    finally:
        direct.close()
    with engine.connect() as connection:  # the pool's one connection, in a transaction again
        assert connection.connection.driver_connection.autocommit is False  # type: ignore[union-attr]
        connection.execute(text("select 1"))
        assert connection.in_transaction()


def test_a_statement_whose_text_depends_on_values_is_refused(engine: Engine) -> None:
    direct = DirectConnection(engine)
    try:
        with pytest.raises(ValueError):
            direct.execute(select(MATCHES.c.id).where(MATCHES.c.id.in_(bindparam("ids", expanding=True))),
                           {"ids": ["m1"]})
    finally:
        direct.close()
