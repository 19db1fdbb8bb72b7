"""Against a live server, on both databases: analysis requests fired together make one analysis
that runs once, its progress reaches the match socket, and a Town game is analysed only after it
ended (nothing about it is computed or shown while it is played)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.live.server import live_server, run_async

pytestmark = pytest.mark.both_databases  # the database is under test here


@pytest.fixture
def server(database_url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    with live_server(database_url, tmp_path, bots_enabled="false", rate_limit_scale="0",
                     analysis_budget="100") as base:
        yield base


async def _guest(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await client.post("/api/v1/guests", json={"name": name})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def _town_played_then_resigned(client: httpx.AsyncClient, alice: dict[str, str],
                                     bob: dict[str, str], moves: int) -> dict[str, Any]:
    match = (await client.post("/api/v1/matches", json={"game": "town", "seat": 0},
                               headers=alice)).json()
    await client.post(f"/api/v1/matches/{match['id']}/join", headers=bob)
    for _ in range(moves):
        public = (await client.get(f"/api/v1/matches/{match['id']}")).json()
        mover = alice if public["to_move"] == 0 else bob
        mine = (await client.get(f"/api/v1/matches/{match['id']}", headers=mover)).json()
        played = await client.post(f"/api/v1/matches/{match['id']}/moves", headers=mover,
                                   json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
        assert played.status_code == 200, played.text
    return match


def test_requests_fired_together_make_one_analysis_that_runs_once(server: str) -> None:
    async def run() -> tuple[list[int], dict[str, Any], list[dict[str, Any]], list[int]]:
        async with httpx.AsyncClient(base_url=server, timeout=60) as client:
            alice, bob = await _guest(client, "Alice"), await _guest(client, "Bob")
            viewers = [alice, bob, *[await _guest(client, f"V{i}") for i in range(4)]]
            match = await _town_played_then_resigned(client, alice, bob, 4)
            url = f"/api/v1/matches/{match['id']}/analysis"
            early = await asyncio.gather(*(client.post(url, headers=who) for who in viewers[:2]),
                                         client.get(url))
            ws = server.replace("http", "ws") + f"/api/v1/matches/{match['id']}/ws"
            events: list[dict[str, Any]] = []
            async with connect(ws) as socket:
                await client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob)
                answers = await asyncio.gather(*(client.post(url, headers=who)
                                                 for who in viewers))
                async with asyncio.timeout(60):
                    while True:
                        message = json.loads(await socket.recv())
                        if message.get("type") == "analysis":
                            events.append(message)
                            if message["status"] in ("done", "failed"):
                                break
            final = (await client.get(url)).json()
            return [a.status_code for a in answers], final, events, \
                [a.status_code for a in early]

    statuses, final, events, early = run_async(run)
    assert early == [409, 409, 404], "nothing is analysed or shown while the game is played"
    assert sorted(statuses) == [200] * 5 + [202], statuses
    assert final["status"] == "done" and final["runs"] == 1, final
    assert final["total"] == 5 and len(final["result"]["positions"]) == 5  # 4 moves, resigned
    progress = [e["progress"] for e in events if e["status"] == "running"]
    assert progress and progress == sorted(progress) and events[-1]["status"] == "done"
