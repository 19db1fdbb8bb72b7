"""Redis restarted under two live instances: a move made while it was away never reached the
other instance through the bus, so when the bus comes back that instance reads every match it
serves again and its sockets show the move (spectators and the player to move alike)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.databases import sqlite_database
from tests.live.doors import first_message, personal_token, socket
from tests.live.helpers import account, free_port, live_server

REDIS = shutil.which("redis-server")
CATCH_UP_DEADLINE = 30.0
"""Generous: the test waits for the catch-up; how long it took is printed, not asserted."""


class OwnRedis:
    """A redis-server of this test's own, on a port of its own, that it may stop and restart
    (keeping nothing on disk: a restart loses every key, as a real one without persistence)."""

    def __init__(self) -> None:
        assert REDIS is not None
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                             text=True).stdout.strip() != "PONG":
            assert time.monotonic() < deadline, "redis did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if REDIS is None:
        pytest.skip("!!! redis-server is not installed: the bus-heal test did NOT run !!!")
    redis = OwnRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def _state_at(ws: ClientConnection, ply: int, within: float) -> dict[str, Any]:
    """The first ``state`` the socket sends for ``ply`` or later, within ``within`` seconds."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        if message.get("type") == "state" and message.get("ply", -1) >= ply:
            return message  # type: ignore[no-any-return]
    raise AssertionError(f"no state at ply {ply} within {within} s of Redis coming back")


def test_sockets_on_the_other_instance_catch_up_after_a_redis_restart(
        tmp_path: Path, own_redis: OwnRedis) -> None:
    database = sqlite_database(tmp_path / "shared.db")
    settings = {"STEPWELL_REDIS_URL": own_redis.url, "STEPWELL_BOTS_ENABLED": "false",
                "STEPWELL_DATABASE_URL": database}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with live_server(tmp_path / "a", **settings) as first, \
            live_server(tmp_path / "b", **settings) as second:
        alice, bob = account(first, "alice"), account(first, "bob")
        match = httpx.post(f"{first}/api/v1/matches", headers=alice,
                           json={"game": "stairs", "seat": 0}).json()
        httpx.post(f"{first}/api/v1/matches/{match['id']}/join", headers=bob).raise_for_status()
        _, bob_token = personal_token(first, bob, ["read", "play"])
        path = f"/api/v1/matches/{match['id']}/ws"
        with socket(second, path) as spectator, socket(second, path, bob_token) as player:
            assert first_message(spectator)["ply"] == 0 and first_message(player)["ply"] == 0
            own_redis.stop()
            legal = httpx.get(f"{first}/api/v1/matches/{match['id']}", headers=alice).json()
            moved = httpx.post(f"{first}/api/v1/matches/{match['id']}/moves", headers=alice,
                               json={"move": legal["legal_moves"][0], "ply": 0})
            assert moved.status_code == 200, moved.text  # committed; its announcement is lost
            time.sleep(1.5)  # the second instance notices the loss
            own_redis.start()
            back = time.monotonic()
            seen = _state_at(player, 1, within=CATCH_UP_DEADLINE)
            assert seen["your_seat"] == 1 and seen["legal_moves"], "bob is told it is his turn"
            assert _state_at(spectator, 1, within=CATCH_UP_DEADLINE)["ply"] == 1
            print(f"caught up {time.monotonic() - back:.2f} s after Redis came back")


def test_no_victory_is_claimed_against_a_socket_that_stayed_open_through_a_redis_restart(
        tmp_path: Path, own_redis: OwnRedis) -> None:
    """Redis loses every presence key when it restarts; the instance holding Bob's socket writes
    its part again, and until it could have, nobody counts Bob as gone."""
    database = sqlite_database(tmp_path / "shared.db")
    settings = {"STEPWELL_REDIS_URL": own_redis.url, "STEPWELL_BOTS_ENABLED": "false",
                "STEPWELL_DATABASE_URL": database, "STEPWELL_CLAIM_AFTER_SECONDS": "2"}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with live_server(tmp_path / "a", **settings) as first, \
            live_server(tmp_path / "b", **settings) as second:
        alice, bob = account(first, "alice"), account(first, "bob")
        match = httpx.post(f"{first}/api/v1/matches", headers=alice, json={
            "game": "stairs", "seat": 0,
            "time_control": {"kind": "realtime", "minutes": 5, "increment": 0}}).json()
        httpx.post(f"{first}/api/v1/matches/{match['id']}/join", headers=bob).raise_for_status()
        _, bob_token = personal_token(first, bob, ["read", "play"])
        claim = f"{first}/api/v1/matches/{match['id']}/claim-victory"
        with socket(second, f"/api/v1/matches/{match['id']}/ws", bob_token) as player:
            first_message(player)
            time.sleep(3)  # longer than the claim delay: Bob is at the board all along
            assert httpx.post(claim, headers=alice).status_code != 200
            own_redis.stop()
            time.sleep(1.5)
            own_redis.start()
            for _ in range(8):  # for 4 s after the restart, past the claim delay
                refused = httpx.post(claim, headers=alice)
                assert refused.status_code != 200, "a win was claimed against a present player"
                time.sleep(0.5)
        ended = httpx.get(f"{first}/api/v1/matches/{match['id']}").json()
        assert ended["status"] == "active"
