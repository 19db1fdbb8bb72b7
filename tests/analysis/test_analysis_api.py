"""Computer analysis through the API: marks a known blunder; refuses unfinished matches.
(Both databases and concurrent requests: test_analysis_live.py.)"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.analysis.games import (
    BLUNDER_GAME,
    BLUNDER_PLY,
    SCALAS_BLUNDER_GAME,
    SCALAS_BLUNDER_PLY,
    SIGHT_BLUNDER_GAME,
    SIGHT_BLUNDER_PLY,
)
from tests.analysis.helpers import play_game, wait_for_analysis
from tests.conftest import make_guest, start_match


def test_a_won_position_thrown_away_is_marked_a_blunder(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = play_game(client, alice, bob, BLUNDER_GAME)
    assert match["status"] == "finished"
    asked = client.post(f"/api/v1/matches/{match['id']}/analysis", headers=bob)
    assert asked.status_code == 202, asked.text
    again = client.post(f"/api/v1/matches/{match['id']}/analysis", headers=alice)
    assert again.status_code == 200 and again.json()["match_id"] == match["id"]
    found = wait_for_analysis(client, match["id"])
    assert found["status"] == "done", found
    assert found["runs"] == 1 and found["progress"] == found["total"] == len(BLUNDER_GAME) + 1
    result = found["result"]
    before = result["positions"][BLUNDER_PLY - 1]
    assert before["proven"] == "win" and before["value"] == 1.0
    blunder = result["moves"][BLUNDER_PLY - 1]
    assert blunder["move"] == BLUNDER_GAME[BLUNDER_PLY - 1]
    assert blunder["mark"] == "blunder" and blunder["drop"] >= 0.9
    assert blunder["best"] != blunder["move"] and blunder["best_view"]["last_move"] == blunder["best"]
    assert result["positions"][-1]["to_move"] is None


@pytest.mark.parametrize(("game", "moves", "ply"), [
    ("sight", SIGHT_BLUNDER_GAME, SIGHT_BLUNDER_PLY),
    ("scalas", SCALAS_BLUNDER_GAME, SCALAS_BLUNDER_PLY),
])
def test_won_positions_thrown_away_are_marked_in_other_games(
        shared_client: TestClient, game: str, moves: list[str], ply: int) -> None:
    """Not only Stairs: in Sight and Scalas too a proven win thrown away (into a proven loss) is a
    blunder, with the winning move preferred and drawn."""
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = play_game(client, alice, bob, moves, game)
    assert match["status"] == "finished" and match["ply"] == len(moves)
    assert client.post(f"/api/v1/matches/{match['id']}/analysis", headers=alice).status_code == 202
    found = wait_for_analysis(client, match["id"])
    assert found["status"] == "done", found
    result = found["result"]
    before, after = result["positions"][ply - 1], result["positions"][ply]
    mover = before["to_move"]
    assert before["proven"] == "win" and before["value"] == 1.0
    assert after["values"][mover] == 0.0  # lost once played
    thrown = result["moves"][ply - 1]
    assert thrown["seat"] == mover and thrown["move"] == moves[ply - 1]
    assert thrown["mark"] == "blunder" and thrown["drop"] == 1.0
    assert thrown["best"] != thrown["move"] and thrown["best_view"] is not None
    assert result["counts"][mover]["blunder"] >= 1


def test_a_match_in_play_is_not_analysed(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    asked = client.post(f"/api/v1/matches/{match['id']}/analysis", headers=alice)
    assert asked.status_code == 409 and asked.json()["code"] == "match_not_finished"
    found = client.get(f"/api/v1/matches/{match['id']}/analysis")
    assert found.status_code == 404 and found.json()["code"] == "no_analysis"
    assert client.get("/api/v1/matches/nope/analysis").json()["code"] == "no_match"
