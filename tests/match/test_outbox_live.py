"""A web instance killed (SIGKILL) after committing moves it could not announce: the worker's
outbox relay announces them, so a spectator on another instance sees the move exactly once and
the bot whose turn it became answers.

"Between commit and publish" without a hook in the server: instance A has a Redis of its own,
stopped before the moves, so A commits them but can never announce them (nor note them
announced); then A is killed. Instance B and the worker share another Redis that A never
reaches: only the relay, reading the database, can tell B.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from app.db.models import Match
from tests.live.cluster import open_socket, receive_until
from tests.live.helpers import account
from tests.live.server import WAIT_SECONDS, free_port, live_server, wait_for

pytestmark = pytest.mark.both_databases  # the database is under test here

REDIS = shutil.which("redis-server")
ROOT = Path(__file__).resolve().parents[2]


class OwnRedis:
    """A redis-server of this test's own on a free port (never the shared one), stoppable."""

    def __init__(self) -> None:
        assert REDIS is not None
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS is not None
        self.process = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                                        capture_output=True, text=True).stdout.strip() == "PONG",
                 seconds=10, step=0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def _environment(database_url: str, redis: OwnRedis, **settings: str) -> dict[str, str]:
    return {**os.environ, "STEPWELL_DATABASE_URL": database_url,
            "STEPWELL_SECRET_KEY": "live-tests", "STEPWELL_REDIS_URL": redis.url,
            "STEPWELL_REDIS_PREFIX": "outbox:",
            **{f"STEPWELL_{name.upper()}": value for name, value in settings.items()}}


@contextmanager
def _process(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   cwd=ROOT)
        try:
            yield process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def _serving(base: str, process: subprocess.Popen[bytes]) -> bool:
    assert process.poll() is None, "instance A did not start"
    try:
        return httpx.get(f"{base}/api/v1/games", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _states(ws: Any, ply: int) -> dict[str, Any]:
    return receive_until(ws, lambda m: m.get("type") == "state" and m.get("ply", -1) >= ply)


def _play_first_legal(base: str, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    match = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=headers, timeout=10).json()
    moved = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=headers, timeout=10,
                       json={"move": match["legal_moves"][0], "ply": match["ply"]})
    assert moved.status_code == 200, moved.text
    return moved.json()  # type: ignore[no-any-return]


@pytest.fixture
def redises() -> Iterator[tuple[OwnRedis, OwnRedis]]:
    if REDIS is None:
        pytest.skip("!!! redis-server is not installed: the outbox kill test did NOT run !!!")
    own = OwnRedis(), OwnRedis()
    try:
        for redis in own:
            redis.start()
        yield own
    finally:
        for redis in own:
            redis.stop()


def test_moves_committed_by_a_killed_instance_are_announced_by_the_relay(
        database_url: str, redises: tuple[OwnRedis, OwnRedis], tmp_path: Path) -> None:
    a_redis, shared_redis = redises
    engine = create_engine(database_url)
    with ExitStack() as stack:
        port = free_port()
        a = f"http://127.0.0.1:{port}"
        instance_a = stack.enter_context(_process(
            [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
             "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
            _environment(database_url, a_redis, background_jobs="off"), tmp_path / "a.log"))
        b = stack.enter_context(live_server(
            database_url, tmp_path, redis_url=shared_redis.url, redis_prefix="outbox:",
            background_jobs="off"))
        wait_for(lambda: _serving(a, instance_a), seconds=WAIT_SECONDS)

        alice, bob, carol = account(a, "alice"), account(a, "bob"), account(a, "carol")
        human = httpx.post(f"{a}/api/v1/matches", headers=alice, timeout=10,
                           json={"game": "stairs", "seat": 0}).json()
        httpx.post(f"{a}/api/v1/matches/{human['id']}/join", headers=bob,
                   timeout=10).raise_for_status()
        bot = httpx.post(f"{a}/api/v1/matches", headers=carol, timeout=10,
                         json={"game": "sight", "seat": 0, "bot": "easy"}).json()
        assert bot["status"] == "active" and bot["to_move"] == 0  # Carol's turn, then the bot's
        human_watch = stack.enter_context(open_socket(b, f"/api/v1/matches/{human['id']}/ws"))
        bot_watch = stack.enter_context(open_socket(b, f"/api/v1/matches/{bot['id']}/ws"))
        assert _states(human_watch, 0)["ply"] == 0 and _states(bot_watch, 0)["ply"] == 0

        def announced() -> bool:
            with engine.connect() as connection:
                return all(connection.execute(select(Match.version <= Match.announced_version)
                                              .where(Match.id.in_([human["id"], bot["id"]])))
                           .scalars())

        wait_for(announced)  # A's Redis took the creations: A noted them announced
        a_redis.stop()  # A commits from now on, and can announce nothing
        moved = _play_first_legal(a, human["id"], alice)
        _play_first_legal(a, bot["id"], carol)
        instance_a.send_signal(signal.SIGKILL)
        instance_a.wait(timeout=10)
        with engine.connect() as connection:  # committed, and never noted as announced
            rows = connection.execute(select(Match.id, Match.version, Match.announced_version)
                                      .where(Match.id.in_([human["id"], bot["id"]]))).all()
        assert all(version > announced for _, version, announced in rows), rows
        a_redis.start()

        worker = stack.enter_context(_process(
            [sys.executable, "-m", "app.worker"],
            _environment(database_url, shared_redis, bots_enabled="true", bot_workers="1"),
            tmp_path / "worker.log"))
        relayed = _states(human_watch, 1)
        assert relayed["ply"] == 1 and relayed["last_move"]["move"] == moved["last_move"]["move"]
        assert _states(bot_watch, 2)["ply"] >= 2, "the bot answered the relayed move"

        _play_first_legal(b, human["id"], bob)
        assert _states(human_watch, 1)["ply"] == 2, "ply 1 was announced once"
        with engine.connect() as connection:
            wait_for(lambda: connection.execute(
                select(Match.version <= Match.announced_version)
                .where(Match.id == human["id"])).scalar())
        assert worker.poll() is None
    engine.dispose()
    assert "again: its publisher never noted it" in (tmp_path / "worker.log").read_text()
