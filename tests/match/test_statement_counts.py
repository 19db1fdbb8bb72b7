"""A move costs three SQL statements on SQLite (load, update, insert, in one transaction) and two
round trips on PostgreSQL (the load, then the update and the insert as one statement, each on its
own: no BEGIN or COMMIT round trip); the load is skipped when this process has the match warm
(app/match/warm.py: the move before was played here). An authenticated read sends none for auth
after the first. Counted through the engine's cursor events on SQLite, and on PostgreSQL at the
driver (the move path runs its statements on the driver: app/db/direct.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from tests.conftest import make_guest, start_match

pytestmark = pytest.mark.both_databases  # the database is under test here

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@contextmanager
def counted(client: TestClient, autocommit: list[bool] | None = None
            ) -> Iterator[list[tuple[int, str]]]:
    """(connection, statement) pairs: the server's background jobs share the engine, so a
    request's statements are told apart by the connection that ran them. ``autocommit`` gets,
    per statement, whether the driver ran it on its own (psycopg then sends no BEGIN/COMMIT)."""
    statements: list[tuple[int, str]] = []
    engine = client.app.state.engine  # type: ignore[attr-defined]

    def record(driver_connection: object, statement: str) -> None:
        if not statement.lstrip().upper().startswith(TRANSACTION_CONTROL):
            statements.append((id(driver_connection), statement))
            if autocommit is not None:
                autocommit.append(bool(getattr(driver_connection, "autocommit", False)))

    if engine.dialect.name == "postgresql":
        execute = psycopg.Cursor.execute

        def counted_execute(cursor, query, *args, **kwargs):  # type: ignore[no-untyped-def]
            record(cursor.connection, str(query))
            return execute(cursor, query, *args, **kwargs)

        psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
        try:
            yield statements
        finally:
            psycopg.Cursor.execute = execute  # type: ignore[method-assign]
        return

    def on_engine(conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        record(conn.connection.dbapi_connection, statement)

    event.listen(engine, "before_cursor_execute", on_engine)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", on_engine)


def test_a_move_sends_three_statements(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}"
    postgres = client.app.state.engine.dialect.name == "postgresql"  # type: ignore[attr-defined]
    client.get("/api/v1/me", headers=alice)  # warm the identity cache
    for ply in range(4):
        mover = [alice, bob][ply % 2]
        move = client.get(url, headers=mover).json()["legal_moves"][0]
        own: list[bool] = []
        with counted(client, own) as statements:
            answer = client.post(f"{url}/moves", json={"move": move, "ply": ply}, headers=mover)
        assert answer.status_code == 200, answer.text
        mover_connection = next(c for c, s in statements if "INSERT INTO moves" in s)
        mine = [i for i, (c, _) in enumerate(statements) if c == mover_connection]
        kinds = [statements[i][1].split()[0].upper() for i in mine]
        read = ["SELECT"] if ply == 0 else []  # the first move of the match here reads it
        if postgres:  # the UPDATE rides in the INSERT's CTE; neither needs a transaction
            assert kinds == [*read, "WITH"], [s[:90] for _, s in statements]
            assert all(own[i] for i in mine), "a move's statements run on their own"
        else:
            assert kinds == [*read, "UPDATE", "INSERT"], [s[:90] for _, s in statements]


def test_authenticated_reads_do_not_query_or_write_the_token(client: TestClient) -> None:
    alice = make_guest(client, "Alice")
    client.get("/api/v1/me", headers=alice)
    with counted(client) as statements:
        for _ in range(5):
            assert client.get("/api/v1/me", headers=alice).status_code == 200
    about_tokens = [s for _, s in statements if "api_tokens" in s]
    assert about_tokens == [], "the token is looked up once, then cached"
