"""The bare baseline for ``bench/load.py``: the least a websocket game server must do, nothing more.

A Starlette app speaking just enough of Stepwell's API for the load client (guests, create, join,
get, REST moves, the match socket with socket moves) over matches held in memory: no database, no
auth beyond a token lookup in a dict, no presence. A move runs the real Stairs engine, builds each
seat's payload once, encodes it once and writes it to every socket of the match. What the real
server spends beyond this is the cost of its own design.

Run by ``bench/load.py`` (``uvicorn bare_server:app --app-dir bench``); not part of the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry
from games.base import IllegalMove, State

_ids = itertools.count(1)
USERS: dict[str, dict[str, Any]] = {}  # token -> {id, name}


@dataclass
class Match:
    id: str
    state: State
    seats: list[dict[str, Any] | None]
    status: str = "waiting"
    ply: int = 0
    sockets: dict[WebSocket, int | None] = field(default_factory=dict)  # socket -> seat (None: watching)

    def seat_of(self, user: dict[str, Any] | None) -> int | None:
        for index, seated in enumerate(self.seats):
            if user is not None and seated is not None and seated["id"] == user["id"]:
                return index
        return None

    def payload(self, seat: int | None) -> dict[str, Any]:
        to_move = self.state.to_move if self.status == "active" else None
        result = self.state.result
        return {
            "id": self.id, "game": "stairs", "status": self.status, "ply": self.ply,
            "version": self.ply, "to_move": to_move, "your_seat": seat,
            "seats": [{"seat": i, "user": s} for i, s in enumerate(self.seats)],
            "view": self.state.view(seat),
            "legal_moves": self.state.legal_moves() if seat is not None and seat == to_move else [],
            "result": result.to_json() if result else None,
        }


MATCHES: dict[str, Match] = {}


def error(status: int, code: str, message: str = "") -> JSONResponse:
    return JSONResponse({"code": code, "message": message or code}, status_code=status)


def caller(request: Request | WebSocket) -> dict[str, Any] | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        token = request.query_params.get("token", "")
    return USERS.get(token.strip())


async def create_guest(request: Request) -> Response:
    body = await request.json()
    token = secrets.token_urlsafe(24)
    USERS[token] = {"id": next(_ids), "name": str(body.get("name", "guest"))[:40], "kind": "guest"}
    return JSONResponse({"token": token, "user": USERS[token]}, status_code=201)


async def create_match(request: Request) -> Response:
    user = caller(request)
    if user is None:
        return error(401, "not_authenticated")
    await request.json()
    match = Match(id=secrets.token_urlsafe(8), state=registry.get("stairs").new_state(players=2),
                  seats=[user, None])
    MATCHES[match.id] = match
    return JSONResponse(match.payload(0), status_code=201)


def _match(request: Request) -> Match | None:
    return MATCHES.get(request.path_params["match_id"])


async def join_match(request: Request) -> Response:
    user, match = caller(request), _match(request)
    if user is None:
        return error(401, "not_authenticated")
    if match is None:
        return error(404, "no_match")
    if match.status != "waiting" or None not in match.seats:
        return error(409, "match_not_waiting")
    match.seats[match.seats.index(None)] = user
    match.status = "active"
    broadcast(match)
    return JSONResponse(match.payload(match.seat_of(user)))


async def get_match(request: Request) -> Response:
    match = _match(request)
    if match is None:
        return error(404, "no_match")
    return JSONResponse(match.payload(match.seat_of(caller(request))))


def play(match: Match, user: dict[str, Any] | None, move: Any, ply: Any) -> tuple[str, str] | None:
    """The move applied and broadcast, or (code, message) saying why not (the REST guards)."""
    seat = match.seat_of(user)
    if seat is None:
        return "not_a_player", "You are not playing in this match."
    if match.status != "active":
        return "match_not_active", "The match is not in play."
    if ply != match.ply:
        return "stale_ply", f"The match is at ply {match.ply}."
    if match.state.to_move != seat:
        return "not_your_turn", "It is not your turn."
    try:
        match.state = match.state.play(str(move))
    except IllegalMove as exc:
        return "illegal_move", str(exc)
    match.ply += 1
    if match.state.is_over:
        match.status = "finished"
    broadcast(match)
    return None


STATUS = {"not_a_player": 403, "not_your_turn": 403, "match_not_active": 409, "stale_ply": 409,
          "illegal_move": 422}


async def play_move(request: Request) -> Response:
    user, match = caller(request), _match(request)
    if user is None:
        return error(401, "not_authenticated")
    if match is None:
        return error(404, "no_match")
    body = await request.json()
    refused = play(match, user, body.get("move"), body.get("ply"))
    if refused:
        return error(STATUS[refused[0]], *refused)
    return JSONResponse(match.payload(match.seat_of(user)))


def broadcast(match: Match) -> None:
    """Each seat's state encoded once, queued to every socket of the match without waiting."""
    encoded: dict[int | None, str] = {}
    for socket, seat in list(match.sockets.items()):
        if seat not in encoded:
            encoded[seat] = json.dumps({"type": "state", **match.payload(seat)})
        asyncio.get_running_loop().create_task(_send(socket, encoded[seat]))


async def _send(socket: WebSocket, text: str) -> None:
    with contextlib.suppress(Exception):
        await socket.send_text(text)


async def match_socket(websocket: WebSocket) -> None:
    match = MATCHES.get(websocket.path_params["match_id"])
    user = caller(websocket)
    await websocket.accept()
    if match is None:
        await websocket.close(4404)
        return
    seat = match.seat_of(user)
    match.sockets[websocket] = seat
    try:
        await websocket.send_text(json.dumps({"type": "state", **match.payload(seat)}))
        while True:
            message = json.loads(await websocket.receive_text())
            kind = message.get("type")
            if kind == "ping":
                await websocket.send_text('{"type": "pong"}')
            elif kind == "sync":
                await websocket.send_text(json.dumps({"type": "state", **match.payload(seat)}))
            elif kind == "move":
                refused = play(match, user, message.get("move"), message.get("ply"))
                reply = ({"type": "ack", "id": message.get("id"), "ply": match.ply} if refused is None
                         else {"type": "error", "id": message.get("id"), "code": refused[0],
                               "message": refused[1]})
                await websocket.send_text(json.dumps(reply))
    except (WebSocketDisconnect, RuntimeError, ValueError):
        pass
    finally:
        match.sockets.pop(websocket, None)


async def list_games(_: Request) -> Response:
    return JSONResponse([{"id": "stairs"}])


app = Starlette(routes=[
    Route("/api/v1/games", list_games),
    Route("/api/v1/guests", create_guest, methods=["POST"]),
    Route("/api/v1/matches", create_match, methods=["POST"]),
    Route("/api/v1/matches/{match_id}", get_match),
    Route("/api/v1/matches/{match_id}/join", join_match, methods=["POST"]),
    Route("/api/v1/matches/{match_id}/moves", play_move, methods=["POST"]),
    WebSocketRoute("/api/v1/matches/{match_id}/ws", match_socket),
])
