"""Races fired at a live server, requests sent together, on both databases: one rematch per game,
a full match always starts and nobody takes two seats, invited players accepting together both
get in and a decline racing the last acceptance leaves one outcome, a duplicate move is stored
once.

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


@pytest.fixture(scope="module")
def server(module_database_url: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One server per database for the module: each trial makes guests and matches of its own."""
    # Rate limits off: each trial creates guests and matches as fast as it can.
    with live_server(module_database_url, tmp_path_factory.mktemp("races"), bots_enabled="false",
                     rate_limit_scale="0") as base:
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


Headers = dict[str, str]


async def _town_challenge(client: httpx.AsyncClient) -> tuple[Headers, Headers, Headers, str]:
    """Three guests, the first challenging the others to Town; the challenge's URL last."""
    host, b, c = (await _guest(client, "Host"), await _guest(client, "B"),
                  await _guest(client, "C"))
    names = [str((await client.get("/api/v1/me", headers=who)).json()["id"]) for who in (b, c)]
    sent = (await client.post("/api/v1/challenges", json={"game": "town", "users": names},
                              headers=host)).json()
    return host, b, c, f"/api/v1/challenges/{sent['id']}"


def test_invited_players_accepting_at_once_both_get_in(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[list[int], str, int]:
        _host, b, c, url = await _town_challenge(client)
        answers = await _together(client.post(f"{url}/accept", headers=b),
                                  client.post(f"{url}/accept", headers=c))
        matched = [a.json()["match_id"] for a in answers if a.json().get("match_id")]
        match = (await client.get(f"/api/v1/matches/{matched[0]}")).json() if matched else {}
        return ([a.status_code for a in answers], match.get("status", "none"),
                sum(1 for s in match.get("seats", []) if s["user"]))

    async def run() -> list[tuple[list[int], str, int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for statuses, status, taken in run_async(run):
        assert statuses == [200, 200]
        assert (status, taken) == ("active", 3), "the last acceptance starts the match"


def test_a_decline_racing_the_last_acceptance_leaves_one_outcome(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[list[int], str, int]:
        host, b, c, url = await _town_challenge(client)
        await client.post(f"{url}/accept", headers=b)
        answers = await _together(client.post(f"{url}/accept", headers=c),
                                  client.post(f"{url}/decline", headers=b,
                                              json={"reason": "later"}))
        mine = (await client.get("/api/v1/me/matches", headers=host)).json()
        return sorted(a.status_code for a in answers), answers[0].json().get("status", ""), \
            len(mine)

    async def run() -> list[tuple[list[int], str, int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for statuses, accepted, matches in run_async(run):
        assert statuses == [200, 409], statuses
        assert matches == (1 if accepted == "matched" else 0)


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


def test_moves_sent_at_once_to_two_instances_are_stored_once_per_ply(
        database_url: str, tmp_path: Path) -> None:
    """Each instance keeps a match as its own last commit left it (warm matches, app/match/warm.py).
    Two instances on one database get every ply's move five times each, all at once: the instance
    that won the last ply plays on its warm copy, the other reads. Each ply is stored once and the
    losers get 409. Then the next move goes to the warm instance and the opponent's resignation
    to the other, together or (every other trial) the resignation first: the warm copy must not
    outlive the resignation."""
    plies = 6

    async def trial(a: httpx.AsyncClient, b: httpx.AsyncClient, together: bool) -> dict[str, Any]:
        alice, bob = await _guest(a, "Alice"), await _guest(a, "Bob")
        match = (await a.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                              headers=alice)).json()
        url = f"/api/v1/matches/{match['id']}"
        await a.post(f"{url}/join", headers=bob)
        statuses = []
        for ply in range(plies):
            mover = (alice, bob)[ply % 2]
            move = (await b.get(url, headers=mover)).json()["legal_moves"][0]
            answers = await _together(*(client.post(f"{url}/moves", json={"move": move, "ply": ply},
                                                    headers=mover) for client in (a, b) * 5))
            statuses.append(sorted(answer.status_code for answer in answers))
        # One clean move on A (a late duplicate drops a copy), so A holds the match warm.
        move = (await b.get(url, headers=alice)).json()["legal_moves"][0]
        await a.post(f"{url}/moves", json={"move": move, "ply": plies}, headers=alice)
        move = (await b.get(url, headers=bob)).json()["legal_moves"][0]
        play = a.post(f"{url}/moves", json={"move": move, "ply": plies + 1}, headers=bob)
        if together:
            played, resigned = await _together(play, b.post(f"{url}/resign", headers=alice))
        else:
            resigned = await b.post(f"{url}/resign", headers=alice)
            played = await play
        stored = (await b.get(f"{url}/moves")).json()
        return {"together": together, "statuses": statuses, "stored": [m["ply"] for m in stored],
                "played": played.status_code, "resigned": resigned.status_code,
                "on_a": (await a.get(url)).json(), "on_b": (await b.get(url)).json()}

    settings = {"bots_enabled": "false", "rate_limit_scale": "0"}
    with live_server(database_url, tmp_path, **settings) as first, \
            live_server(database_url, tmp_path, **settings) as second:
        async def run() -> list[dict[str, Any]]:
            async with httpx.AsyncClient(base_url=first, timeout=30) as a, \
                    httpx.AsyncClient(base_url=second, timeout=30) as b:
                return [await trial(a, b, together=i % 2 == 0) for i in range(max(4, TRIALS))]

        results = run_async(run)
    for r in results:
        assert all(s == [200] + [409] * 9 for s in r["statuses"]), r["statuses"]
        assert r["played"] in (200, 409) and r["resigned"] in (200, 409), r
        assert r["played"] == 200 or r["resigned"] == 200, "one of them lands"
        if not r["together"]:
            assert (r["resigned"], r["played"]) == (200, 409), "no move after the resignation"
        final = r["on_a"]
        assert r["on_b"]["ply"] == final["ply"] and r["on_b"]["status"] == final["status"]
        assert r["stored"] == list(range(1, final["ply"] + 1)), "each ply stored exactly once"
        assert final["ply"] == plies + 1 + (1 if r["played"] == 200 else 0)
        if r["resigned"] == 200:
            assert final["status"] == "finished" and final["result"]["winners"] == [1]
        else:
            assert final["status"] == "active"
