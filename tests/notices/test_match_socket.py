"""The match websocket: initial state per seat, a push after every committed move, resync."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.realtime.presence import BATCH_SECONDS
from tests.conftest import make_guest, start_match


def next_state(ws) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The next state message, skipping presence updates that may come in between."""
    while True:
        message = ws.receive_json()
        if message["type"] not in ("presence", "clock", "offer", "result"):
            return message


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def _players(client: TestClient) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    return alice, bob, start_match(client, alice, bob)


def test_each_viewer_gets_its_own_seat_view_on_connect(client: TestClient) -> None:
    alice, bob, match = _players(client)
    url = f"/api/v1/matches/{match['id']}/ws"
    with client.websocket_connect(f"{url}?token={_token(alice)}") as light, \
            client.websocket_connect(f"{url}?token={_token(bob)}") as dark, \
            client.websocket_connect(url) as spectator:
        first = [next_state(light), next_state(dark), next_state(spectator)]
    assert [m["type"] for m in first] == ["state"] * 3
    assert [m["your_seat"] for m in first] == [0, 1, None]
    assert first[0]["legal_moves"] and not first[1]["legal_moves"] and not first[2]["legal_moves"]
    assert all(m["ply"] == 0 for m in first)


def test_every_committed_move_reaches_players_and_spectators(client: TestClient) -> None:
    alice, bob, match = _players(client)
    url = f"/api/v1/matches/{match['id']}"
    with client.websocket_connect(f"{url}/ws?token={_token(bob)}") as dark, \
            client.websocket_connect(f"{url}/ws") as spectator:
        next_state(dark)
        next_state(spectator)
        for ply in range(3):
            mover = [alice, bob][ply % 2]
            move = client.get(url, headers=mover).json()["legal_moves"][0]
            assert client.post(f"{url}/moves", json={"move": move, "ply": ply},
                               headers=mover).status_code == 200
            seen_by_dark, seen_by_spectator = next_state(dark), next_state(spectator)
            assert seen_by_dark["ply"] == seen_by_spectator["ply"] == ply + 1
            assert seen_by_dark["last_move"]["move"] == move
            assert bool(seen_by_dark["legal_moves"]) == (ply % 2 == 0)  # dark moves after light
            assert seen_by_spectator["legal_moves"] == []


def test_a_join_is_pushed_to_the_waiting_creator(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    with client.websocket_connect(f"/api/v1/matches/{created['id']}/ws?token={_token(alice)}") as ws:
        assert next_state(ws)["status"] == "waiting"
        client.post(f"/api/v1/matches/{created['id']}/join", headers=bob)
        update = next_state(ws)
    assert update["status"] == "active" and update["seats"][1]["user"]["name"] == "Bob"
    assert update["legal_moves"], "the creator is light and now to move"


def test_sync_and_ping_are_answered(client: TestClient) -> None:
    _alice, _bob, match = _players(client)
    with client.websocket_connect(f"/api/v1/matches/{match['id']}/ws") as ws:
        next_state(ws)
        ws.send_json({"type": "ping"})
        assert next_state(ws) == {"type": "pong"}
        ws.send_json({"type": "sync"})
        again = next_state(ws)
    assert again["type"] == "state" and again["id"] == match["id"]


def test_unknown_match_and_bad_token_get_an_error_message(client: TestClient) -> None:
    with client.websocket_connect("/api/v1/matches/nope/ws") as ws:
        assert ws.receive_json()["code"] == "no_match"
    _alice, _bob, match = _players(client)
    with client.websocket_connect(f"/api/v1/matches/{match['id']}/ws?token=bad") as ws:
        assert ws.receive_json()["code"] == "invalid_token"


def test_spectator_count_and_online_seats_are_pushed(client: TestClient) -> None:
    alice, _bob, match = _players(client)
    url = f"/api/v1/matches/{match['id']}/ws"
    with client.websocket_connect(f"{url}?token={_token(alice)}") as light:
        next_state(light)
        with client.websocket_connect(url) as spectator:
            next_state(spectator)
            while True:
                message = light.receive_json()
                if message["type"] == "presence" and message["spectators"] == 1:
                    break
        assert message["online_seats"] == [0]


def test_a_watcher_who_takes_a_seat_is_shown_online_in_it(client: TestClient) -> None:
    """Bob watches Alice's waiting match, then joins it from the same page: from then on his
    socket counts as his seat's, not as a spectator (the seat was fixed at connect)."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    created = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0}, headers=alice)
    url = f"/api/v1/matches/{created.json()['id']}/ws"
    with client.websocket_connect(f"{url}?token={_token(alice)}") as light, \
            client.websocket_connect(f"{url}?token={_token(bob)}") as watcher:
        next_state(light)
        next_state(watcher)
        joined = client.post(f"/api/v1/matches/{created.json()['id']}/join", headers=bob)
        assert joined.status_code == 200, joined.text
        assert next_state(watcher)["your_seat"] == 1
        time.sleep(4 * BATCH_SECONDS)  # the batched presence is out; the pong comes after it
        light.send_json({"type": "ping"})
        seen = []
        while (message := light.receive_json())["type"] != "pong":
            seen += [message] if message["type"] == "presence" else []
        assert seen and seen[-1]["online_seats"] == [0, 1] and seen[-1]["spectators"] == 0


def test_offers_clocks_and_results_arrive_as_typed_events(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = client.post("/api/v1/matches", json={
        "game": "stairs", "seat": 0, "time_control": {"kind": "realtime", "minutes": 5}},
        headers=alice).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=bob)
    with client.websocket_connect(f"/api/v1/matches/{match['id']}/ws?token={_token(bob)}") as ws:
        next_state(ws)
        client.post(f"/api/v1/matches/{match['id']}/offers/end", headers=alice)
        seen: dict[str, dict[str, Any]] = {}
        while "offer" not in seen:
            message = ws.receive_json()
            seen[message["type"]] = message
        assert seen["offer"]["offers"] == {"end": [0]}
        assert seen["clock"]["remaining_ms"] == [300_000, 300_000]
        client.post(f"/api/v1/matches/{match['id']}/resign", headers=alice)
        while "result" not in seen:
            message = ws.receive_json()
            seen[message["type"]] = message
    assert seen["result"]["status"] == "finished" and seen["result"]["result"]["winners"] == [1]


def test_a_takeback_reaches_the_socket_although_the_ply_goes_down(client: TestClient) -> None:
    alice, bob, match = _players(client)
    url = f"/api/v1/matches/{match['id']}"
    with client.websocket_connect(f"{url}/ws?token={_token(bob)}") as ws:
        first = next_state(ws)
        move = client.get(url, headers=alice).json()["legal_moves"][0]
        client.post(f"{url}/moves", json={"move": move, "ply": 0}, headers=alice)
        moved = next_state(ws)
        client.post(f"{url}/offers/takeback", headers=alice)
        offered = next_state(ws)
        client.post(f"{url}/offers/takeback/accept", headers=bob)
        undone = next_state(ws)
    assert first["version"] < moved["version"] < offered["version"] < undone["version"]
    assert moved["ply"] == 1 and undone["ply"] == 0 and undone["view"] == first["view"]
