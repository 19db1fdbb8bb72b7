"""WS /api/v1/live/ws: every change to any match, as the public view, for the Watch page."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.realtime.bus import LIVE_CHANNEL
from app.realtime.connection import drain_client, run_jobs
from app.services.match_views import match_payload
from app.services.records import MatchRecord

router = APIRouter()


@router.websocket("/api/v1/live/ws")
async def live_socket(websocket: WebSocket) -> None:
    async with websocket.app.state.bus.subscribe(LIVE_CHANNEL) as events:
        await websocket.accept()

        async def forward_changes() -> None:
            async for message in events:
                if message.get("type") != "record":
                    continue
                record = MatchRecord.from_json(message["record"])
                if record.status == "waiting":
                    continue
                counts = websocket.app.state.presence.spectator_counts()
                await websocket.send_json({"type": "match", **match_payload(record, None),
                                           "spectators": counts.get(record.id, 0)})

        await run_jobs(websocket, forward_changes, lambda: drain_client(websocket))
