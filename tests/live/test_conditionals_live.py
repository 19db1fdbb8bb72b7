"""Conditional moves played out by two clients against a live server, on both databases: the
reply reaches the opponent's socket with their own move, a line the game leaves is dropped, no
socket but the owner's API ever carries the lines, and an edit of the lines racing the
opponent's move is either followed or refused — never stored and silently skipped.

``STEPWELL_RACE_TRIALS`` (default 8) sets the race's trials."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import httpx
import pytest

from games import registry
from tests.live.cluster import guest, open_socket, receive_until
from tests.live.server import live_server, run_async

TRIALS = int(os.environ.get("STEPWELL_RACE_TRIALS", "8"))
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


@pytest.fixture(scope="module")
def server(module_database_url: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    with live_server(module_database_url, tmp_path_factory.mktemp("conditionals"),
                     bots_enabled="false", rate_limit_scale="0") as base:
        yield base


def _position(moves: list[str]) -> Any:
    state = registry.get("stairs").new_state()
    for move in moves:
        state = state.play(move)
    return state


def _started(base: str) -> tuple[str, dict[str, str], str, dict[str, str], str, str]:
    """A correspondence Stairs match after Alice's first move: (id, alice, her token, bob,
    his token, the first move)."""
    alice, alice_token = guest(base, "Alice")
    bob, bob_token = guest(base, "Bob")
    match = httpx.post(f"{base}/api/v1/matches", headers=alice, timeout=10,
                       json={"game": "stairs", "seat": 0, "time_control": CORRESPONDENCE}).json()
    url = f"{base}/api/v1/matches/{match['id']}"
    assert httpx.post(f"{url}/join", headers=bob, timeout=10).status_code == 200
    first = httpx.get(url, headers=alice, timeout=10).json()["legal_moves"][0]
    played = httpx.post(f"{url}/moves", headers=alice, json={"move": first, "ply": 0}, timeout=10)
    assert played.status_code == 200, played.text
    return match["id"], alice, alice_token, bob, bob_token, first


def _is_state_at(ply: int) -> Any:
    return lambda m: m.get("type") == "state" and m.get("ply") == ply


def test_the_reply_reaches_the_opponents_socket_with_their_move(server: str) -> None:
    match_id, alice, alice_token, bob, bob_token, first = _started(server)
    url = f"{server}/api/v1/matches/{match_id}"
    after = _position([first])
    b1, b2 = after.legal_moves()[:2]
    a1 = after.play(b1).legal_moves()[0]
    a2 = after.play(b2).legal_moves()[-1]
    b3 = next(m for m in after.play(b1).play(a1).legal_moves())
    set_lines = httpx.put(f"{url}/conditional", headers=alice, timeout=10,
                          json={"ply": 1, "lines": [[b1, a1, b3, a2], [b2, a2]]})
    assert set_lines.status_code == 200, set_lines.text
    path = f"/api/v1/matches/{match_id}/ws"
    with open_socket(server, path, bob_token) as bob_socket, \
            open_socket(server, path, alice_token) as alice_socket, \
            open_socket(server, path) as spectator:
        seen: list[str] = []

        def watch(message: dict[str, Any]) -> bool:
            seen.append(json.dumps(message))
            return _is_state_at(3)(message)

        receive_until(bob_socket, _is_state_at(1))
        receive_until(spectator, _is_state_at(1))
        bob_socket.send(json.dumps({"type": "move", "move": b1, "ply": 1, "id": "b1"}))
        state = receive_until(bob_socket, watch)
        assert state["last_move"] == {"ply": 3, "seat": 0, "move": a1}
        assert state["legal_moves"], "Bob is to move again at once"
        assert receive_until(alice_socket, _is_state_at(3))["last_move"]["move"] == a1
        receive_until(spectator, watch)
        left = httpx.get(f"{url}/conditional", headers=alice, timeout=10).json()
        assert left == {"ply": 3, "lines": [[b3, a2]]}, "the line followed, shortened"
        other = next(m for m in state["legal_moves"] if m != b3)
        bob_socket.send(json.dumps({"type": "move", "move": other, "ply": 3, "id": "b2"}))
        state = receive_until(bob_socket, lambda m: _is_state_at(4)(m) and not seen.append(
            json.dumps(m)))
        assert state["to_move"] == 0, "no reply: the game left the line"
        receive_until(spectator, lambda m: _is_state_at(4)(m) and not seen.append(json.dumps(m)))
    assert httpx.get(f"{url}/conditional", headers=alice, timeout=10).json()["lines"] == []
    for text in seen:  # what Bob and the spectators were sent
        assert "conditional" not in text and '"lines"' not in text
        assert json.dumps([b3, a2]) not in text, "a line never leaves the owner's API"
    refused = httpx.get(f"{url}/conditional", headers=bob, timeout=10)
    assert refused.status_code == 200 and refused.json()["lines"] == []


def test_an_edit_racing_the_opponents_move_is_followed_or_refused(server: str) -> None:
    async def trial(client: httpx.AsyncClient) -> tuple[int, int, int]:
        match_id, alice, _, bob, _, first = await asyncio.to_thread(_started, server)
        url = f"/api/v1/matches/{match_id}"
        after = _position([first])
        theirs = after.legal_moves()[0]
        reply = after.play(theirs).legal_moves()[0]
        edit, move = await asyncio.gather(
            client.put(f"{url}/conditional", headers=alice,
                       json={"ply": 1, "lines": [[theirs, reply]]}),
            client.post(f"{url}/moves", headers=bob, json={"move": theirs, "ply": 1}))
        assert move.status_code == 200, move.text
        final = (await client.get(url)).json()
        left = (await client.get(f"{url}/conditional", headers=alice)).json()
        assert left["lines"] == [], "nothing stale is kept"
        if edit.status_code == 200:
            assert final["last_move"]["move"] == reply
        else:
            assert edit.json()["code"] in ("stale_ply", "your_turn"), edit.text
        return edit.status_code, move.json()["ply"], final["ply"]

    async def run() -> list[tuple[int, int, int]]:
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            return [await trial(client) for _ in range(TRIALS)]

    for edit, answered, final in run_async(run):
        if edit == 200:
            assert (answered, final) == (3, 3), "the lines were set first: the reply was played"
        else:
            assert (edit, final) == (409, 2), "the move came first: the edit was refused"
