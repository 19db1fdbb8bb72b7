"""Shared by the analysis tests: games played through the API, waiting for an analysis."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import start_match


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
