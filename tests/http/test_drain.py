"""The drain's parts in process (the whole of it, with real SIGTERMs, is tests/live/test_drain.py):
/readyz while draining, every socket told 1012, and a socket that opens meanwhile told at once."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.http import socket_door
from app.http.live_connections import CLOSE_RESTART
from tests.conftest import make_guest, start_match

pytestmark = pytest.mark.both_databases  # the database is under test here


def test_readyz_answers_503_draining_once_the_drain_began(client: TestClient) -> None:
    serving = client.get("/readyz")
    assert serving.status_code == 200 and "connection" not in serving.headers
    client.app.state.drain.phase = "draining"  # type: ignore[attr-defined]
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json()["reason"] == "draining"
    alive = client.get("/healthz")
    assert alive.status_code == 200
    assert alive.headers["connection"] == "close", "no kept-alive connection to a draining instance"


def test_every_socket_is_told_1012_and_the_registry_empties(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws"
    token = alice["Authorization"].split()[1]
    registry = client.app.state.live_connections  # type: ignore[attr-defined]
    with client.websocket_connect(f"{url}?token={token}") as player, \
            client.websocket_connect(url) as spectator, \
            client.websocket_connect("/api/v1/live/ws") as watcher:
        for socket in (player, spectator):
            assert socket.receive_json()["type"] == "state"
        assert registry.open_count == 3
        # The test's sockets answer the close only when read: the drain stops waiting at once.
        client.portal.call(registry.drain, 0.0)  # type: ignore[union-attr]
        for socket in (player, spectator, watcher):
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert closed.value.code == CLOSE_RESTART
    assert registry.open_count == 0


def test_a_socket_opened_while_closing_is_told_1012_at_once(client: TestClient) -> None:
    client.app.state.live_connections.closing = True  # type: ignore[attr-defined]
    with client.websocket_connect("/api/v1/live/ws") as watcher, \
            pytest.raises(WebSocketDisconnect) as closed:
        watcher.receive_json()
    assert closed.value.code == CLOSE_RESTART


def test_a_socket_admitted_just_as_the_drain_begins_is_accepted_then_told_1012(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drain begins between the door's closing check and the registration: the socket is
    accepted and closed with 1012 (a close before the handshake would be a 403 to the client)."""
    registry = client.app.state.live_connections  # type: ignore[attr-defined]
    real_admit = socket_door.admit

    def admit_as_the_drain_begins(*args: Any, **kwargs: Any) -> Any:
        registry.closing = True
        return real_admit(*args, **kwargs)

    monkeypatch.setattr(socket_door, "admit", admit_as_the_drain_begins)
    with client.websocket_connect("/api/v1/live/ws") as watcher, \
            pytest.raises(WebSocketDisconnect) as closed:
        watcher.receive_json()
    assert closed.value.code == CLOSE_RESTART
