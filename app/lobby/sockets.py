"""WS /api/v1/lobby/ws: the open seeks, live, plus personal events (a challenge for you, your
match started). Being connected here also keeps your seeks alive: they expire when you leave."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Depends, WebSocket

from app.http.doors import declared
from app.http.scopes import READ
from app.http.socket_door import accept, entered
from app.lobby.messages import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
    SeeksMessage,
)
from app.lobby.service import LOBBY_CHANNEL, LobbyService, SeekJSON, seeks_message, user_channel
from app.match import MatchService
from app.realtime.bus import RESYNC
from app.realtime.connection import answer_pings, run_jobs
from app.realtime.messages import Message, Wire, encode, forwarded, send

router = APIRouter()


def _open_seeks(websocket: WebSocket) -> list[SeekJSON]:
    with websocket.app.state.session_factory() as session:
        return LobbyService(session, MatchService.read_only(session)).open_seeks()


@router.websocket("/api/v1/lobby/ws", dependencies=[Depends(declared(READ))])
async def lobby_socket(websocket: WebSocket) -> None:
    bus = websocket.app.state.bus
    async with contextlib.AsyncExitStack() as stack:
        live = await stack.enter_async_context(entered(websocket, READ))
        if live is None:
            return
        lobby_events = await stack.enter_async_context(bus.subscribe(LOBBY_CHANNEL))
        seeks = await asyncio.to_thread(_open_seeks, websocket)
        if not await accept(websocket):
            return
        viewer = live.principal.user
        viewer_id = viewer.id if viewer else None
        personal = (await stack.enter_async_context(bus.subscribe(user_channel(viewer_id)))
                    if viewer_id is not None else None)
        presence = websocket.app.state.presence
        connection = presence.connect(viewer_id)
        stack.callback(presence.disconnect, connection)
        await send(websocket, _seeks_for(seeks_message(seeks), viewer_id))

        async def forward_lobby() -> None:
            async for message in lobby_events:
                if message.get("type") == RESYNC:  # the bus was away: read the seeks again
                    message = seeks_message(await asyncio.to_thread(_open_seeks, websocket))
                if message.get("type") == "seeks":
                    await send(websocket, _seeks_for(message, viewer_id))

        async def forward_personal() -> None:
            if personal is None:
                await asyncio.Event().wait()
                return
            async for message in personal:
                model = PERSONAL.get(str(message.get("type")))  # nothing to resync: own events
                if model is not None:
                    await send(websocket, forwarded(message, model))

        await run_jobs(websocket, forward_lobby, forward_personal, lambda: answer_pings(websocket))


PERSONAL: dict[str, type[Message]] = {
    "challenge": LobbyChallengeMessage, "match_started": MatchStartedMessage,
    "challenge_declined": ChallengeDeclinedMessage, "challenge_canceled": ChallengeCanceledMessage}


def _seeks_for(message: dict[str, Any], viewer_id: int | None) -> Wire:
    """The seeks this viewer may see: challenges only when they involve them. A viewer in no
    challenge gets the message every such viewer gets, encoded once."""
    seeks = message["seeks"]
    visible = LobbyService.visible_to(seeks, viewer_id)
    if all(s["kind"] != "challenge" for s in visible):
        return forwarded(message, SeeksMessage, variant="public", content=lambda: (
            SeeksMessage.model_validate({"type": "seeks", "seeks": visible})))
    return encode(SeeksMessage.model_validate({"type": "seeks", "seeks": visible}))
