"""A revoked token fails on every instance at once, not when caches run out: two servers share
one database and one Redis; the token is cached on the second when it is revoked on the first."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.api.live import account, free_port, live_server
from tests.databases import sqlite_database
from tests.live.server import wait_for

REDIS = shutil.which("redis-server")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if REDIS is None:
        pytest.skip("!!! redis-server is not installed: the two-instance revocation test did NOT run !!!")
    port = free_port()
    process = subprocess.Popen([REDIS, "--port", str(port), "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                         text=True).stdout.strip() != "PONG":
        assert time.monotonic() < deadline, "redis did not start"
        time.sleep(0.1)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _read_token(base: str, owner: dict[str, str]) -> tuple[int, dict[str, str]]:
    created = httpx.post(f"{base}/api/v1/tokens", headers=owner,
                         json={"description": "bot", "scopes": ["read"]}).json()
    return created["id"], {"Authorization": f"Bearer {created['token']}"}


def _accepted(base: str, token: dict[str, str]) -> bool:
    return httpx.get(f"{base}/api/v1/me", headers=token).status_code == 200


def test_a_token_revoked_on_one_instance_is_dropped_from_the_other_instances_cache(
        tmp_path: Path, redis_url: str) -> None:
    """The second instance refuses the revoked token while its cache still vouches for tokens
    cached before it: the refusal came from the announcement on the bus, not from the cache
    running out. The control is a token deleted from the database behind the servers' backs,
    which nothing announces."""
    database = sqlite_database(tmp_path / "shared.db")
    settings = {"STEPWELL_REDIS_URL": redis_url, "STEPWELL_BOTS_ENABLED": "false",
                "STEPWELL_DATABASE_URL": database}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with live_server(tmp_path / "a", **settings) as first, \
            live_server(tmp_path / "b", **settings) as second:
        control_id, control = _read_token(first, account(first, "control"))
        owner = account(first, "owner")
        revoked_id, revoked = _read_token(first, owner)
        assert _accepted(second, control) and _accepted(second, revoked)  # both cached, in order
        engine = create_engine(database)
        with engine.begin() as connection:
            connection.execute(text("delete from api_tokens where id = :id"), {"id": control_id})
        engine.dispose()
        assert httpx.delete(f"{first}/api/v1/tokens/{revoked_id}",
                            headers=owner).status_code == 204

        wait_for(lambda: not _accepted(second, revoked))
        assert _accepted(second, control), "the second instance's cache should still vouch"
        assert not _accepted(first, control)  # the control really is gone from the database
