"""The database away (restarting, refusing connections) is a clear 503 with Retry-After, on the
API and on pages, and never a 500: the client retries, the connection stays usable."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.both_databases  # the database is under test here


@pytest.mark.parametrize("path, headers", [
    ("/api/v1/matches/abcdefgh", {}),  # the endpoint's query fails to connect
    ("/api/v1/me", {"Authorization": "Bearer sw_not-cached"}),  # the door's token lookup
    ("/api/v1/seeks", {}),
])
def test_the_api_answers_503_while_the_database_is_away(no_database: TestClient, path: str,
                                                        headers: dict[str, str]) -> None:
    response = no_database.get(path, headers=headers)
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "database_unavailable"
    assert int(response.headers["retry-after"]) >= 1
    assert response.headers.get("connection", "").lower() != "close"


def test_a_page_answers_a_readable_503_while_the_database_is_away(no_database: TestClient) -> None:
    response = no_database.get("/m/abcdefgh")
    assert response.status_code == 503
    assert response.headers["content-type"].startswith("text/html")
    assert "retry" in response.text.lower()


def test_healthz_answers_and_readyz_says_the_database_is_away(no_database: TestClient) -> None:
    assert no_database.get("/healthz").json() == {"status": "ok"}
    ready = no_database.get("/readyz")
    assert ready.status_code == 503 and ready.json()["checks"] == {"database": False}


def test_readyz_is_ready_with_a_database(client: TestClient) -> None:
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json() == {"status": "ready", "checks": {"database": True}}
