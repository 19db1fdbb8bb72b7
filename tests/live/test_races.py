"""Races fired at a live server, requests sent together, on both databases: one rematch per game,
a full match always starts and nobody takes two seats, a duplicate move is stored once.

``STEPWELL_RACE_TRIALS`` (default 8) sets the trials per scenario; the issue's check runs 100."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live.server import live_server, run_async

TRIALS = int(os.environ.get("STEPWELL_RACE_TRIALS", "8"))


@pytest.fixture
def server(database_url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    # Rate limits off: each trial creates guests and matches as fast as it can.
    with live_server(database_url, tmp_path, bots_enabled="false", rate_limit_scale="0") as base:
        yield base


async def _guest(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await client.post("/api/v1/guests", json={"name": name})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def _together(*requests: Any) -> list[httpx.Response]:
    return list(await asyncio.gather(*requests))


def test_both_players_asking_for_a_rematch_at_once_make_one(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> int:
        alice, bob = await _guest(client, "Alice"), await _guest(client, "Bob")
        match = (await client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice)).json()
        await client.post(f"/api/v1/matches/{match['id']}/join", headers=bob)
        await client.post(f"/api/v1/matches/{match['id']}/resign", headers=alice)
        answers = await _together(*(client.post(f"/api/v1/matches/{match['id']}/offers/rematch",
                                                headers=who) for who in [alice, bob] * 5))
        assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
        mine = (await client.get("/api/v1/me/matches", headers=alice)).json()
        return sum(1 for m in mine if m["id"] != match["id"])  # fresh guests: all others are rematches

    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    counts = run_async(run)
    assert all(count == 1 for count in counts), f"rematches per game: {counts}"


def test_the_last_two_seats_taken_at_once_start_the_match(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[list[int], str, int]:
        host, b, c = (await _guest(client, "Host"), await _guest(client, "B"),
                      await _guest(client, "C"))
        created = (await client.post("/api/v1/matches", json={"game": "town", "players": 3},
                                     headers=host)).json()
        url = f"/api/v1/matches/{created['id']}"
        answers = await _together(client.post(f"{url}/join", headers=b),
                                  client.post(f"{url}/join", headers=c))
        final = (await client.get(url)).json()
        taken = sum(1 for s in final["seats"] if s["user"])
        return [a.status_code for a in answers], final["status"], taken

    async def run() -> list[tuple[list[int], str, int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for statuses, status, taken in run_async(run):
        assert statuses == [200, 200]
        assert (status, taken) == ("active", 3), "a full match must start"


def test_one_user_asking_for_two_seats_at_once_gets_one(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[list[int], list[Any]]:
        host, b = await _guest(client, "Host"), await _guest(client, "B")
        created = (await client.post("/api/v1/matches", json={"game": "town", "players": 3,
                                                                "seat": 0}, headers=host)).json()
        url = f"/api/v1/matches/{created['id']}"
        answers = await _together(client.post(f"{url}/join", json={"seat": 1}, headers=b),
                                  client.post(f"{url}/join", json={"seat": 2}, headers=b))
        final = (await client.get(url)).json()
        return sorted(a.status_code for a in answers), [s["user"] for s in final["seats"]]

    async def run() -> list[tuple[list[int], list[Any]]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for statuses, seats in run_async(run):
        assert statuses == [200, 409], statuses
        assert sum(1 for user in seats if user and user["name"] == "B") == 1


def test_a_move_sent_ten_times_at_once_is_stored_once(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[list[int], int]:
        alice, bob = await _guest(client, "Alice"), await _guest(client, "Bob")
        match = (await client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice)).json()
        url = f"/api/v1/matches/{match['id']}"
        await client.post(f"{url}/join", headers=bob)
        move = (await client.get(url, headers=alice)).json()["legal_moves"][0]
        answers = await _together(*(client.post(f"{url}/moves", json={"move": move, "ply": 0},
                                                headers=alice) for _ in range(10)))
        stored = (await client.get(f"{url}/moves")).json()
        return sorted(a.status_code for a in answers), len(stored)

    async def run() -> list[tuple[list[int], int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for statuses, stored in run_async(run):
        assert statuses == [200] + [409] * 9, statuses
        assert stored == 1


def test_a_move_and_the_opponents_resignation_sent_at_once_stay_consistent(server: str) -> None:
    """A move (one statement outside a transaction on PostgreSQL) and a resignation (a
    transaction) race on one match: whichever lands second sees the version moved on, or comes
    after the first; the stored log always matches the match's ply and its result."""
    async def trial(client: httpx.AsyncClient) -> tuple[int, int, dict[str, Any], int]:
        alice, bob = await _guest(client, "Alice"), await _guest(client, "Bob")
        match = (await client.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                                   headers=alice)).json()
        url = f"/api/v1/matches/{match['id']}"
        await client.post(f"{url}/join", headers=bob)
        move = (await client.get(url, headers=alice)).json()["legal_moves"][0]
        played, resigned = await _together(
            client.post(f"{url}/moves", json={"move": move, "ply": 0}, headers=alice),
            client.post(f"{url}/resign", headers=bob))
        final = (await client.get(url)).json()
        stored = len((await client.get(f"{url}/moves")).json())
        return played.status_code, resigned.status_code, final, stored

    async def run() -> list[tuple[int, int, dict[str, Any], int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for played, resigned, final, stored in run_async(run):
        assert played in (200, 409) and resigned in (200, 409), (played, resigned)
        assert played == 200 or resigned == 200, "one of them lands"
        assert stored == final["ply"] == (1 if played == 200 else 0)
        if resigned == 200:
            assert final["status"] == "finished" and final["result"]["winners"] == [0]
        else:
            assert final["status"] == "active"
