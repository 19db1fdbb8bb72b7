"""A credential that ends ends its live connections, on every transport: a revoked or expired
token closes its websockets (4401 after a ``credential_ended`` message) and ends its NDJSON
streams; logging out (here or everywhere) closes the browser's sockets. A rename ends nothing,
and anonymous connections are never touched. Against a real server. How long each end took is
printed, not asserted (a loaded machine is slower); the tests wait on the end itself."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from app.db.models import ApiToken
from app.kernel.timesource import system_now
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
from tests.live.helpers import StreamReader, account, live_server

QUIET = 1.0
"""Seconds a rename is given to (wrongly) close a socket."""
SOCKETS = {
    "match": lambda match_id: f"/api/v1/matches/{match_id}/ws",
    "lobby": lambda match_id: "/api/v1/lobby/ws",
    "account events": lambda match_id: "/api/v1/stream/event/ws",
}
STREAMS = {
    "account events": lambda match_id: "/api/v1/stream/event",
    "match": lambda match_id: f"/api/v1/matches/{match_id}/stream",
}
TIMES: dict[str, list[float]] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("credential-end")
    with live_server(folder, STEPWELL_BOTS_ENABLED="false") as base:
        yield base, folder / "live.db"
    print("\nseconds from the credential's end to the connection's end:")
    for what, seconds in sorted(TIMES.items()):
        print(f"  {what}: {', '.join(f'{s:.3f}' for s in seconds)}")


@pytest.fixture
def base(server: tuple[str, Path]) -> str:
    return server[0]


@pytest.fixture
def owner(base: str, request: pytest.FixtureRequest) -> dict[str, str]:
    return account(base, f"u{abs(hash(request.node.name)) % 10**8}")


@pytest.fixture
def match_id(base: str, owner: dict[str, str]) -> str:
    created = httpx.post(f"{base}/api/v1/matches", headers=owner, json={"game": "stairs"})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def _record(what: str, seconds: float) -> None:
    TIMES.setdefault(what, []).append(seconds)
    assert seconds > -0.1, f"{what}: ended {-seconds:.3f} s before the credential did"


def _expire_soon(database: Path, token_id: int, seconds: float) -> float:
    """Make the token expire ``seconds`` from now (the API's shortest is a minute); returns
    that moment as ``time.monotonic``."""
    engine = create_engine(f"sqlite:///{database}")
    with engine.begin() as connection:
        moment = time.monotonic() + seconds
        connection.execute(update(ApiToken).where(ApiToken.id == token_id)
                           .values(expires_at=system_now() + timedelta(seconds=seconds)))
    engine.dispose()
    return moment


def _token_that_ends(how: str, server: tuple[str, Path], owner: dict[str, str]
                     ) -> tuple[str, Callable[[], float]]:
    """A read token, and what ends it (returning the moment it ended): revoking it, or the
    time passing until it expires 1.5 s from now."""
    base, database = server
    token_id, token = personal_token(base, owner, ["read"], expires_in=60)
    if how == "expired":
        moment = _expire_soon(database, token_id, 1.5)
        return token, lambda: moment
    return token, lambda: revoke(base, owner, token_id)


@pytest.mark.parametrize("how", ["revoked", "expired"])
@pytest.mark.parametrize("transport", list(SOCKETS))
def test_a_token_that_ends_closes_its_sockets(server: tuple[str, Path], owner: dict[str, str],
                                              match_id: str, transport: str, how: str) -> None:
    token, end = _token_that_ends(how, server, owner)
    with socket(server[0], SOCKETS[transport](match_id), token) as ws:
        ending = socket_ends(ws, end())
    assert ending.code == 4401 and ending.last is not None
    assert (ending.last["code"], ending.last["reason"]) == ("credential_ended", how)
    _record(f"{how}, {transport} socket", ending.seconds)


@pytest.mark.parametrize("how", ["revoked", "expired"])
@pytest.mark.parametrize("transport", list(STREAMS))
def test_a_token_that_ends_ends_its_streams(server: tuple[str, Path], owner: dict[str, str],
                                            match_id: str, transport: str, how: str) -> None:
    token, end = _token_that_ends(how, server, owner)
    reader = StreamReader(server[0] + STREAMS[transport](match_id), bearer(token))
    try:
        assert reader.status == 200 and not reader.ended.is_set()
        _record(f"{how}, {transport} stream", stream_ends(reader, end()))
    finally:
        reader.close()


@pytest.mark.parametrize("transport", list(SOCKETS))
@pytest.mark.parametrize("logout", ["/logout", "/logout/everywhere"])
def test_logging_out_closes_the_browser_sockets(base: str, match_id: str, transport: str,
                                                logout: str) -> None:
    browser = Browser(base, "Walker")
    try:
        with browser.socket(SOCKETS[transport](match_id)) as ws:
            ending = socket_ends(ws, browser.post_form(logout))
        assert ending.code == 4401 and ending.last is not None
        assert (ending.last["code"], ending.last["reason"]) == ("credential_ended", "logged_out")
        _record(f"{logout}, {transport} socket", ending.seconds)
    finally:
        browser.close()


def test_logging_out_everywhere_ends_the_other_devices_sockets_not_the_tokens(
        base: str, match_id: str) -> None:
    username = "roamer"
    token = account(base, username)["Authorization"].split()[1]
    laptop, phone = Browser(base), Browser(base)
    try:
        laptop.log_in(username)
        phone.log_in(username)
        with phone.socket(SOCKETS["lobby"](match_id)) as on_phone, \
                socket(base, SOCKETS["lobby"](match_id), token) as by_token:
            first_message(by_token)
            ending = socket_ends(on_phone, laptop.post_form("/logout/everywhere"))
            assert ending.code == 4401
            by_token.send('{"type": "ping"}')
            assert _next_of(by_token, "pong"), "the same user's token socket stays open"
    finally:
        laptop.close()
        phone.close()


def test_a_rename_closes_nothing(base: str, match_id: str) -> None:
    browser = Browser(base, "Walker")
    try:
        with browser.socket(SOCKETS["lobby"](match_id)) as ws:
            first_message(ws)
            browser.post_form("/guest", name="Walker Renamed")  # forget_user: caches only
            time.sleep(QUIET)
            ws.send('{"type": "ping"}')
            assert _next_of(ws, "pong")
    finally:
        browser.close()


def test_anonymous_and_other_sockets_outlive_a_revocation(base: str, owner: dict[str, str],
                                                          match_id: str) -> None:
    token_id, token = personal_token(base, owner, ["read"])
    _other_id, other = personal_token(base, owner, ["read"])
    with socket(base, SOCKETS["match"](match_id)) as anonymous, \
            socket(base, SOCKETS["match"](match_id), other) as sibling, \
            socket(base, SOCKETS["match"](match_id), token) as revoked:
        for ws in (anonymous, sibling, revoked):
            first_message(ws)
        assert socket_ends(revoked, revoke(base, owner, token_id)).code == 4401
        for ws in (anonymous, sibling):
            ws.send('{"type": "ping"}')
            assert _next_of(ws, "pong")


def test_a_revoked_tokens_open_socket_cannot_move(base: str, owner: dict[str, str]) -> None:
    opponent = account(base, f"opp{int(time.time() * 1000) % 10**8}")
    token_id, token = personal_token(base, owner, ["read", "play"])
    created = httpx.post(f"{base}/api/v1/matches", headers=owner, json={"game": "stairs"}).json()
    httpx.post(f"{base}/api/v1/matches/{created['id']}/join", headers=opponent).raise_for_status()
    with socket(base, SOCKETS["match"](created["id"]), token) as ws:
        state = _next_of(ws, "state", lambda m: m.get("status") == "active")
        assert state["your_seat"] == 0, "the token's owner created the match: light, to move"
        revoked_at = revoke(base, owner, token_id)
        with contextlib.suppress(ConnectionClosed):
            ws.send(f'{{"type": "move", "move": "{state["legal_moves"][0]}", "ply": 0, "id": 1}}')
        ending = socket_ends(ws, revoked_at)
    assert ending.code == 4401 and (ending.last or {}).get("type") == "error"
    moves = httpx.get(f"{base}/api/v1/matches/{created['id']}/moves", headers=owner).json()
    assert moves == [], "no move was played by the revoked token"


def _next_of(ws: ClientConnection, kind: str,
             also: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        message = first_message(ws, max(0.1, deadline - time.monotonic()))
        if message.get("type") == kind and also(message):
            return message
