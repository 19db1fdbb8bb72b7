"""With REDIS_URL set, two server instances share events: a move made through instance A is
pushed to a spectator connected to instance B."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests import servers
from tests.conftest import make_guest
from tests.databases import sqlite_database
from tests.live.server import run_async
from tests.notices.test_match_socket import next_state


@pytest.fixture(scope="module")
def redis_url() -> str:
    return servers.require_redis("the Redis event bus test")


def test_a_move_on_one_instance_reaches_a_spectator_on_another(redis_url: str, tmp_path: Path) -> None:
    database = sqlite_database(tmp_path / "shared.db")
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


def test_one_pubsub_connection_with_reference_counted_channels(redis_url: str) -> None:
    """Many local subscribers share one Redis subscription per channel; the last one leaving
    unsubscribes; a process's own message reaches its subscribers once, others' through Redis."""
    import asyncio
    import uuid

    import redis as sync_redis

    from app.realtime.redis_bus import RedisBus

    prefix = f"t{uuid.uuid4().hex[:8]}:"
    probe = sync_redis.Redis.from_url(redis_url)

    def redis_subscribers(channel: str) -> int:
        return dict(probe.pubsub_numsub(prefix + channel))[(prefix + channel).encode()]

    async def scenario() -> None:
        here, there = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        loop = asyncio.get_running_loop()
        here.bind_loop(loop)
        there.bind_loop(loop)
        try:
            async with contextlib.AsyncExitStack() as stack:
                streams = [await stack.enter_async_context(here.subscribe("match:x"))
                           for _ in range(25)]
                assert redis_subscribers("match:x") == 1
                here.publish("match:x", {"n": 1})
                there.publish("match:x", {"n": 2})
                for stream in streams:
                    got = [await asyncio.wait_for(anext(stream), 5) for _ in range(2)]
                    assert sorted(m["n"] for m in got) == [1, 2]
                await asyncio.sleep(0.3)
                for stream in streams:  # nothing doubled by Redis echoing our own message
                    with pytest.raises(TimeoutError):
                        await asyncio.wait_for(anext(stream), 0.05)
            await asyncio.sleep(0.3)
            assert redis_subscribers("match:x") == 0 and here.subscriber_count() == 0
            names = [c["name"] for c in probe.client_list() if c["name"] == prefix + here.instance]
            assert 1 <= len(names) <= 3
        finally:
            await here.aclose()
            await there.aclose()

    run_async(scenario)  # a fresh loop in its own thread (see tests/live/server.py)
    probe.close()
