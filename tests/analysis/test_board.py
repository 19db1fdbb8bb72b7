"""The analysis board agrees with the engines, imports records, and never deals Town's hidden
cards of a game in progress."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from games import registry
from tests.analysis.games import BLUNDER_GAME, STAIRS_60, stairs_game_with_passes
from tests.analysis.helpers import play_game
from tests.conftest import make_guest, start_match

BOARD = "/api/v1/analysis/board"


@pytest.mark.parametrize(("game", "players"), [("stairs", 2), ("sight", 2), ("scalas", 2),
                                               ("town", 2), ("town", 3)])
def test_every_legal_move_list_is_the_engines(shared_client: TestClient, game: str,
                                              players: int) -> None:
    client = shared_client
    rng = random.Random(game)
    state = registry.get(game).new_state(players, {}, 5)
    moves: list[str] = []
    for _ in range(12):
        while not state.is_over and (forced := state.forced_move()) is not None:
            state = state.play(forced)
            moves.append(forced)
        answer = client.post(BOARD, json={"game": game, "players": players, "seed": 5,
                                          "moves": moves})
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        assert shown["moves"] == moves and shown["to_move"] == state.to_move
        assert shown["legal_moves"] == state.legal_moves()
        hidden = registry.get(game).hidden_information
        assert shown["view"] == state.view(state.to_move if hidden else None)
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        moves.append(move)


def test_a_move_is_played_on_top_and_an_illegal_one_refused(shared_client: TestClient) -> None:
    client = shared_client
    start = client.post(BOARD, json={"game": "stairs"}).json()
    move = start["legal_moves"][0]
    after = client.post(BOARD, json={"game": "stairs", "moves": [], "move": move.upper()}).json()
    assert after["moves"] == [move] and after["last_move"] == {"ply": 1, "move": move, "seat": 0}
    wrong = client.post(BOARD, json={"game": "stairs", "moves": ["a1-a6"]})
    assert wrong.status_code == 422 and wrong.json()["code"] == "illegal_move"
    assert client.post(BOARD, json={"game": "nope"}).json()["code"] == "no_game"
    assert client.post(BOARD, json={"moves": []}).json()["code"] == "invalid_request"


def test_town_in_progress_is_refused_and_finished_games_open(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    town = start_match(client, alice, bob, "town")
    refused = client.post(BOARD, json={"match": town["id"], "moves": []})
    assert refused.status_code == 403 and refused.json()["code"] == "match_in_progress"
    hint = client.post("/api/v1/analysis/hint", json={"match": town["id"], "moves": []},
                       headers=alice)
    assert hint.status_code == 403 and hint.json()["code"] == "match_in_progress"
    client.post(f"/api/v1/matches/{town['id']}/resign", headers=bob)
    opened = client.post(BOARD, json={"match": town["id"], "moves": []})
    assert opened.status_code == 200 and opened.json()["legal_moves"]


def test_a_stairs_match_in_progress_opens_at_its_public_start(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    stairs = start_match(client, alice, bob)
    shown = client.post(BOARD, json={"match": stairs["id"], "moves": BLUNDER_GAME[:3]}).json()
    assert shown["moves"] == BLUNDER_GAME[:3]


def test_an_exported_record_imports_into_the_board(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = play_game(client, alice, bob, BLUNDER_GAME)
    text = client.get(f"/api/v1/matches/{match['id']}/export", params={"format": "text"}).text
    imported = client.post("/api/v1/analysis/import", json={"text": text})
    assert imported.status_code == 200, imported.text
    assert imported.json()["moves"] == BLUNDER_GAME and imported.json()["game"] == "stairs"
    broken = client.post("/api/v1/analysis/import", json={"text": text.replace("c6-d5", "c6-c1")})
    assert broken.status_code == 422 and broken.json()["code"] == "invalid_record"
    unreadable = client.post("/api/v1/analysis/import", json={"text": "hello"})
    assert unreadable.json()["code"] == "invalid_record"


def test_forced_passes_replay_whether_the_list_names_them_or_not(shared_client: TestClient) -> None:
    moves = stairs_game_with_passes()
    assert "pass" in moves
    for given in (moves, [m for m in moves if m != "pass"]):
        shown = shared_client.post(BOARD, json={"game": "stairs", "moves": given}).json()
        assert shown["moves"] == moves and shown["status"] == "finished"


def test_the_benchs_60_ply_stairs_game_replays_to_its_end(shared_client: TestClient) -> None:
    """bench/analysis.py times the issue's "60-ply Stairs game" on STAIRS_60: it must be one."""
    shown = shared_client.post(BOARD, json={"game": "stairs", "moves": STAIRS_60}).json()
    assert shown["ply"] == 60 and shown["status"] == "finished" and shown["moves"] == STAIRS_60
