"""WS /api/v1/matches/{id}/ws: the match as the connected viewer may see it, pushed on every
change, and the seat's own moves.

On connect the client gets ``{type: "state", ply, ...match}``; after every committed change it gets
the new state for its own seat (built once per version and seat for all sockets, see
``SeatMessages``). Clients may send:
- ``{"type": "move", "move": "c3-d4", "ply": N, "id": tag}`` (seated players): answered on this
  socket by ``{"type": "ack", "id", "ply"}`` or ``{"type": "error", "id", "code", "message"}``
  with exactly the REST guards and codes (stale_ply, not_your_turn, illegal_move, time_out…);
- ``{"type": "sync"}`` to be sent the current state again (after noticing a gap in ``ply``);
- ``{"type": "ping"}`` to keep the connection alive.
Browsers authenticate with their session cookie (the page's own origin only, see
``origin_allowed``), other clients with ``?token=`` or a bearer header.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from app import ratelimit
from app.auth import bearer_token, resolve_viewer_async
from app.db.one_hop import is_busy_error
from app.match.payloads import Known, SeatMessages
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.realtime.bus import publish_match
from app.realtime.chat_feed import visible_line
from app.realtime.connection import run_jobs
from app.realtime.match_feed import MatchFeed, shared_matches
from app.services.errors import NotFound, ServerBusy, ServiceError, Unauthenticated
from app.services.identity import Identity
from app.web import i18n

router = APIRouter()

CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_FOREIGN_ORIGIN = 4403


def origin_allowed(websocket: WebSocket) -> bool:
    """A cookie-authenticated socket must come from our own pages (or a trusted origin), so
    another site cannot open one with a visitor's cookie and read their seat's secrets. Clients
    with a bearer token are unaffected; so are clients that send no Origin (not browsers)."""
    origin = websocket.headers.get("origin")
    if origin is None or bearer_token(websocket) is not None:
        return True
    trusted = websocket.app.state.settings.trusted_origins
    if origin in trusted:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host", "")


def _load_record(websocket: WebSocket, match_id: str) -> MatchRecord | None:
    """The match in one short database session, off the event loop."""
    with websocket.app.state.session_factory() as session:
        try:
            return MatchService(session).get(match_id)
        except NotFound:
            return None


def _play(websocket: WebSocket, match_id: str, viewer: Identity, move: str, ply: int
          ) -> MatchRecord:
    bus = websocket.app.state.bus
    with websocket.app.state.session_factory() as session:
        try:
            return MatchService(session, lambda r: publish_match(bus, r)).play(
                match_id, viewer, move, ply)
        except Exception as error:
            if is_busy_error(error):
                raise ServerBusy("The server is busy: retry in a moment.") from error
            raise


async def play_from_socket(websocket: WebSocket, match_id: str, viewer: Identity | None,
                           message: dict[str, Any]) -> dict[str, Any]:
    """The ack or the typed error for one ``move`` message."""
    tag = message.get("id")
    move, ply = message.get("move"), message.get("ply")
    if viewer is None:
        return {"type": "error", "id": tag, "code": "unauthenticated",
                "message": "Sign in first: only a seated player can move."}
    if not isinstance(move, str) or not isinstance(ply, int) or isinstance(ply, bool):
        return {"type": "error", "id": tag, "code": "invalid_request",
                "message": 'A move message is {"type": "move", "move": "<text>", "ply": <int>}.'}
    wait = ratelimit.check(websocket, "moves")
    if wait is not None:
        return {"type": "error", "id": tag, "code": "rate_limited", "retry_after": wait,
                "message": f"Too many moves: wait {wait:.0f} s."}
    # An illegal move's reason comes in the player's language (the HTTP middleware skips sockets).
    language = i18n.current_language.set(i18n.choose_language(websocket))
    try:
        record = await run_in_threadpool(_play, websocket, match_id, viewer, move, ply)
    except ServiceError as error:
        return {"type": "error", "id": tag, "code": error.code, "message": error.message,
                **error.extra}
    finally:
        i18n.current_language.reset(language)
    return {"type": "ack", "id": tag, "ply": record.ply, "version": record.version}


def change_events(previous: Known, current: Known, state: dict[str, Any]
                  ) -> list[dict[str, Any]]:
    """Typed events after a state message, for clients that only care about one thing."""
    events = []
    if state.get("clock") is not None:
        events.append({"type": "clock", "ply": current.ply, **state["clock"]})
    if (previous.offers or {}) != (current.offers or {}):
        events.append({"type": "offer", "ply": current.ply, "offers": current.offers or {}})
    if current.status != previous.status and current.status in ("finished", "aborted"):
        events.append({"type": "result", "status": current.status, "result": current.result})
    return events


def seat_messages(websocket: WebSocket) -> SeatMessages:
    state = websocket.app.state
    if not hasattr(state, "seat_messages"):
        state.seat_messages = SeatMessages()
    return state.seat_messages


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.accept()
    await websocket.send_json({"type": "error", "code": code, "message": message})
    await websocket.close(close_code)


@router.websocket("/api/v1/matches/{match_id}/ws")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    if not origin_allowed(websocket):
        await websocket.close(CLOSE_FOREIGN_ORIGIN)
        return
    try:
        viewer = await resolve_viewer_async(websocket)
    except Unauthenticated:
        await _refuse(websocket, "invalid_token", "That API token is not valid.", CLOSE_BAD_TOKEN)
        return
    viewer_id = viewer.id if viewer else None
    messages = seat_messages(websocket)

    shared = shared_matches(websocket.app.state)

    async def load() -> MatchRecord:
        record = await run_in_threadpool(_load_record, websocket, match_id)
        if record is None:
            raise NotFound(f"There is no match {match_id!r}.", code="no_match")
        return shared.record(record)

    async with MatchFeed(websocket.app.state.bus, match_id, viewer_id, shared) as feed:
        try:
            first = await load()
        except NotFound as missing:
            await _refuse(websocket, missing.code, missing.message, CLOSE_NOT_FOUND)
            return
        await websocket.accept()
        await feed.settle(first)
        latest: Known = first
        seat = first.seat_of(viewer_id)
        presence = websocket.app.state.presence
        connection = presence.connect(viewer_id, match_id, seat)
        await websocket.send_text(messages.get(first, seat)[0])

        async def forward_events() -> None:
            nonlocal latest, seat
            while True:
                message = await feed.next()
                kind = message.get("type")
                if kind == "chatLine":  # issue 17: only the rooms this viewer may read now
                    line = visible_line(message, latest, viewer_id)
                    if line is not None:
                        await websocket.send_json(line)
                    continue
                if kind not in ("record", "change"):
                    await websocket.send_json(message)  # presence (batched), clock ticks, …
                    continue
                incoming = await feed.newer(message, latest, load)
                if incoming is None:
                    continue
                previous, latest = latest, incoming
                seat = latest.seat_of(viewer_id)  # a seat may have been taken meanwhile
                text, state = messages.get(latest, seat)
                await websocket.send_text(text)
                for event in change_events(previous, latest, state):
                    await websocket.send_json(event)

        async def answer_client() -> None:
            while True:
                message = await websocket.receive_json()
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "ping":
                    await websocket.send_json({"type": "pong"})
                elif kind == "move":
                    await websocket.send_json(
                        await play_from_socket(websocket, match_id, viewer, message))
                elif kind == "sync":
                    with contextlib.suppress(NotFound):
                        await websocket.send_text(messages.get(await load(), seat)[0])

        try:
            await run_jobs(websocket, forward_events, answer_client)
        finally:
            presence.disconnect(connection)
