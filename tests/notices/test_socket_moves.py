"""Moves over the match socket: an ack or a typed error on the same socket, with exactly the
guards of REST (stale ply, not your turn, illegal move, not a player), and the new state pushed
to every socket. Sockets from a foreign page are refused (Origin), whatever the credential."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc
from starlette.websockets import WebSocketDisconnect

from app.match.service import MatchService
from tests.conftest import make_guest, start_match
from tests.notices.test_match_socket import next_state


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def _reply(ws) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The next ack or error, skipping pushed state and presence messages."""
    while True:
        message = ws.receive_json()
        if message["type"] in ("ack", "error"):
            return message


def test_a_seat_moves_over_its_socket_and_everyone_sees_it(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws"
    with client.websocket_connect(f"{url}?token={_token(alice)}") as light, \
            client.websocket_connect(url) as spectator:
        move = next_state(light)["legal_moves"][0]
        next_state(spectator)
        light.send_json({"type": "move", "move": move, "ply": 0, "id": "m1"})
        ack = _reply(light)
        assert (ack["type"], ack["id"], ack["ply"]) == ("ack", "m1", 1)
        seen = next_state(spectator)
        assert seen["ply"] == 1 and seen["last_move"]["move"] == move
    stored = client.get(f"/api/v1/matches/{match['id']}/moves").json()
    assert [m["move"] for m in stored] == [move]


def test_socket_moves_get_the_same_guards_as_rest(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    carol = make_guest(client, "Carol")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws"
    with client.websocket_connect(f"{url}?token={_token(alice)}") as light, \
            client.websocket_connect(f"{url}?token={_token(bob)}") as dark, \
            client.websocket_connect(f"{url}?token={_token(carol)}") as outsider:
        legal = next_state(light)["legal_moves"]
        next_state(dark)
        next_state(outsider)
        cases = [
            (dark, {"type": "move", "move": legal[0], "ply": 0, "id": 1}, "not_your_turn"),
            (light, {"type": "move", "move": legal[0], "ply": 5, "id": 2}, "stale_ply"),
            (light, {"type": "move", "move": "z9-z9", "ply": 0, "id": 3}, "illegal_move"),
            (outsider, {"type": "move", "move": legal[0], "ply": 0, "id": 4}, "not_a_player"),
            (light, {"type": "move", "move": 7, "ply": "0", "id": 5}, "invalid_request"),
        ]
        for ws, message, code in cases:
            ws.send_json(message)
            reply = _reply(ws)
            assert (reply["type"], reply["code"], reply["id"]) == ("error", code, message["id"])
            assert reply["message"]
        light.send_json({"type": "move", "move": legal[0], "ply": 0, "id": 6})
        assert _reply(light)["type"] == "ack"
        light.send_json({"type": "move", "move": legal[0], "ply": 0, "id": 7})
        assert _reply(light)["code"] == "stale_ply", "a duplicate is refused and changes nothing"
    assert len(client.get(f"/api/v1/matches/{match['id']}/moves").json()) == 1


def test_a_move_while_the_database_is_away_is_a_busy_error_with_retry_after(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket's 503: the move is refused with ``database_unavailable`` and when to retry
    (as the REST answer's Retry-After), and the socket stays open for the retry."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws"

    def database_away(*args: Any, **kwargs: Any) -> Any:
        raise sa_exc.OperationalError("SELECT 1", {}, ConnectionRefusedError("refused"))

    with client.websocket_connect(f"{url}?token={_token(alice)}") as light:
        move = next_state(light)["legal_moves"][0]
        monkeypatch.setattr(MatchService, "play", database_away)
        light.send_json({"type": "move", "move": move, "ply": 0, "id": "m1"})
        refused = _reply(light)
        assert (refused["type"], refused["code"], refused["id"]) == (
            "error", "database_unavailable", "m1")
        assert refused["retry_after"] >= 1
        monkeypatch.undo()
        light.send_json({"type": "move", "move": move, "ply": 0, "id": "m2"})
        acked = _reply(light)
        assert (acked["type"], acked["id"], acked["ply"]) == ("ack", "m2", 1)


def test_a_cookie_socket_from_a_foreign_page_is_refused(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    client.post("/guest", data={"name": "Alice", "csrf": _csrf(client)})
    created = client.post("/api/v1/matches", json={"game": "stairs"},
                          headers={"X-CSRF-Token": _csrf(client)})
    assert created.status_code == 201, created.text
    url = f"/api/v1/matches/{created.json()['id']}/ws"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            url, headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert next_state(ws)["your_seat"] == 0, "the page's own origin sees its seat"


def test_a_bearer_token_socket_from_a_foreign_page_is_refused_too(client: TestClient) -> None:
    alice = make_guest(client, "Alice")
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    url = f"/api/v1/matches/{created['id']}/ws?token={_token(alice)}"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            url, headers={"Origin": "http://elsewhere.example"}) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    with client.websocket_connect(url) as ws:  # a program sends no Origin
        assert next_state(ws)["your_seat"] == 0


def _csrf(client: TestClient) -> str:
    import re

    page = client.get("/").text
    found = re.search(r'name="csrf-token" content="([^"]+)"', page) or re.search(
        r'name="csrf" value="([^"]+)"', page)
    assert found, "the page embeds a CSRF token"
    return found.group(1)
