"""Engine and session factory for one database URL.

The pool holds ``pool_size`` connections and no overflow: worker threads are capped at the same
number (app/db/one_hop.py), so a checkout never waits long; ``POOL_TIMEOUT`` is only a backstop
that becomes a 503. SQLite transactions start with ``BEGIN IMMEDIATE``: a transaction that reads
and then writes cannot be refused half-way by another writer ("database is locked" on upgrade),
and conditional updates are as atomic as PostgreSQL's row locks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

POOL_TIMEOUT = 10
SQLITE_BUSY_SECONDS = 10


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str, pool_size: int = 8) -> Engine:
    """An engine; SQLite gets foreign keys on, WAL, a busy timeout and its folder created."""
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
        def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves, below
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin_immediate(connection) -> None:  # type: ignore[no-untyped-def]
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True, **common)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
