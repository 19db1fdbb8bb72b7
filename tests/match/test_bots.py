"""Built-in bots in matches: seated on creation or as Town fillers, they answer every move once,
from a worker process, and pick up again after a restart."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.conftest import make_guest

BOT_WAIT_SECONDS = 30


def _wait_for_ply(client: TestClient, match_id: str, ply: int) -> dict[str, Any]:
    deadline = time.monotonic() + BOT_WAIT_SECONDS
    while time.monotonic() < deadline:
        state = client.get(f"/api/v1/matches/{match_id}").json()
        if state["ply"] >= ply or state["status"] != "active":
            return state
        time.sleep(0.05)
    pytest.fail(f"no bot move reached ply {ply} within {BOT_WAIT_SECONDS} s")


@pytest.fixture
def bot_client(database_url: str):  # type: ignore[no-untyped-def]
    settings = Settings(database_url=database_url, secret_key="bots", bots_enabled=True)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_bot_answers_each_move_once(bot_client: TestClient) -> None:
    human = make_guest(bot_client, "Human")
    match = bot_client.post("/api/v1/matches", json={"game": "sight", "seat": 0, "bot": "easy"},
                            headers=human).json()
    assert match["status"] == "active" and match["seats"][1]["user"]["kind"] == "bot"
    for ply in (0, 2, 4):
        mine = bot_client.get(f"/api/v1/matches/{match['id']}", headers=human).json()
        if mine["status"] != "active":
            break
        assert mine["ply"] == ply
        bot_client.post(f"/api/v1/matches/{match['id']}/moves",
                        json={"move": mine["legal_moves"][0], "ply": ply}, headers=human)
        _wait_for_ply(bot_client, match["id"], ply + 2)
    record = bot_client.get(f"/api/v1/matches/{match['id']}/moves").json()
    assert [m["seat"] for m in record] == [0, 1] * (len(record) // 2) + [0] * (len(record) % 2)


def test_bots_fill_the_empty_town_seats(bot_client: TestClient) -> None:
    human = make_guest(bot_client, "Human")
    match = bot_client.post("/api/v1/matches", json={"game": "town", "players": 3, "seat": 2},
                            headers=human).json()
    filled = bot_client.post(f"/api/v1/matches/{match['id']}/bots", json={"level": "easy"},
                             headers=human).json()
    assert filled["status"] == "active"
    assert [s["user"]["kind"] for s in filled["seats"]] == ["bot", "bot", "guest"]
    state = _wait_for_ply(bot_client, match["id"], 2)  # both bots placed a card
    assert state["to_move"] == 2


def test_only_players_of_a_waiting_match_add_bots(bot_client: TestClient) -> None:
    owner, stranger = make_guest(bot_client, "Owner"), make_guest(bot_client, "Stranger")
    match = bot_client.post("/api/v1/matches", json={"game": "stairs"}, headers=owner).json()
    refused = bot_client.post(f"/api/v1/matches/{match['id']}/bots", json={}, headers=stranger)
    assert refused.status_code == 403
    bad = bot_client.post(f"/api/v1/matches/{match['id']}/bots", json={"level": "godlike"},
                          headers=owner)
    assert bad.status_code == 422


def test_a_restarted_server_lets_the_waiting_bot_move(database_url: str) -> None:
    quiet = Settings(database_url=database_url, secret_key="bots", bots_enabled=False)
    with TestClient(create_app(quiet)) as client:
        human = make_guest(client, "Human")
        match = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0, "bot": "easy"},
                            headers=human).json()
        move = client.get(f"/api/v1/matches/{match['id']}", headers=human).json()["legal_moves"][0]
        client.post(f"/api/v1/matches/{match['id']}/moves", json={"move": move, "ply": 0},
                    headers=human)
        assert client.get(f"/api/v1/matches/{match['id']}").json()["ply"] == 1
    awake = Settings(database_url=database_url, secret_key="bots", bots_enabled=True)
    with TestClient(create_app(awake)) as client:
        assert _wait_for_ply(client, match["id"], 2)["ply"] == 2
        time.sleep(0.5)
        assert client.get(f"/api/v1/matches/{match['id']}").json()["ply"] == 2, "moved once"
