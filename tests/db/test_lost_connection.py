"""A database connection dropped under the server (PostgreSQL restarted, an idle timeout) costs
at most one 503 ``database_unavailable`` with ``Retry-After``: never a 500, and the next request works.

The pool does not ping before every checkout (a round trip per request, so one more per move);
this is what stands in for it."""

from __future__ import annotations

import psycopg
import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_guest

pytestmark = pytest.mark.postgres


@pytest.fixture
def database_url(postgres_database_url: str) -> str:
    """PostgreSQL only (SQLite has no server to lose)."""
    return postgres_database_url


def _pooled_backend_pids(client: TestClient) -> list[int]:
    """The server process ids behind the connections resting in the app's pool."""
    pool = client.app.state.engine.pool  # type: ignore[attr-defined]
    records = list(pool._pool.queue)
    return [r.dbapi_connection.info.backend_pid for r in records if r.dbapi_connection]


def test_a_dropped_connection_is_a_503_once_then_served(client: TestClient,
                                                         postgres_base_url: str) -> None:
    alice = make_guest(client, "alice")
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice)
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    pids = _pooled_backend_pids(client)
    assert pids, "the app should have pooled connections by now"
    with psycopg.connect(postgres_base_url.replace("+psycopg", ""), autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

    statuses = []
    for _ in range(len(pids) + 1):
        response = client.get(f"/api/v1/matches/{match_id}", headers=alice)
        statuses.append(response.status_code)
        if response.status_code == 503:
            assert response.json()["code"] == "database_unavailable"
            assert response.headers["retry-after"]
    assert 500 not in statuses, statuses
    assert statuses[-1] == 200, statuses
    assert statuses.count(503) <= 1, statuses
