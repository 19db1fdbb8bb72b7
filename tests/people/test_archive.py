"""A person's games as an NDJSON export (`since`, `until`, `max`, `game`), and conditional GET
(`ETag`, `If-None-Match` -> 304) on the export and on the reads of a finished match."""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel import timesource
from app.kernel.timesource import FakeClock
from app.people import archive
from tests.conftest import start_match


def _lines(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in answer.text.splitlines() if line]


def _finished(client: TestClient, alice: dict[str, str], bob: dict[str, str],
              game: str = "stairs") -> str:
    match = start_match(client, alice, bob, game=game)
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    return str(match["id"])


def test_the_export_streams_finished_games_newest_first_within_the_window(
        client: TestClient, alice: dict[str, str], bob: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "BATCH", 3)  # records built in batches, each its own session
    clock = FakeClock()
    played: list[tuple[str, int]] = []
    with timesource.use(clock):
        for game in ("stairs", "sight", "stairs", "scalas"):
            created = round(clock().replace(tzinfo=UTC).timestamp() * 1000)
            played.append((_finished(client, alice, bob, game), created))
            clock.advance(3600)
        start_match(client, alice, bob)  # in play: not in the archive
    alice_id = client.get("/api/v1/me", headers=alice).json()["id"]
    url = f"/api/v1/users/{alice_id}/games"
    everything = _lines(client.get(url))
    assert [r["match_id"] for r in everything] == [m for m, _ in reversed(played)]
    assert everything[0] == client.get(f"/api/v1/matches/{played[-1][0]}/export").json()
    assert all(r["status"] == "finished" for r in everything)
    window = _lines(client.get(url, params={"since": played[1][1], "until": played[2][1]}))
    assert [r["match_id"] for r in window] == [played[2][0], played[1][0]]
    assert [r["match_id"] for r in _lines(client.get(url, params={"max": 1}))] == [played[3][0]]
    stairs = _lines(client.get(url, params={"game": "stairs"}))
    assert [r["match_id"] for r in stairs] == [played[2][0], played[0][0]]
    assert _lines(client.get(url, params={"since": played[3][1] + 1})) == []


def test_the_export_refuses_bad_filters_and_unknown_people(client: TestClient) -> None:
    for query in ({"since": -1}, {"max": 0}, {"until": "soon"}, {"game": "chess"}):
        answer = client.get("/api/v1/users/1/games", params=query)
        assert answer.status_code in (404, 422), (query, answer.text)
    assert client.get("/api/v1/users/nobody-here/games").status_code == 404


def test_an_unchanged_export_is_304_and_a_new_game_changes_it(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    _finished(client, alice, bob)
    url = f"/api/v1/users/{client.get('/api/v1/me', headers=alice).json()['id']}/games"
    first = client.get(url)
    etag = first.headers["etag"]
    same = client.get(url, headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.content == b"" and same.headers["etag"] == etag
    assert client.get(url, headers={"If-None-Match": '"other", ' + etag}).status_code == 304
    _finished(client, alice, bob)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag
    assert len(_lines(changed)) == 2


def test_a_finished_match_and_its_records_answer_304_when_unchanged(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    match_id = _finished(client, alice, bob)
    for path in ("", "/export", "/export?format=text", "/moves", "/replay"):
        url = f"/api/v1/matches/{match_id}{path}"
        first = client.get(url, headers=alice)
        assert first.status_code == 200 and first.headers["etag"].startswith('W/"'), path
        assert "Authorization" in first.headers["vary"]
        again = client.get(url, headers={**alice, "If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", path
        assert client.get(url, headers={**alice, "If-None-Match": 'W/"stale"'}).status_code == 200


def test_a_match_in_play_changes_its_etag_with_each_move_and_each_seat_has_its_own(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, game="town")
    url = f"/api/v1/matches/{match['id']}"
    mine, theirs = client.get(url, headers=alice), client.get(url, headers=bob)
    assert mine.headers["etag"] != theirs.headers["etag"], "each seat sees its own cards"
    assert client.get(url, headers={**bob, "If-None-Match": mine.headers["etag"]}).status_code \
        == 200
    state = mine.json() if mine.json()["legal_moves"] else theirs.json()
    mover = alice if mine.json()["legal_moves"] else bob
    client.post(f"{url}/moves", headers=mover,
                json={"move": state["legal_moves"][0], "ply": state["ply"]}).raise_for_status()
    after = client.get(url, headers={**alice, "If-None-Match": mine.headers["etag"]})
    assert after.status_code == 200 and after.headers["etag"] != mine.headers["etag"]
