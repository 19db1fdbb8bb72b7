"""Engine and session factory for one database URL.

The pool holds ``pool_size`` connections and no overflow: worker threads are capped at the same
number (app/db/one_hop.py), so a checkout never waits long; ``POOL_TIMEOUT`` is only a backstop
that becomes a 503. SQLite transactions start with ``BEGIN IMMEDIATE``: a transaction that reads
and then writes cannot be refused half-way by another writer ("database is locked" on upgrade),
and conditional updates are as atomic as PostgreSQL's row locks.

SQLite lets one writer in at a time and makes the others *poll*: its busy handler sleeps 1, 2,
5, 10 … up to 100 ms between tries, so under a burst of moves a transaction that lost the race
by a microsecond waited tens of milliseconds (the fan-out benchmark's p95 of ~250 ms). The
threads of one process therefore queue for the write lock on a ``threading.Lock`` first
(:class:`WriterTurn`), which hands over the moment the holder's connection returns to the pool;
other processes still meet SQLite's own busy handler.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, CursorResult, Engine, create_engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from app.kernel.metrics import watch_database_pool

POOL_TIMEOUT = 10
SQLITE_BUSY_SECONDS = 10
POOL_RECYCLE_SECONDS = 1800


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class WriterTurn:
    """One SQLite writer at a time in this process, in arrival order, handed over at once.

    Taken when a connection begins a transaction, given back when that connection returns to
    the pool (after its commit or rollback). A connection that already holds the turn (a second
    transaction in one checkout) does not take it again. The wait is bounded by the busy
    timeout: past it the transaction goes ahead and SQLite's own lock decides, as before."""

    KEY = "stepwell_writer_turn"

    def __init__(self, timeout: float) -> None:
        self.lock = threading.Lock()
        self.timeout = timeout

    def take(self, info: dict[str, Any]) -> None:
        if not info.get(self.KEY) and self.lock.acquire(timeout=self.timeout):
            info[self.KEY] = True

    def give_back(self, info: dict[str, Any]) -> None:
        if info.pop(self.KEY, False):
            self.lock.release()


def make_engine(url: str, pool_size: int = 8) -> Engine:
    """An engine; SQLite gets foreign keys on, WAL, a busy timeout and its folder created. Its
    pool's use is in the metrics."""
    engine = _new_engine(url, pool_size)
    watch_database_pool(engine)
    return engine


def _new_engine(url: str, pool_size: int) -> Engine:
    common: dict[str, Any] = {"json_serializer": _json_dumps, "json_deserializer": orjson.loads,
                              "pool_size": pool_size, "max_overflow": 0,
                              "pool_timeout": POOL_TIMEOUT}
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False,
                                                  "timeout": SQLITE_BUSY_SECONDS}, **common)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves, below
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        turn = WriterTurn(SQLITE_BUSY_SECONDS)

        @event.listens_for(engine, "begin")
        def _begin_immediate(connection: Connection) -> None:
            turn.take(connection.info)
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        @event.listens_for(engine, "checkin")
        def _give_back_turn(_dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
            turn.give_back(record.info)

        return engine
    # No pre-ping: it was a round trip on every checkout, so one more per move. A connection the
    # server dropped fails its request once with 503 ``server_busy`` (app/db/one_hop.py), and
    # SQLAlchemy then empties the pool; ``pool_recycle`` retires connections before an idle
    # timeout in between can.
    return create_engine(url, pool_recycle=POOL_RECYCLE_SECONDS, **common)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def rows_matched(result: object) -> int:
    """How many rows an UPDATE or DELETE run by ``Session.execute`` matched: that is a
    ``CursorResult`` at run time, but SQLAlchemy types every ``Session.execute`` as ``Result``."""
    assert isinstance(result, CursorResult)
    return result.rowcount
