"""The Watch list over REST and over the live socket is one item shape: live updates keep the
players' ratings (the first build lost them on the first update)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import start_match

pytestmark = pytest.mark.both_databases  # the database is under test here


def _account(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/v1/accounts", json={"username": name, "password": "correct horse 1"})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def test_live_updates_carry_the_same_item_as_the_rest_list(client: TestClient) -> None:
    alice, bob = _account(client, "alice"), _account(client, "bob")
    match = start_match(client, alice, bob)
    listed = next(m for m in client.get("/api/v1/live").json() if m["id"] == match["id"])
    assert all(s["user"]["rating"] for s in listed["seats"])
    with client.websocket_connect("/api/v1/live/ws") as live:
        move = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()["legal_moves"][0]
        client.post(f"/api/v1/matches/{match['id']}/moves", json={"move": move, "ply": 0},
                    headers=alice)
        while (update := live.receive_json())["type"] != "match" or update["ply"] != 1:
            pass
    assert [s["user"]["rating"] for s in update["seats"]] == \
        [s["user"]["rating"] for s in listed["seats"]]
    assert set(update) - {"type"} == set(listed), "one builder for both"
