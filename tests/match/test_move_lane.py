"""An API client's move is served by the move lane (app/match/move_lane.py), in front of the
framework's stack, with the route's own answer; everything else goes to the route unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from sqlalchemy import exc as sa_exc

from app.http import doors, ratelimit
from app.http.inventory import find_route
from app.match import move_lane
from app.match.deps import match_service
from app.match.service import MatchService
from tests.accounts.test_api_tokens import make_account, make_token
from tests.conftest import make_guest, start_match

pytestmark = pytest.mark.both_databases  # the database is under test here


@pytest.fixture
def lane_plays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The match ids of the moves the lane played (the route's moves are not counted)."""
    played: list[str] = []
    play = move_lane._play

    def spy(app: Any, match_id: str, user: Any, body: Any) -> bytes:
        played.append(match_id)
        return play(app, match_id, user, body)

    monkeypatch.setattr(move_lane, "_play", spy)
    return played


def _move(client: TestClient, match: dict[str, Any], mover: dict[str, str]) -> dict[str, Any]:
    url = f"/api/v1/matches/{match['id']}"
    current = client.get(url, headers=mover).json()
    return {"move": current["legal_moves"][0], "ply": current["ply"]}


def test_a_bearer_move_takes_the_lane_and_answers_as_the_route(
        client: TestClient, lane_plays: list[str]) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}"
    client.cookies.clear()
    by_lane = client.post(f"{url}/moves", json=_move(client, match, alice), headers=alice)
    assert by_lane.status_code == 200, by_lane.text
    assert lane_plays == [match["id"]]
    # The route's answer to the next move (a cookie sends it to the stack), and each answer is
    # what a read of the match shows its mover just after.
    after_lane = client.get(url, headers=alice).json()
    by_route = client.post(f"{url}/moves", json=_move(client, match, bob),
                           headers={**bob, "Cookie": "unrelated=1"})
    assert by_route.status_code == 200, by_route.text
    assert lane_plays == [match["id"]]
    after_route = client.get(url, headers=bob).json()
    assert by_lane.json() == after_lane
    assert by_route.json() == after_route
    assert list(by_lane.json()) == list(by_route.json())
    for name in ("content-type", "content-length", "x-request-id"):
        assert name in by_lane.headers and name in by_route.headers
    assert by_lane.headers["content-type"] == by_route.headers["content-type"]
    assert "set-cookie" not in by_lane.headers


def test_a_refused_move_is_the_routes_error(client: TestClient, lane_plays: list[str]) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/moves"
    client.cookies.clear()
    move = _move(client, match, alice)
    out_of_turn = client.post(url, json=move, headers=bob)
    stale = client.post(url, json={**move, "ply": 3}, headers=alice)
    illegal = client.post(url, json={"move": "z9-z9", "ply": 0}, headers={
        **alice, "Accept-Language": "ja"})
    missing = client.post("/api/v1/matches/nosuchmatch/moves", json=move, headers=alice)
    assert len(lane_plays) == 4  # every one of them was played by the lane, and refused
    assert (out_of_turn.status_code, out_of_turn.json()["code"]) == (403, "not_your_turn")
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_ply")
    assert (illegal.status_code, illegal.json()["code"]) == (422, "illegal_move")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_match")
    english = client.post(url, json={"move": "z9-z9", "ply": 0}, headers=alice).json()
    assert illegal.json()["message"] != english["message"], "the reason in the caller's language"


def _database_away(*args: Any, **kwargs: Any) -> Any:
    raise sa_exc.OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))


def test_a_database_away_during_a_lane_move_is_the_apps_503(
        client: TestClient, lane_plays: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The lane leaves a database error to the app's handler: the 503 every route answers
    (``database_unavailable`` with Retry-After), counted once in the metrics."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    client.cookies.clear()
    move = _move(client, match, alice)
    before = _unavailable_count()
    monkeypatch.setattr(MatchService, "play", _database_away)
    away = client.post(f"/api/v1/matches/{match['id']}/moves", json=move, headers=alice)
    assert lane_plays == [match["id"]]
    assert (away.status_code, away.json()["code"]) == (503, "database_unavailable"), away.text
    assert int(away.headers["retry-after"]) >= 1
    assert _unavailable_count() == before + 1
    monkeypatch.undo()
    assert client.post(f"/api/v1/matches/{match['id']}/moves", json=move,
                       headers=alice).status_code == 200


def _unavailable_count() -> float:
    return REGISTRY.get_sample_value("stepwell_database_unavailable_total") or 0.0


@pytest.mark.parametrize("kind", ["no token", "unknown token", "cookie", "form body",
                                  "bad json", "schema", "anonymous"])
def test_anything_else_goes_to_the_route(client: TestClient, lane_plays: list[str],
                                         kind: str) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/moves"
    client.cookies.clear()
    move = _move(client, match, alice)
    headers, body = dict(alice), {"json": move}
    if kind == "no token":
        headers = {}
    elif kind == "unknown token":
        headers = {"Authorization": "Bearer not-a-token"}
    elif kind == "cookie":
        headers["Cookie"] = "unrelated=1"
    elif kind == "form body":
        body = {"data": move}
    elif kind == "bad json":
        body = {"content": b"{", "headers": {"Content-Type": "application/json"}}
    elif kind == "schema":
        body = {"json": {**move, "extra": 1}}
    elif kind == "anonymous":
        headers = {"Authorization": "Bearer "}
    extra_headers = body.pop("headers", {})
    answer = client.post(url, headers={**headers, **extra_headers}, **body)
    assert lane_plays == []
    expected = {"no token": (401, "unauthenticated"), "unknown token": (401, "invalid_token"),
                "cookie": (200, None), "form body": (422, "invalid_request"),
                "bad json": (422, "invalid_request"), "schema": (422, "invalid_request"),
                "anonymous": (401, "unauthenticated")}[kind]
    assert answer.status_code == expected[0], answer.text
    if expected[1] is not None:
        assert answer.json()["code"] == expected[1]


def test_a_token_without_the_play_scope_is_refused_by_the_route(
        client: TestClient, lane_plays: list[str]) -> None:
    owner, bob = make_account(client, "aiko"), make_guest(client, "Bob")
    match = start_match(client, owner, bob)
    reader = make_token(client, owner, ["read"])
    assert client.get("/api/v1/me", headers=reader).status_code == 200  # in the gate's cache
    client.cookies.clear()
    answer = client.post(f"/api/v1/matches/{match['id']}/moves",
                         json=_move(client, match, owner), headers=reader)
    assert (answer.status_code, answer.json()["code"]) == (403, "missing_scope")
    assert lane_plays == []


def test_the_lane_counts_the_routes_rate_limit(client: TestClient, lane_plays: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    client.cookies.clear()
    counted: list[tuple[str, str]] = []
    over = ratelimit.Verdict(7.0, ratelimit.Quota(10, 0, 7, "10;w=1"))
    monkeypatch.setattr(ratelimit.RateLimiter, "peek",
                        lambda self, name, key: counted.append((name, key)) or over)
    answer = client.post(f"/api/v1/matches/{match['id']}/moves",
                         json=_move(client, match, alice), headers=alice)
    assert (answer.status_code, answer.json()["code"]) == (429, "rate_limited")
    assert answer.headers["retry-after"] == "7" and answer.headers["ratelimit-remaining"] == "0"
    assert [name for name, _ in counted] == ["moves"]
    assert counted[0][1].startswith("t:") and counted[0][1].endswith(f"/m:{match['id']}")
    assert lane_plays == [], "refused before playing"


def test_the_lane_does_what_the_route_depends_on(client: TestClient) -> None:
    """If the route gains a dependency, the lane must learn it too (then update this list)."""
    route = find_route(client.app, move_lane.ROUTE, "POST")
    assert isinstance(route, APIRoute)
    calls = [dep.call for dep in route.dependant.dependencies]
    names = [getattr(call, "__name__", "") for call in calls]
    assert names == ["per_match", "door_play_signed_in", "match_service"]
    assert getattr(calls[1], doors.SCOPE_ATTRIBUTE) == "play"
    assert calls[2] is match_service
    assert [p.name for p in route.dependant.body_params] == ["body"]
    assert route.response_model is move_lane.MatchOut


def test_the_lane_is_counted_under_the_routes_template(client: TestClient,
                                                       lane_plays: list[str]) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    client.cookies.clear()
    assert client.post(f"/api/v1/matches/{match['id']}/moves",
                       json=_move(client, match, alice), headers=alice).status_code == 200
    assert lane_plays
    metrics = client.get("/metrics").text
    assert f'route="{move_lane.ROUTE}",status="200"' in metrics.replace("method=\"POST\",", "")
