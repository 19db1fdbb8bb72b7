"""The move quota against a live server, at its default size, on both databases: a bot playing
instantly in ten games at once never meets it; a flood of moves at one game gets 429 at once,
and neither the flooder's other games nor the other players of the flooded one are held back.
Every answer that counted the quota says what is left of it (``RateLimit-*``)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.kernel.settings import Settings
from tests.live.server import live_server, run_async

GAMES = 10
MOVE_LIMIT = int(Settings.model_fields["rate_moves"].default.split("/")[0])
"""The default quota's tightest window (refused moves a second per player per game)."""


@pytest.fixture(scope="module")
def server(module_database_url: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The default move quota; only the limits on making guests and matches are raised, so one
    test may make as many as it plays."""
    with live_server(module_database_url, tmp_path_factory.mktemp("quota"), bots_enabled="false",
                     rate_limit_scale="1", rate_guests="1000/minute",
                     rate_matches="1000/minute") as base:
        yield base


async def _guest(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await client.post("/api/v1/guests", json={"name": name})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def _match(client: httpx.AsyncClient, bot: dict[str, str], game: str = "stairs"
                 ) -> tuple[str, dict[int, dict[str, str]]]:
    """A started match of ``bot`` against a fresh guest: its id and the players by seat."""
    other = await _guest(client, "Opponent")
    created = (await client.post("/api/v1/matches", json={"game": game}, headers=bot)).json()
    joined = await client.post(f"/api/v1/matches/{created['id']}/join", headers=other)
    assert joined.status_code == 200, joined.text
    seats = {s["seat"]: s["user"]["name"] for s in joined.json()["seats"]}
    return created["id"], {seat: bot if name == "Engine" else other for seat, name in seats.items()}


async def _play_out(client: httpx.AsyncClient, match_id: str,
                    players: dict[int, dict[str, str]]) -> list[httpx.Response]:
    """Both sides answer at once, each move sent as soon as the last one is answered."""
    url = f"/api/v1/matches/{match_id}"
    answers = []
    state = (await client.get(url, headers=players[0])).json()
    while state["status"] == "active":
        mover = players[state["to_move"]]
        mine = (await client.get(url, headers=mover)).json()
        answer = await client.post(f"{url}/moves", headers=mover,
                                   json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
        answers.append(answer)
        if answer.status_code != 200:
            break
        state = answer.json()
    return answers


def test_a_bot_playing_instantly_in_ten_games_at_once_never_meets_the_quota(server: str) -> None:
    async def run() -> list[list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=server, timeout=60) as client:
            bot = await _guest(client, "Engine")
            matches = [await _match(client, bot) for _ in range(GAMES)]
            return list(await asyncio.gather(*(_play_out(client, match_id, players)
                                               for match_id, players in matches)))

    games = run_async(run)
    moves = [answer for game in games for answer in game]
    assert all(answer.status_code == 200 for answer in moves), \
        [answer.text for answer in moves if answer.status_code != 200][:3]
    assert all(game[-1].json()["status"] == "finished" for game in games)
    assert len(moves) > GAMES * MOVE_LIMIT, "more moves than one game's quota, in every sense"
    assert {a.headers["ratelimit-remaining"] for a in moves} == {str(MOVE_LIMIT)}, \
        "a move played on its turn never counts"


def test_a_flood_of_moves_at_one_game_gets_429_and_holds_back_nothing_else(server: str) -> None:
    async def run() -> tuple[list[httpx.Response], list[httpx.Response], httpx.Response]:
        async with httpx.AsyncClient(base_url=server, timeout=60) as client:
            flooder = await _guest(client, "Engine")
            flooded, players = await _match(client, flooder)
            other_game, other_players = await _match(client, flooder)
            url = f"/api/v1/matches/{flooded}/moves"
            flood = list(await asyncio.gather(*(
                client.post(url, headers=flooder, json={"move": "a1-b2", "ply": 7})
                for _ in range(6 * MOVE_LIMIT))))
            elsewhere = await _play_out(client, other_game, other_players)
            opponent = next(p for p in players.values() if p is not flooder)
            theirs = await client.post(url, headers=opponent, json={"move": "a1-b2", "ply": 7})
            return flood, elsewhere, theirs

    flood, elsewhere, theirs = run_async(run)
    refused = [a for a in flood if a.status_code == 429]
    assert refused, "the flood was never refused"
    assert all(a.status_code == 409 for a in flood if a.status_code != 429)
    for answer in refused:
        assert answer.json()["code"] == "rate_limited"
        assert int(answer.headers["retry-after"]) >= 1
        assert answer.headers["ratelimit-remaining"] == "0"
        assert answer.headers["ratelimit-limit"] == str(MOVE_LIMIT)
    assert all(a.status_code == 200 for a in elsewhere), "the flooder's other game plays on"
    assert theirs.status_code == 409, "the opponent's refusals are counted apart"


def _headers(answer: httpx.Response) -> dict[str, Any]:
    return {name: answer.headers.get(name) for name in
            ("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy")}


def test_every_limited_answer_says_what_is_left(server: str) -> None:
    """Guest creations, a challenge and a login each carry their limit's state; an unlimited
    read carries none."""
    with httpx.Client(base_url=server, timeout=30) as client:
        made = [client.post("/api/v1/guests", json={"name": name}) for name in ("Aiko", "Ben")]
        first, second = _headers(made[0]), _headers(made[1])
        assert first["ratelimit-limit"] == "1000" and first["ratelimit-policy"] == "1000;w=60"
        assert int(second["ratelimit-remaining"]) < int(first["ratelimit-remaining"]) < 1000
        assert 0 <= int(first["ratelimit-reset"]) <= 60
        aiko = {"Authorization": f"Bearer {made[0].json()['token']}"}
        challenge = client.post("/api/v1/challenges", headers=aiko,
                                json={"user": str(made[1].json()["user"]["id"]), "game": "sight"})
        assert challenge.status_code == 201, challenge.text
        assert _headers(challenge)["ratelimit-policy"] == "10;w=60, 100;w=3600"
        login = client.post("/api/v1/login", json={"username": "nobody", "password": "wrong"})
        assert login.status_code == 401 and login.headers["ratelimit-limit"] == "10"
        assert all(value is None for value in _headers(client.get("/api/v1/games")).values())
