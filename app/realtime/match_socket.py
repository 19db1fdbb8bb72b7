"""WS /api/v1/matches/{id}/ws: the match as the connected viewer may see it, pushed on every change.

On connect the client gets ``{type: "state", ply, ...match}``; after every committed change it gets
the new state for its own seat. Clients may send ``{"type": "sync"}`` to be sent the current state
again (after noticing a gap in ``ply``) and ``{"type": "ping"}`` to keep the connection alive.
Browsers authenticate with their session cookie, other clients with ``?token=`` or a bearer header.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from app.api.deps import resolve_viewer
from app.realtime.bus import match_channel
from app.realtime.connection import run_jobs
from app.services.errors import NotFound, Unauthenticated
from app.services.identity import Identity
from app.services.match_views import match_payload
from app.services.matches import MatchService
from app.services.records import MatchRecord

router = APIRouter()

CLOSE_NOT_FOUND = 4404
CLOSE_BAD_TOKEN = 4401


def _load(websocket: WebSocket, match_id: str) -> tuple[Identity | None, MatchRecord | None, bool]:
    """(viewer, record, token_ok) in one short database session, off the event loop."""
    with websocket.app.state.session_factory() as session:
        try:
            viewer = resolve_viewer(websocket, session)
        except Unauthenticated:
            return None, None, False
        try:
            record = MatchService(session).get(match_id)
        except NotFound:
            record = None
        return viewer, record, True


def state_message(record: MatchRecord, viewer: Identity | None) -> dict[str, Any]:
    return {"type": "state", **match_payload(record, viewer.id if viewer else None)}


def change_events(previous: MatchRecord, current: MatchRecord, state: dict[str, Any]
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


@router.websocket("/api/v1/matches/{match_id}/ws")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    bus = websocket.app.state.bus
    async with bus.subscribe(match_channel(match_id)) as events:
        viewer, record, token_ok = await run_in_threadpool(_load, websocket, match_id)
        await websocket.accept()
        if not token_ok:
            await websocket.send_json({"type": "error", "code": "invalid_token",
                                       "message": "That API token is not valid."})
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        if record is None:
            await websocket.send_json({"type": "error", "code": "no_match",
                                       "message": f"There is no match {match_id!r}."})
            await websocket.close(CLOSE_NOT_FOUND)
            return
        latest = record
        presence = websocket.app.state.presence
        viewer_id = viewer.id if viewer else None
        connection = presence.connect(viewer_id, match_id, latest.seat_of(viewer_id))
        bus.publish(match_channel(match_id), {"type": "presence_changed"})
        await websocket.send_json(state_message(latest, viewer))

        def presence_message() -> dict[str, Any]:
            players = {s.user_id: s.seat for s in latest.seats if s.user_id is not None}
            return {"type": "presence", **presence.match_presence(match_id, players)}

        async def forward_events() -> None:
            nonlocal latest
            async for message in events:
                if message["type"] == "presence_changed":
                    await websocket.send_json(presence_message())
                    continue
                if message["type"] != "record":
                    await websocket.send_json(message)  # clock ticks, offers, …
                    continue
                incoming = MatchRecord.from_json(message["record"])
                if incoming.version < latest.version:
                    continue  # an older event overtaken by a newer one
                previous, latest = latest, incoming
                state = state_message(latest, viewer)
                await websocket.send_json(state)
                for event in change_events(previous, latest, state):
                    await websocket.send_json(event)

        async def answer_client() -> None:
            while True:
                message = await websocket.receive_json()
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "ping":
                    await websocket.send_json({"type": "pong"})
                elif kind == "sync":
                    fresh = await run_in_threadpool(_load, websocket, match_id)
                    if fresh[1] is not None:
                        await websocket.send_json(state_message(fresh[1], viewer))

        try:
            await run_jobs(websocket, forward_events, answer_client)
        finally:
            presence.disconnect(connection)
            bus.publish(match_channel(match_id), {"type": "presence_changed"})
