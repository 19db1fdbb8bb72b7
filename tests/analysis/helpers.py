"""Shared by the analysis tests: a Stairs game with a known blunder, played through the API."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import start_match

BLUNDER_GAME = [
    "b6-a5", "c6-d5", "d2-c3", "a4-b3", "a1-b1", "f5-f6", "e3-f2", "e4-e5", "c5-b4", "d1-c1",
    "d4-d3", "c4-b5", "b2-a3", "f3-f4", "d6-e6", "f1-e1", "b4-b3", "f6-e6", "a5-b5", "a6-a5",
    "f2-e1", "e2-f2", "d3-c3", "d3-c2", "b1-c2", "a2-b1", "c2-b3", "e5-f4", "f6-e5", "b1-c1",
    "e5-d5", "e6-d5",
]
"""A Stairs game (random-ish play) in which light, at ply 29, had a won position (the search
proves it: e5-f6 wins) and played f6-e5, after which dark has a forced win; dark missed it."""
BLUNDER_PLY = 29


def play_game(client: TestClient, first: dict[str, str], second: dict[str, str],
              moves: list[str], game: str = "stairs", **body: Any) -> dict[str, Any]:
    """A match between ``first`` (seat 0) and ``second`` (seat 1) playing ``moves``."""
    match = start_match(client, first, second, game, seat=0, **body)
    for ply, move in enumerate(moves):
        mover = first if match["to_move"] == 0 else second
        answer = client.post(f"/api/v1/matches/{match['id']}/moves",
                             json={"move": move, "ply": ply}, headers=mover)
        assert answer.status_code == 200, answer.text
        match = answer.json()
    return match


def wait_for_analysis(client: TestClient, match_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        found = client.get(f"/api/v1/matches/{match_id}/analysis").json()
        if found["status"] in ("done", "failed") or time.monotonic() > deadline:
            return found
        time.sleep(0.1)
