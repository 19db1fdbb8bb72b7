"""Helpers for API tests: two guests and a started Stairs match between them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_guest


@pytest.fixture
def alice(client: TestClient) -> dict[str, str]:
    return make_guest(client, "Alice")


@pytest.fixture
def bob(client: TestClient) -> dict[str, str]:
    return make_guest(client, "Bob")


def start_match(client: TestClient, first: dict[str, str], second: dict[str, str],
                game: str = "stairs", **body: Any) -> dict[str, Any]:
    created = client.post("/api/v1/matches", json={"game": game, **body}, headers=first)
    assert created.status_code == 201, created.text
    joined = client.post(f"/api/v1/matches/{created.json()['id']}/join", headers=second)
    assert joined.status_code == 200, joined.text
    return joined.json()


@pytest.fixture
def match(client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> dict[str, Any]:
    """A started Stairs match: Alice in seat 0 (light, to move), Bob in seat 1."""
    return start_match(client, alice, bob)
