"""Rate limits: each limit answers 429 ``rate_limited`` with ``Retry-After`` before twice its
setting, under concurrent requests, on both databases; other callers are not affected.

These apps use the real default limits (``rate_limit_scale=1``); the rest of the suite runs with
the scale raised (tests/conftest.py) so it never meets them.
"""

from __future__ import annotations

import math
import re
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.http.ratelimit import RateLimiter
from app.kernel.settings import Settings
from app.main import create_app
from tests import servers
from tests.conftest import make_guest

DEFAULTS = Settings(secret_key="defaults", rate_limit_scale=1.0)


def first_amount(name: str) -> int:
    """The tightest window's count of a limit as configured (e.g. 10 for "10/second;600/minute")."""
    return int(re.match(r"\s*(\d+)", getattr(DEFAULTS, f"rate_{name}")).group(1))  # type: ignore[union-attr]


@pytest.fixture
def limited_app(database_url: str):  # type: ignore[no-untyped-def]
    return create_app(Settings(database_url=database_url, secret_key="limits",
                               rate_limit_scale=1.0, bots_enabled=False))


@pytest.fixture
def limited(limited_app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(limited_app) as client:
        yield client


def fire(count: int, send: Callable[[int], httpx.Response]) -> list[httpx.Response]:
    """``count`` requests, eight at a time."""
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(send, range(count)))


def assert_limited(name: str, responses: list[httpx.Response], ok: set[int],
                   seconds: float = 0.0) -> int:
    """Between the limit and twice the limit got through, every other answer is a proper 429.

    For a per-second window, ``seconds`` is how long the burst took: a loaded machine that needs
    three seconds to send it rightly lets three windows' worth through."""
    limit = first_amount(name)
    allowed = [r for r in responses if r.status_code != 429]
    refused = [r for r in responses if r.status_code == 429]
    assert {r.status_code for r in allowed} <= ok, [r.text for r in allowed if r.status_code not in ok]
    ceiling = 2 * limit if seconds < 1 else math.ceil(limit * (seconds + 1))
    assert limit <= len(allowed) < ceiling, (name, len(allowed), limit, seconds)
    assert refused, name
    for response in refused:
        assert response.json()["code"] == "rate_limited"
        assert response.json()["message"]
        assert int(response.headers["retry-after"]) >= 1
    print(f"\n{name}: {len(allowed)} of {len(responses)} answered before 429 (limit {limit}, "
          f"burst took {seconds:.2f} s)")
    return len(allowed)


def test_guest_creation_per_address(limited: TestClient, limited_app: Any) -> None:
    responses = fire(3 * first_amount("guests"),
                     lambda i: limited.post("/api/v1/guests", json={"name": f"G{i}"}))
    assert_limited("guests", responses, {201})
    with TestClient(limited_app, client=("203.0.113.9", 5000)) as elsewhere:
        assert elsewhere.post("/api/v1/guests", json={"name": "Other"}).status_code == 201


def test_account_creation_per_address(limited: TestClient) -> None:
    tag = uuid.uuid4().hex[:6]
    responses = fire(3 * first_amount("accounts"), lambda i: limited.post(
        "/api/v1/accounts", json={"username": f"u{tag}{i}", "password": "correct horse"}))
    assert_limited("accounts", responses, {201})


def test_logins_per_address(limited: TestClient) -> None:
    responses = fire(3 * first_amount("login_address"), lambda i: limited.post(
        "/api/v1/login", json={"username": f"nobody{i}", "password": "wrong password"}))
    assert_limited("login_address", responses, {401})


def test_logins_per_account_from_many_addresses(limited: TestClient, limited_app: Any) -> None:
    created = limited.post("/api/v1/accounts", json={"username": "target", "password": "sesame123"})
    assert created.status_code == 201

    def login_from(i: int) -> httpx.Response:
        with TestClient(limited_app, client=(f"198.51.100.{i}", 4000)) as client:
            return client.post("/api/v1/login", json={"username": "Target", "password": "sesame123"})

    responses = fire(3 * first_amount("login_account"), login_from)
    assert_limited("login_account", responses, {200})


def test_failed_logins_lock_the_account_for_growing_times(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, secret_key="lock", bots_enabled=False,
                              rate_limit_scale=1.0, login_lockout_after=3,
                              login_lockout_seconds=1.0, rate_login_account="100/minute",
                              rate_login_address="100/minute"))
    with TestClient(app) as client:
        assert client.post("/api/v1/accounts", json={"username": "victim", "password": "sesame123"}
                           ).status_code == 201

        def login(password: str) -> httpx.Response:
            return client.post("/api/v1/login", json={"username": "victim", "password": password})

        assert [login("guess").status_code for _ in range(3)] == [401, 401, 401]
        locked = login("sesame123")  # even the right password waits out the lock
        assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
        first_wait = int(locked.headers["retry-after"])
        assert first_wait >= 1
        time.sleep(first_wait + 0.1)
        assert login("guess").status_code == 401
        second = login("guess")
        assert second.status_code == 429
        assert int(second.headers["retry-after"]) >= 2 * first_wait  # the lock doubled
        time.sleep(int(second.headers["retry-after"]) + 0.1)
        assert login("sesame123").status_code == 200  # success clears the count
        assert login("guess").status_code == 401
        assert login("sesame123").status_code == 200


def test_match_creation_per_user(limited: TestClient) -> None:
    alice = make_guest(limited, "Alice")
    responses = fire(3 * first_amount("matches"), lambda i: limited.post(
        "/api/v1/matches", json={"game": "stairs"}, headers=alice))
    assert_limited("matches", responses, {201})
    bob = make_guest(limited, "Bob")
    assert limited.post("/api/v1/matches", json={"game": "stairs"}, headers=bob).status_code == 201


def test_seek_creation_per_user(limited: TestClient) -> None:
    alice = make_guest(limited, "Alice")
    responses = fire(3 * first_amount("seeks"), lambda i: limited.post(
        "/api/v1/seeks", json={"game": "stairs"}, headers=alice))
    assert_limited("seeks", responses, {201})
    assert limited.post("/api/v1/quick-play", json={"game": "sight"}, headers=alice
                        ).status_code == 429


def test_challenges_per_user(limited: TestClient) -> None:
    alice = make_guest(limited, "Alice")
    bob_id = limited.get("/api/v1/me", headers=make_guest(limited, "Bob")).json()["id"]
    responses = fire(3 * first_amount("challenges"), lambda i: limited.post(
        "/api/v1/challenges", json={"user": str(bob_id), "game": "stairs"}, headers=alice))
    assert_limited("challenges", responses, {201})


def test_refused_moves_per_player_per_match(limited: TestClient) -> None:
    alice, bob = make_guest(limited, "Alice"), make_guest(limited, "Bob")
    created = limited.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    assert limited.post(f"/api/v1/matches/{created['id']}/join", headers=bob).status_code == 200
    url = f"/api/v1/matches/{created['id']}/moves"
    started = time.monotonic()
    responses = fire(4 * first_amount("moves"),
                     lambda i: limited.post(url, json={"move": "a1-b2", "ply": 7}, headers=alice))
    assert_limited("moves", responses, {409}, seconds=time.monotonic() - started)
    # the opponent's token is counted apart
    assert limited.post(url, json={"move": "a1-b2", "ply": 7}, headers=bob).status_code == 409


def test_a_normal_fast_game_never_meets_the_move_limit(limited: TestClient) -> None:
    """Two clients answering each other's moves instantly, like two bots, play a whole game."""
    alice, bob = make_guest(limited, "Alice"), make_guest(limited, "Bob")
    match = limited.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    match = limited.post(f"/api/v1/matches/{match['id']}/join", headers=bob).json()
    players = {0: alice, 1: bob}
    while match["status"] == "active" and match["ply"] < 60:
        seat = match["to_move"]
        mine = limited.get(f"/api/v1/matches/{match['id']}", headers=players[seat]).json()
        moved = limited.post(f"/api/v1/matches/{match['id']}/moves", headers=players[seat],
                             json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
        assert moved.status_code == 200, moved.text
        match = moved.json()


def test_login_form_shows_a_readable_page_when_limited(limited: TestClient) -> None:
    page = limited.get("/login").text
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    answers = [limited.post("/login", data={"csrf": csrf, "username": f"x{i}", "password": "nope"},
                            follow_redirects=False)
               for i in range(first_amount("login_address") + 1)]
    assert [a.status_code for a in answers[:-1]] == [401] * first_amount("login_address")
    last = answers[-1]
    assert last.status_code == 429
    assert last.headers["content-type"].startswith("text/html")
    assert int(last.headers["retry-after"]) >= 1
    assert "try again" in last.text.lower()


def test_socket_check_and_chat_limit() -> None:
    limiter = RateLimiter(Settings(secret_key="k", rate_limit_scale=1.0, redis_url=None))
    waits = [limiter.check("chat", "t:abc") for _ in range(2 * first_amount("chat"))]
    allowed = [w for w in waits if w is None]
    assert len(allowed) == first_amount("chat")
    assert all(w is not None and w > 0 for w in waits[len(allowed):])
    assert limiter.check("chat", "t:other") is None


def test_scale_zero_switches_limits_off() -> None:
    limiter = RateLimiter(Settings(secret_key="k", rate_limit_scale=0, redis_url=None))
    assert all(limiter.check("moves", "t:x") is None for _ in range(100))


def test_redis_storage_is_shared_by_instances(database_url: str) -> None:
    """With REDIS_URL set, two instances count one client's guests together."""
    redis_url = servers.require_redis("the shared rate-limit storage test")
    prefix = f"test-limits-{uuid.uuid4().hex[:8]}"
    apps = [create_app(Settings(database_url=database_url, secret_key="r", redis_url=redis_url,
                                rate_limit_prefix=prefix, rate_limit_scale=1.0,
                                bots_enabled=False)) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        clients = [one, two]
        responses = fire(3 * first_amount("guests"), lambda i: clients[i % 2].post(
            "/api/v1/guests", json={"name": f"G{i}"}))
        assert_limited("guests", responses, {201})


def test_becoming_a_guest_through_the_pages_is_limited_too(limited: TestClient) -> None:
    statuses = []
    for i in range(first_amount("guests") + 1):
        limited.cookies.clear()
        csrf = re.search(r'name="csrf-token" content="([^"]+)"',  # type: ignore[union-attr]
                         limited.get("/").text).group(1)
        statuses.append(limited.post("/guest", data={"csrf": csrf, "name": f"P{i}"},
                                     follow_redirects=False).status_code)
    assert statuses == [303] * first_amount("guests") + [429]


def test_a_dead_redis_lets_requests_through_without_asking_it_again() -> None:
    """Limits protect the service; an unreachable Redis must not stall or refuse requests: the
    first failure lets the request through and the next ones do not wait on Redis at all."""
    limiter = RateLimiter(Settings(secret_key="k", rate_limit_scale=1.0,
                                   redis_url="redis://127.0.0.1:1/0"))
    asked: list[str] = []
    hit = limiter.window.hit

    def counted_hit(*args: Any, **kwargs: Any) -> bool:
        asked.append(args[1])
        return hit(*args, **kwargs)

    limiter.window.hit = counted_hit  # type: ignore[method-assign]
    assert [limiter.check("moves", "t:x") for _ in range(50)] == [None] * 50
    assert asked == ["moves"], "only the first request met the dead Redis"


def _finished_match(client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> str:
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    assert client.post(f"/api/v1/matches/{created['id']}/join", headers=bob).status_code == 200
    assert client.post(f"/api/v1/matches/{created['id']}/resign", headers=alice).status_code == 200
    return str(created["id"])


def test_analysis_requests_per_caller(limited: TestClient) -> None:
    alice, bob = make_guest(limited, "Alice"), make_guest(limited, "Bob")
    url = f"/api/v1/matches/{_finished_match(limited, alice, bob)}/analysis"
    responses = fire(3 * first_amount("analysis"), lambda i: limited.post(url, headers=alice))
    assert_limited("analysis", responses, {200, 202})
    assert limited.post(url, headers=bob).status_code != 429  # counted apart


def test_board_hints_per_caller(limited: TestClient) -> None:
    alice = make_guest(limited, "Alice")
    responses = fire(3 * first_amount("hints"), lambda i: limited.post(
        "/api/v1/analysis/hint", json={"game": "stairs"}, headers=alice))
    assert_limited("hints", responses, {200})


def test_match_hints_per_caller(limited: TestClient) -> None:
    alice, bob = make_guest(limited, "Alice"), make_guest(limited, "Bob")
    created = limited.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    assert limited.post(f"/api/v1/matches/{created['id']}/join", headers=bob).status_code == 200
    url = f"/api/v1/matches/{created['id']}/hint"
    responses = fire(3 * first_amount("hints"), lambda i: limited.post(url, headers=alice))
    assert_limited("hints", responses, {200, 403, 409})


def test_board_positions_per_caller(limited: TestClient) -> None:
    alice = make_guest(limited, "Alice")
    responses = fire(3 * first_amount("board"), lambda i: limited.post(
        "/api/v1/analysis/board", json={"game": "stairs"}, headers=alice))
    assert_limited("board", responses, {200})
