"""Moves on a warm copy of the match (app/match/warm.py): the next move of a match this process
has just moved skips the database read, and whatever changed the match elsewhere is still caught
by the version, so the move is decided again on what the database holds. Both databases."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.kernel.timesource import FakeClock, use
from app.main import create_app
from app.match import store
from app.match.records import MatchRow
from app.match.warm import WarmMatches
from tests.conftest import make_guest, start_match

BLITZ = {"kind": "realtime", "minutes": 1, "increment": 2}


def _warm(client: TestClient) -> WarmMatches:
    return client.app.state.warm_matches  # type: ignore[attr-defined,no-any-return]


def _fresh_row(client: TestClient, match_id: str) -> MatchRow:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        return store.read(session, match_id)


def _move(client: TestClient, match_id: str, player: dict[str, str], ply: int,
          pick: int = 0) -> Any:
    moves = client.get(f"/api/v1/matches/{match_id}", headers=player).json()["legal_moves"]
    return client.post(f"/api/v1/matches/{match_id}/moves",
                       json={"move": moves[pick], "ply": ply}, headers=player)


def test_the_warm_copy_is_what_a_fresh_read_gives(client: TestClient) -> None:
    clock = FakeClock()
    with use(clock):
        players = [make_guest(client, "Light"), make_guest(client, "Dark")]
        match = start_match(client, *players, seat=0, time_control=BLITZ)
        for ply in range(6):
            clock.advance(1.5)
            answer = _move(client, match["id"], players[ply % 2], ply)
            assert answer.status_code == 200, answer.text
            warm = _warm(client).take(match["id"], ply + 1)
            assert warm is not None, "a move leaves its match warm"
            fresh = _fresh_row(client, match["id"])
            assert asdict(warm.row) == asdict(fresh)
            assert warm.state.to_json() == fresh.snapshot
            _warm(client).keep(warm)


def test_a_change_made_by_another_instance_is_caught_by_the_version(
        client: TestClient, database_url: str) -> None:
    """The warm copy is at the right ply but an older version: the other instance's change (an
    offer) must not be lost, and the move must still be played (not refused as stale)."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, seat=0)
    assert _move(client, match["id"], alice, 0).status_code == 200
    other = create_app(Settings(database_url=database_url, secret_key="test-secret"))
    with TestClient(other) as elsewhere:
        offered = elsewhere.post(f"/api/v1/matches/{match['id']}/offers/end", headers=alice)
        assert offered.status_code == 200, offered.text
        assert offered.json()["offers"] == {"end": [0]}
    answer = _move(client, match["id"], bob, 1)
    assert answer.status_code == 200, answer.text
    assert answer.json()["ply"] == 2 and answer.json()["offers"] == {}, "moves clear offers"
    assert answer.json()["version"] == offered.json()["version"] + 1
    assert len(client.get(f"/api/v1/matches/{match['id']}/moves").json()) == 2


def test_a_move_by_another_instance_leaves_the_copy_behind(
        client: TestClient, database_url: str) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, seat=0)
    assert _move(client, match["id"], alice, 0).status_code == 200
    bobs = client.get(f"/api/v1/matches/{match['id']}", headers=bob).json()["legal_moves"]
    other = create_app(Settings(database_url=database_url, secret_key="test-secret"))
    with TestClient(other) as elsewhere:
        assert _move(elsewhere, match["id"], bob, 1).status_code == 200
    stale = client.post(f"/api/v1/matches/{match['id']}/moves",  # again, at the copy's ply
                        json={"move": bobs[-1], "ply": 1}, headers=bob)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_ply"
    assert _move(client, match["id"], alice, 2).status_code == 200
    assert [m["ply"] for m in client.get(f"/api/v1/matches/{match['id']}/moves").json()] == [1, 2, 3]


def test_refusals_are_decided_on_the_database(client: TestClient) -> None:
    """Out of turn and out of time, with a warm copy at hand: the same answers as without one."""
    clock = FakeClock()
    with use(clock):
        alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
        match = start_match(client, alice, bob, seat=0, time_control=BLITZ)
        assert _move(client, match["id"], alice, 0).status_code == 200
        assert _move(client, match["id"], bob, 1).status_code == 200
        url = f"/api/v1/matches/{match['id']}"
        alices = client.get(url, headers=alice).json()["legal_moves"]
        out_of_turn = client.post(f"{url}/moves", json={"move": alices[0], "ply": 2}, headers=bob)
        assert out_of_turn.status_code == 403 and out_of_turn.json()["code"] == "not_your_turn"
        assert _warm(client).take(match["id"], 2) is None, "a refusal drops the copy"
        assert _move(client, match["id"], alice, 2).status_code == 200  # warm again at ply 3
        bobs = client.get(url, headers=bob).json()["legal_moves"]
        clock.advance(120)
        late = client.post(f"{url}/moves", json={"move": bobs[0], "ply": 3}, headers=bob)
        assert late.status_code == 409 and late.json()["code"] == "time_out"
        final = client.get(url).json()
        assert final["status"] == "finished" and final["result"]["reason"] == "time_out"
