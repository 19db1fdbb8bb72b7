"""GET /api/v1/matches/{id}/export: JSON and text game records of real matches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.db.models import Match
from app.match.game_records import parse_text, replay
from games import Game, registry
from tests.conftest import make_guest

GAMES = registry.all_games()


def _play_out(client: TestClient, game: Game, players: int, seed: int,
              max_plies: int = 600) -> tuple[str, list[dict[str, str]]]:
    """A match of ``game`` between guests, played with random legal moves through the API until
    it ends (or, past ``max_plies``, the player to move resigns)."""
    rng = random.Random(seed)
    tokens = [make_guest(client, f"P{seat}") for seat in range(players)]
    created = client.post("/api/v1/matches", json={"game": game.id, "players": players},
                          headers=tokens[0])
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    for token in tokens[1:]:
        assert client.post(f"/api/v1/matches/{match_id}/join", headers=token).status_code == 200
    by_seat = {}
    for token in tokens:
        by_seat[client.get(f"/api/v1/matches/{match_id}", headers=token).json()["your_seat"]] = token
    for _ in range(max_plies):
        public = client.get(f"/api/v1/matches/{match_id}").json()
        if public["status"] != "active":
            break
        mover = by_seat[public["to_move"]]
        mine = client.get(f"/api/v1/matches/{match_id}", headers=mover).json()
        played = client.post(f"/api/v1/matches/{match_id}/moves", headers=mover,
                             json={"move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]})
        assert played.status_code == 200, played.text
    else:
        to_move = client.get(f"/api/v1/matches/{match_id}").json()["to_move"]
        assert client.post(f"/api/v1/matches/{match_id}/resign",
                           headers=by_seat[to_move]).status_code == 200
    return match_id, tokens


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_exported_text_replays_to_the_final_position(client: TestClient, app: Any,
                                                     game: Game) -> None:
    match_id, _ = _play_out(client, game, game.min_players, seed=len(game.id))
    response = client.get(f"/api/v1/matches/{match_id}/export?format=text")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    parsed = parse_text(response.text)
    moves = client.get(f"/api/v1/matches/{match_id}/moves").json()
    assert parsed.moves == [m["move"] for m in moves]
    assert parsed.tags["Status"] == "finished" and parsed.tags["Reason"]
    assert parsed.players == ["P0", "P1", "P2", "P3"][:game.min_players]
    final = replay(parsed)
    with app.state.session_factory() as session:
        stored = session.get(Match, match_id)
        assert stored is not None
        assert final == registry.get(game.id).from_json(stored.snapshot)
    assert final.view(None) == client.get(f"/api/v1/matches/{match_id}").json()["view"]


def test_json_export_has_tags_and_timed_moves(client: TestClient) -> None:
    stairs = registry.get("stairs")
    match_id, _ = _play_out(client, stairs, 2, seed=3)
    record = client.get(f"/api/v1/matches/{match_id}/export").json()
    assert record["format"] == "stepwell-record" and record["version"] == 1
    assert record["game"] == "stairs" and record["options"] == {"swap": False}
    assert [p["user"]["name"] for p in record["players"]] == ["P0", "P1"]
    assert record["status"] == "finished" and record["result"]["winners"] is not None
    assert record["seed"] is not None and record["date"].count(".") == 2
    first = record["moves"][0]
    assert set(first) == {"ply", "seat", "move", "time_spent_ms"} and first["ply"] == 1


def test_live_town_export_hides_the_deal(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    created = client.post("/api/v1/matches", headers=alice,
                          json={"game": "town", "options": {"start_cards": [2, 6]}})
    if created.status_code == 422:
        pytest.skip("options that fix the deal are refused outright")
    match_id = created.json()["id"]
    client.post(f"/api/v1/matches/{match_id}/join", headers=bob)
    record = client.get(f"/api/v1/matches/{match_id}/export").json()
    assert "start_cards" not in record["options"] and record["seed"] is None
    text = client.get(f"/api/v1/matches/{match_id}/export?format=text").text
    assert "start_cards" not in text and "Seed" not in text


def test_export_of_a_missing_match_is_404(client: TestClient) -> None:
    response = client.get("/api/v1/matches/nope/export")
    assert response.status_code == 404 and response.json()["code"] == "no_match"


def test_export_refuses_an_unknown_format(client: TestClient) -> None:
    response = client.get("/api/v1/matches/nope/export?format=pdf")
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"
