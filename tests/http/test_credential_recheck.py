"""A token revoked or a browser session ended while an instance's Redis connection was down:
the announcement never reached it, so when its bus comes back it looks every credential of its
open sockets and streams up again (one query per batch) and ends those whose credential is gone,
as a live revocation would (4401 after a ``credential_ended`` message). The live test runs a
redis-server of its own and stops it; the shared one is never touched."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, delete

from app.db.models import ApiToken, BrowserSession
from app.http.live_connections import LiveConnections
from app.http.principal import Principal
from app.kernel.identity import Identity
from app.realtime.bus import RESYNC
from tests.databases import sqlite_database
from tests.live.doors import (
    Browser,
    bearer,
    first_message,
    personal_token,
    socket,
    socket_ends,
)
from tests.live.helpers import StreamReader, account, live_server
from tests.live.server import wait_for
from tests.realtime.test_bus_heal import REDIS, OwnRedis

ALICE = Identity(1, "Alice", "user")


class Lookups:
    """A credential store: what still exists, and how often it was asked."""

    def __init__(self, tokens: set[str], sessions: set[str]) -> None:
        self.tokens, self.sessions = tokens, sessions
        self.calls: list[tuple[set[str], set[str]]] = []

    def __call__(self, tokens: Collection[str], sessions: Collection[str]
                 ) -> tuple[set[str], set[str]]:
        self.calls.append((set(tokens), set(sessions)))
        return set(tokens) & self.tokens, set(sessions) & self.sessions


def test_a_resync_ends_exactly_the_connections_whose_credential_is_gone() -> None:
    async def scenario() -> tuple[dict[str, str], Lookups]:
        lookups = Lookups(tokens={"kept"}, sessions={"s-kept"})
        registry, reasons = LiveConnections(8, lookups), {}
        for name, principal in {
            "revoked 1": Principal(ALICE, "token", token_hash="gone"),
            "revoked 2": Principal(ALICE, "token", token_hash="gone"),
            "kept": Principal(ALICE, "token", token_hash="kept"),
            "logged out": Principal(ALICE, "session", session_hash="s-gone"),
            "session": Principal(ALICE, "session", session_hash="s-kept"),
        }.items():
            registry.open(principal, lambda reason, name=name: reasons.__setitem__(name, reason))
        assert registry.apply({"type": RESYNC}) == 0  # the re-check runs on its own
        await wait_until(lambda: bool(reasons))
        return reasons, lookups

    reasons, lookups = asyncio.run(scenario())
    assert reasons == {"revoked 1": "revoked", "revoked 2": "revoked", "logged out": "logged_out"}
    assert lookups.calls == [({"gone", "kept"}, {"s-gone", "s-kept"})], "one look-up for all"


async def wait_until(condition: object, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if REDIS is None:
        pytest.skip("!!! redis-server is not installed: the credential re-check test did NOT run !!!")
    redis = OwnRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def _revoke_in_database(database_url: str, token_id: int) -> None:
    """What another instance's revocation and logout leave behind when their announcements are
    lost: the token's row and every browser session's row gone."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(delete(ApiToken).where(ApiToken.id == token_id))
        connection.execute(delete(BrowserSession))
    engine.dispose()


def test_credentials_ended_while_redis_was_down_close_their_connections_when_it_is_back(
        tmp_path: Path, own_redis: OwnRedis) -> None:
    database = sqlite_database(tmp_path / "shared.db")
    with live_server(tmp_path, STEPWELL_REDIS_URL=own_redis.url, STEPWELL_DATABASE_URL=database,
                     STEPWELL_BOTS_ENABLED="false") as base:
        owner = account(base, "owner")
        revoked_id, revoked = personal_token(base, owner, ["read"])
        _, kept = personal_token(base, owner, ["read"])
        browser = Browser(base, "Walker")
        created = httpx.post(f"{base}/api/v1/matches", headers=owner, json={"game": "stairs"})
        assert created.status_code == 201, created.text
        path = f"/api/v1/matches/{created.json()['id']}/ws"  # its first message: the state
        stream = StreamReader(f"{base}/api/v1/stream/event", bearer(revoked))
        try:
            with socket(base, path, revoked) as gone, socket(base, path, kept) as stays, \
                    browser.socket(path) as logged_out:
                for ws in (gone, stays, logged_out):
                    first_message(ws)
                assert stream.status == 200
                own_redis.stop()
                _revoke_in_database(database, revoked_id)
                wait_for(lambda: "connection lost" in _server_log(tmp_path), seconds=30)
                assert not stream.ended.is_set()  # nothing announced it
                own_redis.start()
                back = time.monotonic()
                ending = socket_ends(gone, back, within=30)
                assert ending.code == 4401 and ending.last is not None
                assert (ending.last["code"], ending.last["reason"]) == ("credential_ended",
                                                                        "revoked")
                ending = socket_ends(logged_out, back, within=30)
                assert ending.code == 4401 and ending.last is not None
                assert ending.last["reason"] == "logged_out"
                assert stream.ended.wait(30), "the revoked token's stream ended too"
                assert stays.ping().wait(10)  # the valid token's socket is still served
        finally:
            stream.close()
            browser.close()


def _server_log(folder: Path) -> str:
    return "".join(path.read_text(errors="replace") for path in folder.glob("server-*.log"))
