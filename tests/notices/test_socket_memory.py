"""Memory is given back when match sockets close.

A real server (uvicorn, in this process so its structures can be inspected) holds players and
spectators on two matches through a join and a socket move; once every socket has closed, the
process holds nothing for them any more: no bus subscription, no shared record, no presence
entry, no socket object, no task. Structures, not RSS: RSS depends on the allocator.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import operator
import socket
from collections import Counter
from collections.abc import AsyncIterator
from functools import partial
from itertools import compress
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from app.kernel.settings import Settings
from app.main import create_app
from app.notices.match_feed import MatchFeed, shared_matches
from app.notices.match_socket import SocketFeed
from tests.live.server import run_async

SPECTATORS = 12


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _every_object() -> list[object]:
    """Every object the collector tracks, the frozen ones too (app/kernel/heap.py freezes the
    survivors of full collections; ``gc.get_objects`` skips those), after a full collection."""
    gc.unfreeze()  # a full walk, so dead cycles among frozen objects are freed too
    gc.collect()
    gc.unfreeze()  # the collection's end froze its survivors again
    return gc.get_objects()


def _alive(*kinds: type) -> list[int]:
    """How many objects of each of ``kinds`` (or their subclasses) are alive, in one walk: the
    heap of a pytest process that collected the whole suite holds millions of objects, so the
    objects are counted by exact type in C and only the types are compared here."""
    by_type = Counter(map(type, _every_object()))  # type(), not __class__: not a proxy
    return [sum(count for exact, count in by_type.items() if issubclass(exact, kind))
            for kind in kinds]


async def _state_at(ws: ClientConnection, ply: int, status: str | None = None) -> dict[str, Any]:
    """The first state message at ``ply`` (and ``status``), skipping everything else."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "state" and message["ply"] == ply \
                and (status is None or message["status"] == status):
            return message


@contextlib.asynccontextmanager
async def _serving(app: Any, port: int, sockets: list[ClientConnection]) -> AsyncIterator[None]:
    """A uvicorn server for ``app`` while the block runs; ``sockets`` closed before it stops."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws_per_message_deflate=False))
    serving = asyncio.create_task(server.serve())
    await _until(lambda: server.started)
    try:
        yield
    finally:
        for ws in sockets:
            await ws.close()
        server.should_exit = True
        await serving


async def _until(check: Any, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)


@pytest.mark.own_process
def test_closing_every_socket_leaves_no_structure_behind(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              background_jobs="off", bots_enabled=False))
    port = _free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"

    async def scenario() -> None:
        state, sockets = app.state, []
        async with _serving(app, port, sockets), httpx.AsyncClient(base_url=base, timeout=10) as http:
            guests = [(await http.post("/api/v1/guests", json={"name": name})).json()
                      for name in ("Alice", "Bob")]
            alice, bob = ({"Authorization": f"Bearer {g['token']}"} for g in guests)
            first = (await http.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                                     headers=alice)).json()["id"]
            other = (await http.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                                     headers=bob)).json()["id"]
            await asyncio.sleep(0.1)
            channels = state.bus.subscriber_count()
            tasks = len(asyncio.all_tasks())

            async def open_socket(match_id: str, token: str | None = None) -> ClientConnection:
                query = f"?token={token}" if token else ""
                ws = await connect(f"{ws_base}/api/v1/matches/{match_id}/ws{query}")
                sockets.append(ws)
                await _state_at(ws, 0)
                return ws

            light = await open_socket(first, guests[0]["token"])
            dark = await open_socket(first, guests[1]["token"])  # watches, then sits
            watchers = [await open_socket(first) for _ in range(SPECTATORS)]
            waiting = [await open_socket(other) for _ in range(3)]
            joined = await http.post(f"/api/v1/matches/{first}/join", headers=bob)
            assert joined.status_code == 200, joined.text
            start = await _state_at(light, 0, "active")
            for ws in [dark, *watchers]:
                await _state_at(ws, 0, "active")
            await light.send(json.dumps({"type": "move", "move": start["legal_moves"][0],
                                         "ply": 0, "id": "m1"}))
            for ws in [light, dark, *watchers]:
                await _state_at(ws, 1)

            assert state.presence.tracked_matches() == 2
            assert state.presence.spectator_counts() == {first: SPECTATORS, other: 3}
            assert state.bus.subscriber_count() > channels and len(shared_matches(state)) > 0
            assert _alive(SocketFeed) == [len(sockets)] == [SPECTATORS + 5]

            for ws in sockets:
                await ws.close()
            await _until(lambda: state.presence.tracked_matches() == 0
                         and state.bus.subscriber_count() == channels)
            await asyncio.sleep(0.1)

            assert state.presence.tracked_matches() == 0
            assert state.presence.spectator_counts() == {}
            assert not any(state.presence.is_online(g["user"]["id"]) for g in guests)
            assert state.bus.subscriber_count() == channels  # every channel left
            assert _alive(SocketFeed, MatchFeed) == [0, 0]
            assert len(shared_matches(state)) == 0  # no connection shows a record any more
            assert len(asyncio.all_tasks()) <= tasks  # no forwarding task left running
            del waiting

    run_async(scenario)


def _state_messages_alive() -> int:
    """Built ``state`` messages (dicts with a view) the process still holds (the dicts picked
    out in C first, as in :func:`_alive`)."""
    every = _every_object()
    dicts = compress(every, map(partial(operator.is_, dict), map(type, every)))
    return sum(1 for thing in dicts if thing.get("type") == "state" and "view" in thing)


@pytest.mark.own_process
def test_state_messages_of_past_versions_are_not_kept(database_url: str) -> None:
    """Sockets showing a match keep no built message of versions they have moved past: a cache of
    every (match, version, seat) message, views included, grew by hundreds of thousands of
    objects under load, and the collector's full walks over them were the fan-out's p99."""
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              background_jobs="off", bots_enabled=False))
    port = _free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    moves = 24

    async def scenario() -> None:
        sockets: list[ClientConnection] = []
        async with _serving(app, port, sockets), httpx.AsyncClient(base_url=base, timeout=10) as http:
            guests = [(await http.post("/api/v1/guests", json={"name": name})).json()
                      for name in ("Alice", "Bob")]
            match_id = (await http.post(
                "/api/v1/matches", json={"game": "stairs", "seat": 0},
                headers={"Authorization": f"Bearer {guests[0]['token']}"})).json()["id"]
            joined = await http.post(f"/api/v1/matches/{match_id}/join", headers={
                "Authorization": f"Bearer {guests[1]['token']}"})
            assert joined.status_code == 200, joined.text
            for token in (guests[0]["token"], guests[1]["token"], None, None):
                query = f"?token={token}" if token else ""
                sockets.append(await connect(f"{ws_base}/api/v1/matches/{match_id}/ws{query}"))
            states = [await _state_at(ws, 0) for ws in sockets]
            for ply in range(moves):
                mover = states[0]["to_move"]
                assert states[mover]["legal_moves"], states[mover]
                await sockets[mover].send(json.dumps(
                    {"type": "move", "move": states[mover]["legal_moves"][0], "ply": ply}))
                states = [await _state_at(ws, ply + 1) for ws in sockets]
                if states[0]["status"] != "active":
                    break
            played = states[0]["ply"]
            assert played >= 10, "the test needs a game of some length"
            del states  # this test's own copies, decoded from the sockets
            # Three seats' forms (two players, spectators) of the version shown, at most.
            alive = _state_messages_alive()
            assert alive <= 3, f"{alive} after {played}"

    run_async(scenario)
