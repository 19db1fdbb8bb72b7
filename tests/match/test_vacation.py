"""Vacation on a controlled clock: the correspondence clock of a seat on vacation stands still and
is never flagged, it runs on from where it stood afterwards, the opponent sees the marker, the
year's allowance is enforced (the vacation ends by itself) and counted per calendar year."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel import timesource
from app.kernel.settings import Settings
from app.kernel.timesource import FakeClock
from app.main import create_app
from app.match.timeouts import flag_overdue
from app.match.vacation import sweep
from tests.conftest import make_guest

DAY = 24 * 3600
CORRESPONDENCE = {"kind": "correspondence", "days": 2}


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock(datetime(2026, 3, 1, 12, 0, 0))
    with timesource.use(fake):
        yield fake


@pytest.fixture
def short_client(database_url: str) -> Iterator[TestClient]:
    """An app whose allowance is three days a year."""
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              vacation_days_per_year=3))
    with TestClient(app) as test_client:
        yield test_client


def _started(client: TestClient, control: dict[str, Any] = CORRESPONDENCE
             ) -> tuple[str, dict[str, str], dict[str, str]]:
    """A correspondence Stairs match where both have moved once: Light (seat 0) to move."""
    light, dark = make_guest(client, "Light"), make_guest(client, "Dark")
    match = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0,
                                                 "time_control": control}, headers=light).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=dark)
    _move(client, match["id"], light)
    _move(client, match["id"], dark)
    return match["id"], light, dark


def _move(client: TestClient, match_id: str, player: dict[str, str]) -> dict[str, Any]:
    state = client.get(f"/api/v1/matches/{match_id}", headers=player).json()
    response = client.post(f"/api/v1/matches/{match_id}/moves",
                           json={"move": state["legal_moves"][0], "ply": state["ply"]},
                           headers=player)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def _match(client: TestClient, match_id: str, who: dict[str, str] | None = None) -> dict[str, Any]:
    return client.get(f"/api/v1/matches/{match_id}", headers=who or {}).json()  # type: ignore[no-any-return]


def _flag(client: TestClient) -> list[str]:
    return flag_overdue(client.app.state.session_factory, lambda record: None)  # type: ignore[attr-defined]


def _sweep(client: TestClient) -> int:
    return sweep(client.app.state.session_factory, lambda record: None)  # type: ignore[attr-defined]


def test_a_vacation_stops_the_clock_and_the_flag(client: TestClient, clock: FakeClock) -> None:
    match_id, light, dark = _started(client)
    clock.advance(3600)  # an hour of Light's two days gone
    started = client.post("/api/v1/me/vacation", headers=light)
    assert started.status_code == 200, started.text
    assert started.json()["on_vacation"] is True
    seen = _match(client, match_id, dark)
    assert [s["vacation"] for s in seen["seats"]] == [True, False], "the opponent sees it"
    assert seen["clock"]["paused"] is True and seen["clock"]["ticking"] is None
    assert seen["clock"]["remaining_ms"][0] == 2 * DAY * 1000 - 3600_000
    clock.advance(5 * DAY)
    assert _flag(client) == [], "a seat on vacation is never flagged"
    later = _match(client, match_id)
    assert later["status"] == "active"
    assert later["clock"]["remaining_ms"][0] == 2 * DAY * 1000 - 3600_000, "it stands still"
    back = client.delete("/api/v1/me/vacation", headers=light)
    assert back.status_code == 200 and back.json()["on_vacation"] is False
    assert back.json()["used_days"] == 5.0
    running = _match(client, match_id, dark)
    assert running["seats"][0]["vacation"] is False and running["clock"]["ticking"] == 0
    assert running["clock"]["remaining_ms"][0] == 2 * DAY * 1000 - 3600_000
    clock.advance(2 * DAY - 3600 - 1)
    assert _flag(client) == [], "the clock runs on from where it stood"
    clock.advance(2)
    assert _flag(client) == [match_id]


def test_the_turn_coming_to_a_seat_on_vacation_pauses_at_once(client: TestClient,
                                                              clock: FakeClock) -> None:
    match_id, light, dark = _started(client)
    assert client.post("/api/v1/me/vacation", headers=dark).status_code == 200
    assert _match(client, match_id)["clock"]["paused"] is False, "Light's clock still runs"
    clock.advance(600)
    moved = _move(client, match_id, light)
    assert moved["clock"]["paused"] is True and moved["clock"]["remaining_ms"][1] == 2 * DAY * 1000
    clock.advance(10 * DAY)
    assert _flag(client) == []
    # Dark may still play while away; Light's clock then runs as usual
    played = _move(client, match_id, dark)
    assert played["clock"]["paused"] is False and played["clock"]["ticking"] == 0
    assert played["seats"][1]["vacation"] is True


def test_a_vacation_does_not_touch_realtime_games(client: TestClient, clock: FakeClock) -> None:
    match_id, light, _dark = _started(client, {"kind": "realtime", "minutes": 1, "increment": 0})
    assert client.post("/api/v1/me/vacation", headers=light).status_code == 200
    seen = _match(client, match_id)
    assert seen["clock"]["paused"] is False and seen["seats"][0]["vacation"] is False
    clock.advance(61)
    assert _flag(client) == [match_id]


def test_the_allowance_ends_a_vacation_and_is_counted_per_year(short_client: TestClient,
                                                                clock: FakeClock) -> None:
    client = short_client
    match_id, light, dark = _started(client)
    assert client.post("/api/v1/me/vacation", headers=light).json()["ends_at"] == \
        "2026-03-04T12:00:00Z"
    again = client.post("/api/v1/me/vacation", headers=light)
    assert again.status_code == 409 and again.json()["code"] == "already_on_vacation"
    clock.advance(4 * DAY)  # a day past the allowance: the job ends it at the allowance's end
    assert _sweep(client) == 1
    status = client.get("/api/v1/me/vacation", headers=light).json()
    assert status["on_vacation"] is False and status["used_days"] == 3.0
    assert status["left_days"] == 0.0
    seen = _match(client, match_id, dark)
    assert seen["seats"][0]["vacation"] is False
    assert seen["clock"]["remaining_ms"][0] == 2 * DAY * 1000 - DAY * 1000, \
        "the clock ran again from the moment the allowance ran out"
    refused = client.post("/api/v1/me/vacation", headers=light)
    assert refused.status_code == 409 and refused.json()["code"] == "no_vacation_left"
    ended = client.delete("/api/v1/me/vacation", headers=light)
    assert ended.status_code == 409 and ended.json()["code"] == "not_on_vacation"
    clock.moment = datetime(2027, 1, 1, 0, 0, 1)  # a new year, a new allowance
    assert client.post("/api/v1/me/vacation", headers=light).status_code == 200


def test_a_vacation_over_new_year_counts_its_days_to_each_year(client: TestClient,
                                                               clock: FakeClock) -> None:
    light = make_guest(client, "Light")
    clock.moment = datetime(2026, 12, 30, 0, 0, 0)
    assert client.post("/api/v1/me/vacation", headers=light).status_code == 200
    clock.moment = datetime(2027, 1, 2, 0, 0, 0)
    status = client.delete("/api/v1/me/vacation", headers=light).json()
    assert status["used_days"] == 1.0, "only the new year's day counts now"


def test_the_sweep_repairs_a_match_that_started_during_a_vacation(client: TestClient,
                                                                  clock: FakeClock) -> None:
    light, dark = make_guest(client, "Light"), make_guest(client, "Dark")
    assert client.post("/api/v1/me/vacation", headers=light).status_code == 200
    match = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0,
                                                 "time_control": CORRESPONDENCE},
                        headers=light).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=dark)
    assert _match(client, match["id"])["seats"][0]["vacation"] is False
    assert _sweep(client) == 1
    seen = _match(client, match["id"])
    assert seen["seats"][0]["vacation"] is True and seen["clock"]["paused"] is True
    assert _sweep(client) == 0, "nothing left to repair"


def test_vacation_needs_a_caller(client: TestClient) -> None:
    assert client.post("/api/v1/me/vacation").status_code == 401
    assert client.get("/api/v1/me/vacation").status_code == 401
