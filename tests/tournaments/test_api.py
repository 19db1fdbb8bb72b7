"""The tournament API against a live server whose background job pairs: create, list, join,
withdraw and their errors; the OpenAPI document; a built-in bot entered by the creator; the
game's start in the account event stream with the tournament id; the tournament socket; and
standings moving when a game ends (that the job wakes at a game's end, not on its timer, is
tests/tournaments/test_job.py's)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.live.helpers import StreamReader, account, guest, live_server
from tests.live.server import WAIT_SECONDS


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("tournaments")) as url:
        yield url


def create(base: str, headers: dict[str, str], **fields: Any) -> httpx.Response:
    body = {"name": "Cup", "kind": "swiss", "game": "sight", "rounds": 3, **fields}
    return httpx.post(f"{base}/api/v1/tournaments", headers=headers, json=body)


def test_accounts_create_and_players_join_and_withdraw(base: str) -> None:
    host = account(base, "host1")
    later = "2099-01-01T10:00:00Z"
    created = create(base, host, starts_at=later)
    assert created.status_code == 201, created.text
    tournament = created.json()
    assert tournament["status"] == "upcoming" and tournament["starts_at"] == "2099-01-01T10:00:00Z"
    listed = httpx.get(f"{base}/api/v1/tournaments").json()
    assert tournament["id"] in [t["id"] for t in listed["upcoming"]]
    player = guest(base, "Walk-in")
    url = f"{base}/api/v1/tournaments/{tournament['id']}"
    joined = httpx.post(f"{url}/join", headers=player).json()
    assert joined["players"] == 1 and joined["you"]["joined"]
    assert httpx.post(f"{url}/join", headers=player).json()["code"] == "already_joined"
    left = httpx.post(f"{url}/withdraw", headers=player).json()
    assert left["players"] == 0 and not left["you"]["joined"]
    assert httpx.post(f"{url}/withdraw", headers=player).json()["code"] == "not_joined"


def test_two_bots_of_one_level_are_two_players_and_a_human_enters_once(base: str) -> None:
    host = account(base, "host7")
    tournament = create(base, host, starts_at="2099-01-01T10:00:00Z").json()
    url = f"{base}/api/v1/tournaments/{tournament['id']}"
    for _ in range(3):
        added = httpx.post(f"{url}/bots", headers=host, json={"level": "easy"})
        assert added.status_code == 200, added.text
    standings = added.json()["standings"]
    bots = [row["user"] for row in standings if row["user"]["kind"] == "bot"]
    assert len(bots) == 3 and len({bot["id"] for bot in bots}) == 3, bots
    assert sorted(bot["name"] for bot in bots) == ["Bot (easy)", "Bot 2 (easy)", "Bot 3 (easy)"]
    assert httpx.post(f"{url}/join", headers=host).status_code == 200
    twice = httpx.post(f"{url}/join", headers=host)
    assert twice.status_code == 409 and twice.json()["code"] == "already_joined"
    assert added.json()["players"] == 3
    listed = httpx.get(f"{base}/api/v1/bots").json()
    assert "Bot 2 (easy)" not in [bot["name"] for bot in listed], "copies play tournaments only"


NAMES = itertools.count()
REALTIME = {"kind": "realtime", "minutes": 1, "increment": 0}


@pytest.mark.parametrize(("who", "fields", "status", "code"), [
    ("guest", {}, 403, "accounts_only"),
    ("account", {"rounds": None}, 422, "invalid_rounds"),
    ("account", {"kind": "arena", "rounds": None, "time_control": REALTIME}, 422,
     "invalid_duration"),
    ("account", {"kind": "arena", "rounds": None, "minutes": 5}, 422, "arena_needs_realtime"),
    ("account", {"kind": "duplicate", "game": "town", "rated": True}, 422, "duplicate_unrated"),
    ("account", {"kind": "duplicate", "game": "sight"}, 422, "no_duplicate_deal"),
    ("account", {"game": "chess"}, 404, "no_game"),
    ("account", {"game": "town", "options": {"start_cards": [1, 2]}}, 422,
     "secret_options_in_tournament"),
    ("account", {"starts_at": "2001-01-01T00:00:00Z"}, 422, "start_in_past"),
])
def test_bad_tournaments_are_refused(base: str, who: str, fields: dict[str, Any], status: int,
                                     code: str) -> None:
    headers = guest(base, "G") if who == "guest" else account(base, f"maker{next(NAMES)}")
    response = create(base, headers, **fields)
    assert (response.status_code, response.json()["code"]) == (status, code)


def test_missing_tournament_is_404_and_rated_needs_an_account(base: str) -> None:
    response = httpx.get(f"{base}/api/v1/tournaments/nope")
    assert (response.status_code, response.json()["code"]) == (404, "no_tournament")
    rated = create(base, account(base, "host2"), rated=True, starts_at="2099-01-01T10:00:00Z").json()
    refused = httpx.post(f"{base}/api/v1/tournaments/{rated['id']}/join", headers=guest(base, "G"))
    assert (refused.status_code, refused.json()["code"]) == (403, "rated_needs_account")


def test_the_openapi_document_has_the_tournament_routes(base: str) -> None:
    paths = httpx.get(f"{base}/openapi.json").json()["paths"]
    for path in ("/api/v1/tournaments", "/api/v1/tournaments/{tournament_id}",
                 "/api/v1/tournaments/{tournament_id}/join",
                 "/api/v1/tournaments/{tournament_id}/withdraw",
                 "/api/v1/tournaments/{tournament_id}/bots",
                 "/api/v1/tournaments/{tournament_id}/pause",
                 "/api/v1/tournaments/{tournament_id}/berserk"):
        assert path in paths


def test_a_tournament_game_with_a_bot_from_start_to_standings(base: str) -> None:
    host = account(base, "host3")
    tournament = create(base, host, rounds=1, starts_at="2099-01-01T10:00:00Z").json()
    url = f"{base}/api/v1/tournaments/{tournament['id']}"
    assert httpx.post(f"{url}/join", headers=host).status_code == 200
    entered = httpx.post(f"{url}/bots", headers=host, json={"level": "easy"}).json()
    assert [r["user"]["kind"] for r in entered["standings"]].count("bot") == 1
    other = account(base, "nothost")
    refused = httpx.post(f"{url}/bots", headers=other, json={"level": "easy"}).json()
    assert refused["code"] == "not_creator"

    events = StreamReader(f"{base}/api/v1/stream/event", host)
    with connect(f"{base.replace('http', 'ws')}/api/v1/tournaments/{tournament['id']}/ws") as socket:
        try:
            not_yours = httpx.post(f"{url}/start", headers=other).json()
            assert not_yours["code"] == "not_creator"
            assert httpx.post(f"{url}/start", headers=host).json()["status"] in ("upcoming", "running")
            start = events.next_of("gameStart", timeout=15)
            assert start["game"]["tournament"] == tournament["id"]
            match_id = start["game"]["id"]
            httpx.post(f"{base}/api/v1/matches/{match_id}/resign", headers=host).raise_for_status()
            while True:  # the job records it: the socket says so, the standings move
                message = json.loads(socket.recv(timeout=WAIT_SECONDS))
                if message["type"] == "tournament" and message["status"] == "finished":
                    break
            final = httpx.get(url, headers=host).json()
        finally:
            events.close()
    assert final["status"] == "finished"
    top = final["standings"][0]
    assert top["user"]["kind"] == "bot" and top["score"] == 1.0
    assert final["games"][0]["url"] == f"/m/{match_id}"

