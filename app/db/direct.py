"""A pooled connection used through its driver, for a few statements built once and run on their
own (autocommit): the move path's reads and writes on PostgreSQL (app/match/store.py).

Why: measured on one PostgreSQL move's write (the guarded UPDATE and the INSERT as one
statement), SQLAlchemy's layers — the session and its transaction object, the ``Connection``
and its execution context, the statement's cache key, parameter and result processing — cost
about as much CPU as the driver itself (0.45–0.50 ms a write through the session against
0.23–0.26 ms through the driver of a pooled connection). Here each statement is compiled by
SQLAlchemy once, for the dialect and the parameter names it is given, and the same type
processing is applied to parameters and results; the connection comes from and goes back to
the engine's pool; a driver error becomes SQLAlchemy's exception (a lost connection is
invalidated, so the pool drops it), as from ``Connection.execute``.

Only statements whose text depends on nothing but their parameter names qualify (no
"expanding" or literal parameters); anything else raises ``ValueError`` at its first use.
"""

from __future__ import annotations

import contextlib
import threading
from collections import namedtuple
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, Executable, exc
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

Processor = Callable[[Any], Any]


@dataclass(slots=True)
class _Compiled:
    """A statement compiled once: its SQL text, its parameters' processors, its result columns'
    processors (by position) and the row type its results are read as (from the first ones)."""

    sql: str
    binds: tuple[tuple[str, Processor], ...]
    results: tuple[tuple[int, Processor], ...]
    row: type[tuple[Any, ...]] | None = field(default=None)


_COMPILED: dict[tuple[ClauseElement, type[Dialect], frozenset[str]], _Compiled] = {}
_COMPILING = threading.Lock()


def _compile(statement: ClauseElement, dialect: Dialect, keys: frozenset[str]) -> _Compiled:
    compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
    assert isinstance(compiled, SQLCompiler)
    if set(compiled.binds) != keys or compiled.positional or "POSTCOMPILE" in compiled.string:
        raise ValueError("a direct statement's text must depend on its parameter names only")
    binds = []
    for name, bind in compiled.binds.items():
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            binds.append((name, process))
    results = []
    for index, column in enumerate(compiled._result_columns):  # the columns a result has
        process = column.type.dialect_impl(dialect).result_processor(dialect, None)
        if process is not None:
            results.append((index, process))
    return _Compiled(compiled.string, tuple(binds), tuple(results))


def compiled_for(statement: Executable, dialect: Dialect, keys: frozenset[str]) -> _Compiled:
    assert isinstance(statement, ClauseElement)
    key = (statement, type(dialect), keys)
    found = _COMPILED.get(key)
    if found is None:
        with _COMPILING:
            found = _COMPILED.get(key)
            if found is None:
                found = _COMPILED[key] = _compile(statement, dialect, keys)
    return found


@dataclass(frozen=True, slots=True)
class Rows:
    """What a statement returned: its rows (attributes named as its columns) and the count of
    rows it changed."""

    rows: Sequence[Any]
    rowcount: int

    def all(self) -> Sequence[Any]:
        return self.rows

    def first(self) -> Any:
        return self.rows[0] if self.rows else None


class DirectConnection:
    """One connection checked out of ``engine``'s pool, running each statement on its own
    (autocommit) until :meth:`close` gives it back as it found it."""

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        try:
            self.pooled = engine.raw_connection()
        except self.dialect.loaded_dbapi.Error as error:  # the server refuses connections
            raise exc.DBAPIError.instance(None, None, error, self.dialect.loaded_dbapi.Error,
                                          connection_invalidated=True,
                                          dialect=self.dialect) from error
        driver = self.pooled.driver_connection
        if driver is None:
            self.pooled.close()
            raise RuntimeError("the pool gave a connection without a driver connection")
        self.driver: Any = driver
        try:
            self.driver.autocommit = True
        except self.dialect.loaded_dbapi.Error as error:  # the connection died in the pool
            wrapped = self._lost(error, None, "SET autocommit", {})
            with contextlib.suppress(Exception):
                self.pooled.close()
            raise wrapped from error
        except Exception:
            self.pooled.close()
            raise

    def execute(self, statement: Executable, params: dict[str, Any]) -> Rows:
        compiled = compiled_for(statement, self.dialect, frozenset(params))
        bound = dict(params)
        for name, process in compiled.binds:
            bound[name] = process(bound[name])
        cursor = None
        try:
            cursor = self.driver.cursor()
            cursor.execute(compiled.sql, bound)
            fetched = cursor.fetchall() if cursor.description is not None else []
            if fetched and compiled.row is None:
                compiled.row = namedtuple("Row", [d[0] for d in cursor.description])  # type: ignore[misc]  # names known only now
            rows = [self._row(compiled, row) for row in fetched]
            return Rows(rows, cursor.rowcount)
        except self.dialect.loaded_dbapi.Error as error:
            raise self._lost(error, cursor, compiled.sql, bound) from error
        finally:
            if cursor is not None:
                with contextlib.suppress(Exception):
                    cursor.close()

    def _lost(self, error: Any, cursor: Any, sql: str, bound: dict[str, Any]) -> Exception:
        """The driver's ``error`` as SQLAlchemy's exception, as the engine would raise it; a
        lost connection (a server restart) is dropped from the pool, so the retry gets a new one
        and the request is answered 503 (``is_busy_error``), not 500."""
        lost = bool(self.dialect.is_disconnect(error, self.driver, cursor)) or bool(
            getattr(self.driver, "closed", False))
        if lost:
            with contextlib.suppress(Exception):
                self.pooled.invalidate(error)
        wrapped: Exception = exc.DBAPIError.instance(sql, bound, error,
                                                     self.dialect.loaded_dbapi.Error,
                                                     connection_invalidated=lost,
                                                     dialect=self.dialect)
        return wrapped

    @staticmethod
    def _row(compiled: _Compiled, row: tuple[Any, ...]) -> Any:
        if compiled.results:
            values = list(row)
            for index, process in compiled.results:
                values[index] = process(values[index])
            row = tuple(values)
        assert compiled.row is not None
        return compiled.row._make(row)  # type: ignore[attr-defined]  # a namedtuple type

    def close(self) -> None:
        """Back to the pool, in the driver's usual mode (a lost connection is dropped by it)."""
        try:
            if not self.driver.closed and not getattr(self.driver, "broken", False):
                self.driver.autocommit = False
        finally:
            self.pooled.close()
