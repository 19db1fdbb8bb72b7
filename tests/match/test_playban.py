"""Playban through the API: abandoning rated real-time games (sitting out the clock, never
making a first move, leaving so the opponent claims the win) earns escalating waits before the
next rated game, refused at every door that starts one with 403 ``playban`` and ``until``,
lifted when the wait ends, forgiven by games finished properly and by time; on two app
instances sharing one database. Time is the project's fake clock: nothing sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import count
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import PlaybanOutcome
from app.kernel import timesource
from app.kernel.settings import Settings
from app.kernel.timesource import FakeClock
from app.main import create_app
from app.match.timeouts import flag_overdue

BLITZ = {"kind": "realtime", "minutes": 1, "increment": 0}
_names = count(1)


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock()
    with timesource.use(fake):
        yield fake


class Player:
    def __init__(self, client: TestClient, username: str) -> None:
        made = client.post("/api/v1/accounts", json={"username": username,
                                                      "password": "long enough"})
        assert made.status_code == 201, made.text
        self.username = username
        self.id = made.json()["user"]["id"]
        self.headers = {"Authorization": f"Bearer {made.json()['token']}"}


def _players(client: TestClient) -> tuple[Player, Player]:
    n = next(_names)
    return Player(client, f"sitter{n}"), Player(client, f"keeper{n}")


def _rated_game(client: TestClient, first: Player, second: Player,
                control: dict[str, Any] | None = None) -> str:
    """A rated real-time game, ``first`` in seat 0 (to move)."""
    challenge = client.post("/api/v1/challenges", headers=first.headers, json={
        "user": second.username, "game": "stairs", "rated": True, "seat": 0,
        "time_control": control or BLITZ})
    assert challenge.status_code == 201, challenge.text
    accepted = client.post(f"/api/v1/challenges/{challenge.json()['id']}/accept",
                           headers=second.headers)
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["match_id"])


def _move(client: TestClient, match_id: str, player: Player) -> None:
    state = client.get(f"/api/v1/matches/{match_id}", headers=player.headers).json()
    moved = client.post(f"/api/v1/matches/{match_id}/moves", headers=player.headers,
                        json={"move": state["legal_moves"][0], "ply": state["ply"]})
    assert moved.status_code == 200, moved.text


def _sweep(client: TestClient) -> None:
    flag_overdue(client.app.state.session_factory, client.app.state.match_publisher)


def _status(client: TestClient, match_id: str) -> dict[str, Any]:
    return client.get(f"/api/v1/matches/{match_id}").json()  # type: ignore[no-any-return]


def sit_out(client: TestClient, clock: FakeClock, sitter: Player, other: Player) -> str:
    """A rated game in which ``sitter`` moves once, then lets the clock run out."""
    match_id = _rated_game(client, sitter, other)
    _move(client, match_id, sitter)
    _move(client, match_id, other)
    clock.advance(61)
    _sweep(client)
    final = _status(client, match_id)
    assert final["status"] == "finished" and final["result"]["reason"] == "time_out"
    return match_id


def play_properly(client: TestClient, player: Player, other: Player) -> None:
    """A rated game ``player`` finishes properly: resigning is a proper ending."""
    match_id = _rated_game(client, player, other)
    _move(client, match_id, player)
    assert client.post(f"/api/v1/matches/{match_id}/resign",
                       headers=player.headers).status_code == 200


def _rated_seek(client: TestClient, player: Player) -> Any:
    return client.post("/api/v1/seeks", headers=player.headers,
                       json={"game": "stairs", "rated": True, "time_control": BLITZ})


def _refused_until(answer: Any) -> datetime:
    assert answer.status_code == 403, answer.text
    body = answer.json()
    assert body["code"] == "playban" and body["message"]
    return datetime.fromisoformat(body["until"].removesuffix("Z"))


def _ban_minutes(client: TestClient, player: Player) -> int | None:
    found = client.get("/api/v1/me/playban", headers=player.headers).json()["playban"]
    return None if found is None else int(found["minutes"])


def _outcomes(client: TestClient, player: Player) -> list[str]:
    with client.app.state.session_factory() as session:
        return list(session.scalars(select(PlaybanOutcome.outcome).where(
            PlaybanOutcome.user_id == player.id).order_by(PlaybanOutcome.id)))


def test_sitting_out_the_clock_earns_a_wait_refused_at_every_door_then_lifted(
        clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    for _ in range(3):
        sit_out(client, clock, sitter, keeper)
    assert _outcomes(client, sitter) == ["sitting"] * 3
    assert _outcomes(client, keeper) == ["good"] * 3
    assert _ban_minutes(client, sitter) is None, "three abandoned games are tolerated"
    sit_out(client, clock, sitter, keeper)
    assert _ban_minutes(client, sitter) == 10

    until = _refused_until(_rated_seek(client, sitter))
    assert (until - timesource.now()).total_seconds() == 600
    _refused_until(client.post("/api/v1/quick-play", headers=sitter.headers,
                               json={"game": "stairs"}))
    _refused_until(client.post("/api/v1/challenges", headers=sitter.headers, json={
        "user": keeper.username, "game": "stairs", "rated": True, "time_control": BLITZ}))
    offered = client.post("/api/v1/challenges", headers=keeper.headers, json={
        "user": sitter.username, "game": "stairs", "rated": True, "time_control": BLITZ})
    _refused_until(client.post(f"/api/v1/challenges/{offered.json()['id']}/accept",
                               headers=sitter.headers))
    seek = _rated_seek(client, keeper).json()
    _refused_until(client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=sitter.headers))
    casual = client.post("/api/v1/seeks", headers=sitter.headers, json={"game": "stairs"})
    assert casual.status_code == 201, "casual games stay open"

    clock.advance(9 * 60 + 59)
    _refused_until(_rated_seek(client, sitter))
    clock.advance(1)
    assert _rated_seek(client, sitter).status_code == 201
    assert _ban_minutes(client, sitter) is None


def test_a_rated_rematch_and_a_rated_tournament_are_doors_too(
        clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    last = ""
    for _ in range(4):
        last = sit_out(client, clock, sitter, keeper)
    refused = client.post(f"/api/v1/matches/{last}/offers/rematch", headers=sitter.headers)
    _refused_until(refused)
    theirs = client.post(f"/api/v1/matches/{last}/offers/rematch", headers=keeper.headers)
    assert theirs.status_code == 409 and theirs.json()["code"] == "opponent_playban"
    made = client.post("/api/v1/tournaments", headers=keeper.headers, json={
        "name": "Rated", "kind": "arena", "game": "stairs", "rated": True, "minutes": 30,
        "time_control": BLITZ})
    assert made.status_code == 201, made.text
    _refused_until(client.post(f"/api/v1/tournaments/{made.json()['id']}/join",
                               headers=sitter.headers))


def test_never_moving_and_leaving_without_resigning_count_as_abandoning(
        clock: FakeClock, client: TestClient) -> None:
    quitter, other = _players(client)
    no_start = _rated_game(client, other, quitter)
    _move(client, no_start, other)
    clock.advance(61)
    _sweep(client)
    assert _status(client, no_start)["status"] == "aborted"

    left = _rated_game(client, other, quitter, {"kind": "realtime", "minutes": 5})
    _move(client, left, other)
    _move(client, left, quitter)
    _move(client, left, other)  # quitter to move, and gone
    clock.advance(client.app.state.settings.claim_after_seconds + 1)
    claimed = client.post(f"/api/v1/matches/{left}/claim-victory", headers=other.headers)
    assert claimed.status_code == 200, claimed.text

    aborted = _rated_game(client, other, quitter)
    _move(client, aborted, other)
    assert client.post(f"/api/v1/matches/{aborted}/abort",
                       headers=quitter.headers).status_code == 200
    assert _outcomes(client, quitter) == ["no_start", "rage_quit", "abort"]
    assert _outcomes(client, other) == ["good"], "the opponent's game ended properly once"
    assert _ban_minutes(client, quitter) is None, "0.8 + 1 + 0.8 weighs less than 4"

    scramble = _rated_game(client, other, quitter)
    _move(client, scramble, other)
    _move(client, scramble, quitter)  # the clocks run from here
    _move(client, scramble, other)
    clock.advance(40)
    _move(client, scramble, quitter)  # 20 s left
    _move(client, scramble, other)
    clock.advance(21)
    _sweep(client)
    assert _status(client, scramble)["result"]["reason"] == "time_out"
    assert _outcomes(client, quitter)[-1] == "good", "flagging in a scramble is no abandonment"


def test_repeats_wait_longer_and_finished_games_and_time_forgive(
        clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    for _ in range(4):
        sit_out(client, clock, sitter, keeper)
    assert _ban_minutes(client, sitter) == 10
    clock.advance(600)
    for _ in range(4):
        sit_out(client, clock, sitter, keeper)
    second = _ban_minutes(client, sitter)
    assert second is not None and 28 <= second <= 30, "right after the first: about three times"
    clock.advance(second * 60)
    for _ in range(3):  # the third wait this week needs only three
        sit_out(client, clock, sitter, keeper)
    third = _ban_minutes(client, sitter)
    assert third is not None and third >= 2.5 * second

    clock.advance(third * 60 + 28 * 24 * 3600)  # four weeks of good behaviour
    for _ in range(3):
        sit_out(client, clock, sitter, keeper)
    assert _ban_minutes(client, sitter) is None, "three are tolerated again"
    sit_out(client, clock, sitter, keeper)
    assert _ban_minutes(client, sitter) == 10, "time brought the wait back to its start"


def test_games_finished_properly_dilute_the_abandoned_ones(
        clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    for _ in range(3):
        sit_out(client, clock, sitter, keeper)
    for _ in range(8):
        play_properly(client, sitter, keeper)
    for _ in range(2):
        sit_out(client, clock, sitter, keeper)
        assert _ban_minutes(client, sitter) is None, "4 of 12, 5 of 13: under 40 %"
    sit_out(client, clock, sitter, keeper)
    assert _outcomes(client, sitter).count("sitting") == 6
    assert _ban_minutes(client, sitter) == 10, "6 of 14 is over it"


def test_casual_and_untimed_games_never_count(clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    for _ in range(5):
        challenge = client.post("/api/v1/challenges", headers=sitter.headers, json={
            "user": keeper.username, "game": "stairs", "seat": 0, "time_control": BLITZ})
        match_id = client.post(f"/api/v1/challenges/{challenge.json()['id']}/accept",
                               headers=keeper.headers).json()["match_id"]
        _move(client, match_id, sitter)
        _move(client, match_id, keeper)
        clock.advance(61)
        _sweep(client)
    assert _outcomes(client, sitter) == []
    assert _rated_seek(client, sitter).status_code == 201


def test_a_wait_earned_on_one_instance_is_enforced_and_lifted_on_another(
        database_url: str, clock: FakeClock) -> None:
    settings = Settings(database_url=database_url, secret_key="test-secret", bots_enabled=False)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        sitter, keeper = _players(first)
        assert _rated_seek(second, sitter).status_code == 201  # the second one knows them
        for _ in range(4):
            sit_out(first, clock, sitter, keeper)
        until = _refused_until(_rated_seek(second, sitter))
        _refused_until(second.post("/api/v1/quick-play", headers=sitter.headers,
                                   json={"game": "stairs"}))
        clock.advance((until - timesource.now()).total_seconds())
        assert _rated_seek(second, sitter).status_code == 201
        assert _rated_seek(first, sitter).status_code == 201


def _csrf(client: TestClient, path: str = "/login") -> str:
    import re

    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


def test_the_lobby_page_tells_the_person_why_and_until_when_in_their_language(
        clock: FakeClock, client: TestClient) -> None:
    sitter, keeper = _players(client)
    for _ in range(4):
        sit_out(client, clock, sitter, keeper)
    until = client.get("/api/v1/me/playban", headers=sitter.headers).json()["playban"]["until"]
    login = client.post("/login", data={"username": sitter.username, "password": "long enough",
                                        "csrf": _csrf(client)}, follow_redirects=False)
    assert login.status_code in (302, 303), login.text
    english = client.get("/").text
    assert 'id="playban-notice"' in english
    assert "letting your clock run out instead of moving" in english
    assert f"{until[:10]} {until[11:16]} UTC, in 10 min" in english
    japanese = client.get("/?lang=ja").text
    assert "レート戦" in japanese and "letting your clock" not in japanese
    form = client.post("/play", data={"csrf": _csrf(client, "/"), "game": "stairs",
                                      "mode": "lobby", "rated": "on", "clock": "rt:3:2"})
    assert form.status_code == 403 and "10 min" in form.text
