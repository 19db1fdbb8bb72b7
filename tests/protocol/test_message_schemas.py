"""The protocol catalog: every example fits its model, and real socket traffic fits the models."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from app.protocol import messages
from app.protocol.catalog import ENTRIES, catalog
from tests.conftest import make_guest, start_match

MATCH_SOCKET = TypeAdapter(messages.MatchSocketMessage)
LOBBY_SOCKET = TypeAdapter(messages.LobbySocketMessage)


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e.channel}:{e.example['type']}" for e in ENTRIES])
def test_each_example_is_valid_for_its_model(entry: Any) -> None:
    parsed = entry.model.model_validate(entry.example)
    assert parsed.type == entry.example["type"]  # type: ignore[attr-defined]


def test_catalog_names_every_message_model_once_per_channel() -> None:
    pairs = [(e.channel, e.direction, e.example["type"]) for e in ENTRIES]
    assert len(pairs) == len(set(pairs))
    documented = {e.model for e in ENTRIES}
    for union in (messages.MatchSocketMessage, messages.MatchSocketRequest,
                  messages.LobbySocketMessage, messages.EventStreamMessage,
                  messages.MatchStreamMessage, messages.TournamentSocketMessage):
        members = set(union.__origin__.__args__)  # type: ignore[attr-defined]
        assert members <= documented


def test_schemas_are_served_and_in_the_openapi_components(client: TestClient) -> None:
    served = client.get("/api/v1/schemas")
    assert served.status_code == 200
    body = served.json()
    assert body["protocol_version"] == messages.PROTOCOL_VERSION
    assert body["messages"] == catalog()["messages"]
    components = client.get("/openapi.json").json()["components"]["schemas"]
    for message in body["messages"]:
        assert message["schema_ref"].rsplit("/", 1)[1] in components


def test_messages_page_shows_every_message_with_its_example(client: TestClient) -> None:
    html = client.get("/docs/messages").text
    for entry in ENTRIES:
        assert f'id="{entry.model.__name__}-' in html
    assert "&#34;type&#34;: &#34;gameFull&#34;" in html or '"type": "gameFull"' in html


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def test_real_match_socket_traffic_fits_the_models(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, time_control={"kind": "realtime", "minutes": 5})
    url = f"/api/v1/matches/{match['id']}"
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"{url}/ws?token={_token(alice)}") as ws:
        for ply in range(3):
            mover = [alice, bob][ply % 2]
            move = client.get(url, headers=mover).json()["legal_moves"][0]
            client.post(f"{url}/moves", json={"move": move, "ply": ply}, headers=mover)
        client.post(f"{url}/resign", headers=bob)
        ws.send_json({"type": "ping"})
        while not seen or seen[-1]["type"] != "pong":
            seen.append(ws.receive_json())
    for message in seen:
        MATCH_SOCKET.validate_python(message)
    assert {"state", "clock", "result", "pong"} <= {m["type"] for m in seen}


def test_real_lobby_socket_traffic_fits_the_models(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    bob_id = client.get("/api/v1/me", headers=bob).json()["id"]
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/v1/lobby/ws?token={_token(bob)}") as ws:
        seen.append(ws.receive_json())
        challenge = client.post("/api/v1/challenges", headers=alice,
                                json={"user": str(bob_id), "game": "sight"}).json()
        client.post(f"/api/v1/challenges/{challenge['id']}/accept", headers=bob)
        ws.send_json({"type": "ping"})
        while seen[-1]["type"] != "pong":
            seen.append(ws.receive_json())
    for message in seen:
        LOBBY_SOCKET.validate_python(message)
    assert {"seeks", "challenge", "match_started"} <= {m["type"] for m in seen}


def test_socket_move_answers_fit_the_models(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws?token={_token(alice)}"
    with client.websocket_connect(url) as ws:
        legal = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()["legal_moves"]
        answers: dict[str, dict[str, Any]] = {}
        ws.send_json({"type": "move", "move": legal[0], "ply": 0, "id": "first"})
        ws.send_json({"type": "move", "move": legal[0], "ply": 0, "id": "again"})
        while len(answers) < 2:
            message = ws.receive_json()
            MATCH_SOCKET.validate_python(message)
            if message["type"] in ("ack", "error"):
                answers[message["id"]] = message
    assert answers["first"]["type"] == "ack" and answers["first"]["ply"] == 1
    assert answers["again"]["type"] == "error" and answers["again"]["code"]
