"""The Watch list (GET /api/v1/live) leaves out abandoned games: a match quiet for a while whose
players have all closed it is not live; one whose player is still at the board stays listed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from app.kernel import timesource


def _listed(client: TestClient, later: timedelta) -> set[str]:
    with timesource.use(lambda: timesource.system_now() + later):
        return {m["id"] for m in client.get("/api/v1/live").json()}


def test_an_abandoned_match_leaves_the_watch_list(client: TestClient, match: dict[str, Any],
                                                  alice: dict[str, str]) -> None:
    assert match["id"] in _listed(client, timedelta(0)), "a fresh match is live"
    assert match["id"] not in _listed(client, timedelta(hours=1)), "quiet and nobody there"
    token = alice["Authorization"].split()[1]
    with client.websocket_connect(f"/api/v1/matches/{match['id']}/ws?token={token}") as socket:
        assert socket.receive_json()["type"] == "state"
        assert match["id"] in _listed(client, timedelta(hours=1)), "a player is at the board"
