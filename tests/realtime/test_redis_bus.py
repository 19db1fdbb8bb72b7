"""With REDIS_URL set, two server instances share events: a move made through instance A is
pushed to a spectator connected to instance B."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.db.migrate import upgrade
from app.main import create_app
from app.settings import Settings
from tests.conftest import make_guest
from tests.realtime.test_match_socket import next_state

REDIS_URL = "redis://127.0.0.1:6379/0"
REDIS_START = ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
               "--save", "", "--appendonly", "no"]


def _redis_problem() -> str | None:
    import redis

    def ping() -> str | None:
        try:
            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
            return None
        except redis.RedisError as error:
            return f"{type(error).__name__}: {error}"

    problem = ping()
    if problem and shutil.which("redis-server"):
        subprocess.run(REDIS_START, capture_output=True, timeout=30, check=False)
        for _ in range(20):
            problem = ping()
            if problem is None:
                break
            time.sleep(0.2)
    return problem


@pytest.fixture(scope="module")
def redis_url() -> str:
    problem = _redis_problem()
    if problem:
        pytest.skip(f"!!! Redis at {REDIS_URL} is not reachable ({problem}); "
                    "the Redis event bus test did NOT run !!!")
    return REDIS_URL


def test_a_move_on_one_instance_reaches_a_spectator_on_another(redis_url: str, tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'shared.db'}"
    upgrade(database)
    settings = Settings(database_url=database, secret_key="shared", redis_url=redis_url,
                        bots_enabled=False)
    with TestClient(create_app(settings)) as instance_a, TestClient(create_app(settings)) as instance_b:
        light, dark = make_guest(instance_a, "Light"), make_guest(instance_a, "Dark")
        match = instance_a.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                                headers=light).json()
        instance_a.post(f"/api/v1/matches/{match['id']}/join", headers=dark)
        with instance_b.websocket_connect(f"/api/v1/matches/{match['id']}/ws") as spectator:
            assert next_state(spectator)["ply"] == 0
            time.sleep(0.2)  # let the subscription reach Redis before publishing
            move = instance_a.get(f"/api/v1/matches/{match['id']}", headers=light).json()["legal_moves"][0]
            instance_a.post(f"/api/v1/matches/{match['id']}/moves", json={"move": move, "ply": 0},
                            headers=light)
            pushed = next_state(spectator)
        assert pushed["ply"] == 1 and pushed["last_move"]["move"] == move
