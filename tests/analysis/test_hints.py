"""Hints: only in casual games against the built-in bots, on your turn; on the board, always."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import start_match
from tests.conftest import make_guest


def _hint(client: TestClient, match_id: str, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    return client.post(f"/api/v1/matches/{match_id}/hint", headers=headers)


def test_hints_are_refused_between_people(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    refused = _hint(client, match["id"], alice)
    assert refused.status_code == 403 and refused.json()["code"] == "hints_people"
    carol = make_guest(client, "Carol")
    assert _hint(client, match["id"], carol).json()["code"] == "not_a_player"


def test_hints_are_refused_in_rated_games(shared_client: TestClient) -> None:
    client = shared_client
    first = client.post("/api/v1/accounts", json={"username": "hinter", "password": "sesame123"})
    second = client.post("/api/v1/accounts", json={"username": "other", "password": "sesame123"})
    one = {"Authorization": f"Bearer {first.json()['token']}"}
    two = {"Authorization": f"Bearer {second.json()['token']}"}
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "rated": True}, headers=one)
    assert seek.status_code == 201, seek.text
    joined = client.post(f"/api/v1/seeks/{seek.json()['id']}/accept", headers=two)
    assert joined.status_code == 200, joined.text
    match_id = joined.json()["match_id"]
    assert client.get(f"/api/v1/matches/{match_id}").json()["rated"] is True
    for headers in (one, two):
        refused = _hint(client, match_id, headers)
        assert refused.status_code == 403 and refused.json()["code"] == "hints_rated"


def test_a_hint_against_a_bot_is_a_legal_move_on_your_turn(shared_client: TestClient) -> None:
    client = shared_client
    alice = make_guest(client, "Alice")
    created = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0, "bot": "easy"},
                          headers=alice)
    assert created.status_code == 201, created.text
    match = created.json()
    hint = _hint(client, match["id"], alice)
    assert hint.status_code == 200, hint.text
    mine = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()
    assert hint.json()["move"] in mine["legal_moves"]
    board = client.post("/api/v1/analysis/hint", json={"game": "sight", "moves": []})
    assert board.status_code == 200 and board.json()["move"]
