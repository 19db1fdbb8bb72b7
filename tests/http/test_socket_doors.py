"""Every websocket opens through the gate: a foreign page's Origin is refused (4403) before any
data whatever the credential, a made-up token cannot open one (4401), a token without the
socket's scope cannot either (4403), and a token holds at most ``max_streams_per_token`` at a
time (4429). Writes over the match socket need the ``play`` scope and are rate limited."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.kernel.settings import Settings
from app.main import create_app
from tests.accounts.test_api_tokens import make_account, make_token
from tests.conftest import make_guest, start_match

TRUSTED = "https://app.trusted.example"
SOCKETS: dict[str, Callable[[str], str]] = {
    "match": lambda match_id: f"/api/v1/matches/{match_id}/ws",
    "lobby": lambda match_id: "/api/v1/lobby/ws",
    "account events": lambda match_id: "/api/v1/stream/event/ws",
    "tournament list": lambda match_id: "/api/v1/tournaments/ws",
    "tournament": lambda match_id: "/api/v1/tournaments/t1/ws",
    "live": lambda match_id: "/api/v1/live/ws",
}


@pytest.fixture
def app(database_url: str):  # type: ignore[no-untyped-def]
    return create_app(Settings(database_url=database_url, secret_key="test-secret",
                               bots_enabled=False, trusted_origins=[TRUSTED],
                               max_streams_per_token=3, rate_limit_scale=1.0,
                               rate_moves="4/minute"))


@pytest.fixture
def guest(client: TestClient) -> dict[str, str]:
    return make_guest(client, "Alice")


@pytest.fixture
def match_id(client: TestClient, guest: dict[str, str]) -> Iterator[str]:
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=guest)
    assert created.status_code == 201, created.text
    yield created.json()["id"]


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def _url(transport: str, match_id: str, token: str) -> str:
    return f"{SOCKETS[transport](match_id)}?token={token}"


def _refused(client: TestClient, url: str, **headers: str) -> tuple[int, list[dict[str, Any]]]:
    """The close code of a socket the server refuses, and the messages it sent first (a socket
    that answers a ping was not refused: the test fails rather than waits)."""
    sent: list[dict[str, Any]] = []
    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect(url, headers=headers) as ws:
        ws.send_json({"type": "ping"})
        while True:
            sent.append(ws.receive_json())
            assert sent[-1]["type"] != "pong", f"{url} was opened: {sent}"
    return closed.value.code, sent


@pytest.mark.parametrize("transport", list(SOCKETS))
def test_a_foreign_origin_is_refused_before_any_data(client: TestClient, guest: dict[str, str],
                                                     match_id: str, transport: str) -> None:
    url = _url(transport, match_id, _token(guest))
    assert _refused(client, url, origin="https://evil.example") == (4403, [])
    for origin in ("http://testserver", TRUSTED):
        with client.websocket_connect(url, headers={"origin": origin}) as ws:
            ws.send_json({"type": "ping"})
            assert _next_of(ws, "pong")


@pytest.mark.parametrize("transport", list(SOCKETS))
def test_a_made_up_token_cannot_open_a_socket(client: TestClient, match_id: str,
                                              transport: str) -> None:
    code, sent = _refused(client, _url(transport, match_id, "swp_made-up"))
    assert code == 4401
    assert [message["code"] for message in sent] == ["invalid_token"]


def test_a_token_without_read_cannot_open_a_reading_socket(client: TestClient,
                                                           match_id: str) -> None:
    owner = make_account(client, "aiko")
    player_only = _token(make_token(client, owner, ["play"]))
    for transport in ("match", "lobby", "account events"):
        code, sent = _refused(client, _url(transport, match_id, player_only))
        assert (code, [m["code"] for m in sent]) == (4403, ["missing_scope"]), transport
    with client.websocket_connect(_url("live", match_id, player_only)) as ws:  # public
        ws.send_json({"type": "ping"})
        assert _next_of(ws, "pong")


def test_a_read_only_token_cannot_move_over_the_socket(client: TestClient) -> None:
    owner, opponent = make_account(client, "aiko"), make_guest(client, "Bob")
    match = start_match(client, owner, opponent)
    reader = _token(make_token(client, owner, ["read"]))
    with client.websocket_connect(_url("match", match["id"], reader)) as ws:
        state = _next_of(ws, "state")
        assert state["your_seat"] == 0 and state["legal_moves"]
        ws.send_json({"type": "move", "move": state["legal_moves"][0], "ply": 0, "id": "m1"})
        reply = _next_of(ws, "error", "ack")
        assert (reply["type"], reply["code"], reply["id"]) == ("error", "missing_scope", "m1")
    assert client.get(f"/api/v1/matches/{match['id']}/moves").json() == []
    player = _token(make_token(client, owner, ["read", "play"]))
    with client.websocket_connect(_url("match", match["id"], player)) as ws:
        ws.send_json({"type": "move", "move": state["legal_moves"][0], "ply": 0, "id": "m2"})
        assert _next_of(ws, "ack")["id"] == "m2", "the same move with `play` is played"


def test_a_flood_of_socket_moves_is_rate_limited(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    with client.websocket_connect(_url("match", match["id"], _token(alice))) as ws:
        codes = []
        for n in range(8):  # illegal moves count too: the limit is on what is sent
            ws.send_json({"type": "move", "move": "z9-z9", "ply": 0, "id": n})
            codes.append(_next_of(ws, "error")["code"])
    assert codes[:4] == ["illegal_move"] * 4
    assert codes[4:] == ["rate_limited"] * 4
    with client.websocket_connect(_url("match", match["id"], _token(bob))) as ws:
        ws.send_json({"type": "move", "move": "z9-z9", "ply": 0, "id": 1})
        assert _next_of(ws, "error")["code"] == "not_your_turn", "another caller has its own count"


def test_a_token_holds_a_limited_number_of_sockets(client: TestClient, guest: dict[str, str],
                                                   match_id: str) -> None:
    token = _token(guest)
    with client.websocket_connect(_url("lobby", match_id, token)), \
            client.websocket_connect(_url("live", match_id, token)), \
            client.websocket_connect(_url("match", match_id, token)):
        code, sent = _refused(client, _url("account events", match_id, token))
        assert code == 4429 and [m["code"] for m in sent] == ["rate_limited"]
        other = _token(make_guest(client, "Bob"))
        with client.websocket_connect(_url("lobby", match_id, other)) as ws:
            assert _next_of(ws, "seeks"), "another token has its own allowance"
        with client.websocket_connect(_url("lobby", match_id, "")) as ws:
            assert _next_of(ws, "seeks"), "anonymous sockets are not counted"
    with client.websocket_connect(_url("lobby", match_id, token)) as ws:
        assert _next_of(ws, "seeks"), "a closed socket frees its place"


def _next_of(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message.get("type") in kinds:
            return message  # type: ignore[no-any-return]
