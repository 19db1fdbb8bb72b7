"""Time controls with a controllable clock: spending time, increments, flagging with nobody
connected, first-move aborts, a move that arrives too late, and a restart that loses nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel import timesource
from app.kernel.settings import Settings
from app.kernel.timesource import FakeClock
from app.main import create_app
from app.match.timeouts import flag_overdue
from tests.conftest import make_guest

BLITZ = {"kind": "realtime", "minutes": 1, "increment": 2}


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock()
    with timesource.use(fake):
        yield fake


def _timed_match(client: TestClient, control: dict[str, Any] | None = None, game: str = "stairs"
                 ) -> tuple[str, list[dict[str, str]]]:
    players = [make_guest(client, "Light"), make_guest(client, "Dark")]
    match = client.post("/api/v1/matches", json={"game": game, "seat": 0,
                                                 "time_control": control or BLITZ},
                        headers=players[0]).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=players[1])
    return match["id"], players


def _move(client: TestClient, match_id: str, player: dict[str, str]) -> dict[str, Any]:
    state = client.get(f"/api/v1/matches/{match_id}", headers=player).json()
    response = client.post(f"/api/v1/matches/{match_id}/moves",
                           json={"move": state["legal_moves"][0], "ply": state["ply"]}, headers=player)
    assert response.status_code == 200, response.text
    return response.json()


def _sweep(client: TestClient) -> list[str]:
    return flag_overdue(client.app.state.session_factory, lambda record: None)


def test_time_controls_are_validated(client: TestClient, clock: FakeClock) -> None:
    guest = make_guest(client, "X")
    for bad in ({"kind": "realtime"}, {"kind": "correspondence", "days": 30},
                {"kind": "blitz", "minutes": 3}, {"kind": "realtime", "minutes": -1}):
        response = client.post("/api/v1/matches", json={"game": "stairs", "time_control": bad},
                               headers=guest)
        assert response.status_code == 422 and response.json()["code"] == "invalid_time_control"


def test_clocks_start_after_each_side_moved_and_count_time_spent(client: TestClient,
                                                                 clock: FakeClock) -> None:
    match_id, (light, dark) = _timed_match(client)
    start = client.get(f"/api/v1/matches/{match_id}").json()["clock"]
    assert start["remaining_ms"] == [60_000, 60_000] and start["ticking"] is None
    assert start["first_move_ms"] == 60_000
    clock.advance(5)
    _move(client, match_id, light)  # first moves are free
    clock.advance(7)
    after = _move(client, match_id, dark)
    assert after["clock"]["running"] and after["clock"]["ticking"] == 0
    assert after["clock"]["remaining_ms"] == [60_000, 60_000]
    clock.advance(10)
    ticking = client.get(f"/api/v1/matches/{match_id}").json()["clock"]
    assert ticking["remaining_ms"] == [50_000, 60_000], "the mover's clock runs down live"
    moved = _move(client, match_id, light)
    assert moved["clock"]["remaining_ms"] == [52_000, 60_000], "10 s spent, 2 s increment"
    record = client.get(f"/api/v1/matches/{match_id}/moves").json()
    assert [m["time_spent_ms"] for m in record] == [5_000, 7_000, 10_000]


def test_a_player_is_flagged_with_nobody_connected(client: TestClient, clock: FakeClock) -> None:
    match_id, (light, dark) = _timed_match(client)
    _move(client, match_id, light)
    _move(client, match_id, dark)
    clock.advance(59)
    assert _sweep(client) == []
    clock.advance(2)
    assert _sweep(client) == [match_id]
    assert _sweep(client) == [], "a timeout is applied once"
    final = client.get(f"/api/v1/matches/{match_id}").json()
    assert final["status"] == "finished" and final["result"]["reason"] == "time_out"
    assert final["result"]["winners"] == [1] and final["clock"]["remaining_ms"][0] == 0
    assert final["finished_at"].startswith("2026-01-01T12:01:00"), "flagged at the deadline"


def test_a_move_after_the_deadline_loses_on_time(client: TestClient, clock: FakeClock) -> None:
    match_id, (light, dark) = _timed_match(client)
    _move(client, match_id, light)
    _move(client, match_id, dark)
    clock.advance(61)
    state = client.get(f"/api/v1/matches/{match_id}", headers=light).json()
    late = client.post(f"/api/v1/matches/{match_id}/moves",
                       json={"move": state["legal_moves"][0], "ply": state["ply"]}, headers=light)
    assert late.status_code == 409 and late.json()["code"] == "time_out"
    assert client.get(f"/api/v1/matches/{match_id}").json()["result"]["winners"] == [1]


def test_no_first_move_aborts_without_a_result(client: TestClient, clock: FakeClock) -> None:
    match_id, _players = _timed_match(client)
    clock.advance(61)
    assert _sweep(client) == [match_id]
    final = client.get(f"/api/v1/matches/{match_id}").json()
    assert final["status"] == "aborted" and final["result"] is None


def test_correspondence_gives_days_per_move(client: TestClient, clock: FakeClock) -> None:
    match_id, (light, dark) = _timed_match(client, {"kind": "correspondence", "days": 2})
    _move(client, match_id, light)
    _move(client, match_id, dark)
    clock.advance(47 * 3600)
    _move(client, match_id, light)
    assert client.get(f"/api/v1/matches/{match_id}").json()["clock"]["remaining_ms"][1] == 2 * 86_400_000
    clock.advance(48 * 3600 + 1)
    assert _sweep(client) == [match_id]
    assert client.get(f"/api/v1/matches/{match_id}").json()["result"]["winners"] == [0]


def test_restart_keeps_clocks_and_catches_up_on_timeouts(database_url: str, clock: FakeClock) -> None:
    settings = Settings(database_url=database_url, secret_key="restart")
    with TestClient(create_app(settings)) as first:
        match_id, (light, dark) = _timed_match(first)
        _move(first, match_id, light)
        _move(first, match_id, dark)
        clock.advance(20)
        before = first.get(f"/api/v1/matches/{match_id}").json()
    assert before["clock"]["remaining_ms"] == [40_000, 60_000]
    # The server is down for a while, but less than the remaining time.
    clock.advance(30)
    with TestClient(create_app(settings)) as second:
        again = second.get(f"/api/v1/matches/{match_id}").json()
        assert again["status"] == "active" and again["ply"] == before["ply"]
        assert again["clock"]["remaining_ms"] == [10_000, 60_000]
        assert again["view"] == before["view"]
    clock.advance(60)  # down again past the deadline: the next start flags at the deadline
    with TestClient(create_app(settings)) as third:
        # the start-up sweep may have been first
        flag_overdue(third.app.state.session_factory, lambda record: None)
        final = third.get(f"/api/v1/matches/{match_id}").json()
    assert final["status"] == "finished" and final["result"]["reason"] == "time_out"
    assert final["finished_at"].startswith("2026-01-01T12:01:00")
