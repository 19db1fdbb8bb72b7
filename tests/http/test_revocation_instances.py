"""A revoked token fails on every instance at once, not when caches run out: two servers share
one database and one Redis; the token is cached on the second when it is revoked on the first.
Its open socket and stream on the second end too, and so does a socket whose browser logs out on
the first."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.databases import sqlite_database
from tests.live.doors import (
    Browser,
    bearer,
    first_message,
    personal_token,
    revoke,
    socket,
    socket_ends,
    stream_ends,
)
from tests.live.helpers import StreamReader, account, free_port, live_server
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


@contextmanager
def two_instances(tmp_path: Path, redis_url: str) -> Iterator[tuple[str, str]]:
    """Two servers on one SQLite file and one Redis."""
    database = sqlite_database(tmp_path / "shared.db")
    settings = {"STEPWELL_REDIS_URL": redis_url, "STEPWELL_BOTS_ENABLED": "false",
                "STEPWELL_DATABASE_URL": database}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with live_server(tmp_path / "a", **settings) as first, \
            live_server(tmp_path / "b", **settings) as second:
        yield first, second


def test_a_token_revoked_on_one_instance_is_dropped_from_the_other_instances_cache(
        tmp_path: Path, redis_url: str) -> None:
    """The second instance refuses the revoked token while its cache still vouches for tokens
    cached before it: the refusal came from the announcement on the bus, not from the cache
    running out. The control is a token deleted from the database behind the servers' backs,
    which nothing announces."""
    with two_instances(tmp_path, redis_url) as (first, second):
        database = f"sqlite:///{tmp_path / 'shared.db'}"
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


def test_revocation_and_logout_on_one_instance_end_connections_on_the_other(
        tmp_path: Path, redis_url: str) -> None:
    """A token revoked on A closes its socket and ends its stream on B; a browser logging out on
    A loses its socket on B (4401, ``credential_ended``); the delays are printed."""
    with two_instances(tmp_path, redis_url) as (first, second):
        owner = account(first, "owner")
        delays: dict[str, list[float]] = {}
        for _ in range(3):
            token_id, token = personal_token(first, owner, ["read"])
            stream = StreamReader(f"{second}/api/v1/stream/event", bearer(token))
            try:
                with socket(second, "/api/v1/lobby/ws", token) as ws:
                    first_message(ws)
                    revoked_at = revoke(first, owner, token_id)
                    ending = socket_ends(ws, revoked_at)
                    assert ending.code == 4401
                    assert (ending.last or {}).get("code") == "credential_ended"
                    delays.setdefault("socket", []).append(ending.seconds)
                    delays.setdefault("stream", []).append(stream_ends(stream, revoked_at))
            finally:
                stream.close()
            browser = Browser(first, "Walker")
            try:
                with browser.socket("/api/v1/lobby/ws", base=second) as ws:
                    first_message(ws)
                    ending = socket_ends(ws, browser.post_form("/logout"))
                    assert ending.code == 4401
                    delays.setdefault("logout socket", []).append(ending.seconds)
            finally:
                browser.close()
        for what, seconds in delays.items():
            print(f"{what} on B ended after (ms):", ", ".join(f"{s * 1000:.0f}" for s in seconds))
