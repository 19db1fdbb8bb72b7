# ruff: noqa: F811 (``client`` is the fixture imported below, used as a parameter)
"""Hints: only in casual games against the built-in bots, on your turn; on the board, always."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.identity import Identity
from app.match import store
from app.match.service import MatchService
from app.tournaments.scheduler import advance_all
from tests.conftest import make_guest, start_match
from tests.tournaments.test_sealed import client  # noqa: F401 (the fixture: no background jobs


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


def _account(client: TestClient, username: str) -> dict[str, str]:
    made = client.post("/api/v1/accounts", json={"username": username, "password": "sesame123"})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _bot_moves_until_my_turn(client: TestClient, match_id: str, me: dict[str, str]) -> None:
    """Play the bots' moves (no runner in this app) until it is the caller's turn."""
    app: Any = client.app
    for _ in range(4):
        mine = client.get(f"/api/v1/matches/{match_id}", headers=me).json()
        if mine["to_move"] == mine["your_seat"]:
            return
        with app.state.session_factory() as session:
            service = MatchService(session, lambda record: None)  # nobody listens here
            record = service.get(match_id)
            seat = store.state_of(record).to_move
            bot = record.seats[seat]
            move = store.state_of(record).legal_moves()[0]
            service.play(match_id, Identity(id=bot.user_id, name=bot.name or "bot", kind="bot"),
                         move, record.ply, seat=seat)
    pytest.fail("never the caller's turn")


def test_hints_are_refused_in_a_tournament_game_against_a_built_in_bot(
        client: TestClient) -> None:
    host = _account(client, "host")
    created = client.post("/api/v1/tournaments", headers=host, json={
        "name": "Cup", "kind": "swiss", "game": "sight", "rounds": 1,
        "starts_at": "2099-01-01T10:00:00Z"})
    assert created.status_code == 201 and created.json()["rated"] is False, created.text
    url = f"/api/v1/tournaments/{created.json()['id']}"
    assert client.post(f"{url}/join", headers=host).status_code == 200
    assert client.post(f"{url}/bots", headers=host, json={"level": "easy"}).status_code == 200
    assert client.post(f"{url}/start", headers=host).status_code == 200
    app: Any = client.app
    advance_all(app.state.session_factory, lambda record: None, lambda channel, message: None)
    match_id = client.get(url, headers=host).json()["games"][0]["url"].removeprefix("/m/")
    match = client.get(f"/api/v1/matches/{match_id}", headers=host).json()
    assert match["tournament"] and not match["rated"] and match["status"] == "active"
    assert [s["user"]["kind"] for s in match["seats"]].count("bot") == 1
    _bot_moves_until_my_turn(client, match_id, host)
    refused = _hint(client, match_id, host)
    assert refused.status_code == 403 and refused.json()["code"] == "hints_tournament"
    assert "tournament" in refused.json()["message"]


def test_hints_are_refused_in_a_rated_game_against_a_built_in_bot(
        client: TestClient) -> None:
    aiko = _account(client, "aiko")
    challenge = client.post("/api/v1/challenges", headers=aiko, json={
        "user": "bot-easy", "game": "sight", "rated": True, "seat": 0})
    assert challenge.status_code == 201, challenge.text
    match_id = challenge.json()["match_id"]
    assert client.get(f"/api/v1/matches/{match_id}", headers=aiko).json()["rated"] is True
    _bot_moves_until_my_turn(client, match_id, aiko)
    refused = _hint(client, match_id, aiko)
    assert refused.status_code == 403 and refused.json()["code"] == "hints_rated"
