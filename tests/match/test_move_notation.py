"""Moves through the API in any spelling: a legal move in another spelling is played and recorded
canonically; anything else is a 4xx with a JSON ``code``, never a server error (every game)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import Game, registry
from tests.conftest import start_table
from tests.notation import edits, junk, mutate


@pytest.mark.parametrize("text", ["a1b1", "a1b2", "a1 b1", "A1-B1", " a1 - b2 "])
def test_a_compact_or_spaced_stairs_move_is_played_and_recorded_canonically(
        client: TestClient, match: dict[str, Any], alice: dict[str, str], text: str) -> None:
    response = client.post(f"/api/v1/matches/{match['id']}/moves",
                           json={"move": text, "ply": 0}, headers=alice)
    assert response.status_code == 200, response.text
    canonical = text.replace(" ", "").lower()
    canonical = canonical if "-" in canonical else f"{canonical[:2]}-{canonical[2:]}"
    assert response.json()["last_move"]["move"] == canonical


def _start(client: TestClient, game: Game) -> tuple[str, list[dict[str, str]]]:
    """A started match of ``game`` at its minimum player count; the seats' headers in order."""
    return start_table(client, game.id, game.min_players)


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_misspelt_moves_get_a_2xx_or_a_4xx_with_a_code_never_a_5xx(
        client: TestClient, game: Game) -> None:
    current: dict[str, Any] = {}

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(pick=st.integers(0, 10**6), edits=edits, junk=junk, where=st.integers(0, 2**32))
    def check(pick: int, edits: list[str], junk: str, where: int) -> None:
        if not current or current["view"]["status"] != "active":
            current["id"], current["players"] = _start(client, game)
            current["view"] = client.get(f"/api/v1/matches/{current['id']}").json()
        seat = current["view"]["to_move"]
        headers = current["players"][seat]
        mine = client.get(f"/api/v1/matches/{current['id']}", headers=headers).json()
        legal = mine["legal_moves"]
        move = legal[pick % len(legal)]
        text = mutate(move, edits, junk, where)
        response = client.post(f"/api/v1/matches/{current['id']}/moves",
                               json={"move": text, "ply": mine["ply"]}, headers=headers)
        assert response.status_code < 500, (text, response.text)
        if response.status_code >= 400:
            assert isinstance(response.json().get("code"), str), (text, response.text)
        current["view"] = client.get(f"/api/v1/matches/{current['id']}").json()

    check()
