"""WS /api/v1/live/ws: every change to any match, as the public view, for the Watch page.
Send ``{"type": "ping"}`` to get ``{"type": "pong"}``."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, WebSocket

from app.http.doors import declared
from app.http.scopes import PUBLIC
from app.http.socket_door import accept, entered
from app.match import (
    Known,
    LiveMatchMessage,
    MatchHeader,
    RatingJSON,
    live_item,
    seat_ratings,
    unvalidated,
)
from app.notices.match_feed import shared_matches
from app.realtime.bus import LIVE_CHANNEL
from app.realtime.connection import answer_pings, run_jobs
from app.realtime.messages import Wire, encode, send

router = APIRouter()
RATINGS_KEPT = 2048


async def seat_ratings_of(websocket: WebSocket, record: MatchHeader) -> dict[int, RatingJSON]:
    """The players' ratings as shown on the Watch page, read once per match and process (they
    change only when a game ends), so live updates keep them as the first load showed them."""
    cache: dict[str, dict[int, RatingJSON]] = websocket.app.state.live_ratings
    if record.id not in cache:
        def load() -> dict[int, RatingJSON]:
            with websocket.app.state.session_factory() as session:
                return seat_ratings(session, record)

        if len(cache) >= RATINGS_KEPT:
            cache.clear()
        cache[record.id] = await asyncio.to_thread(load)
    return cache[record.id]


async def live_message(websocket: WebSocket, known: Known) -> Wire:
    """The ``match`` message for this version, built and encoded once for every live socket of
    the process (kept with the version's other messages; ratings and the spectator count as the
    first socket to send it read them)."""
    built = known.built_messages
    found = built.get(LIVE)
    if found is None:
        rated = await seat_ratings_of(websocket, known)
        found = built.get(LIVE)  # another socket may have built it meanwhile
        if found is None:
            counts = websocket.app.state.presence.spectator_counts()
            item = live_item(known, rated, counts.get(known.id, 0))
            found = built[LIVE] = encode(LiveMatchMessage.model_construct(type="match", **unvalidated(item)))
    assert isinstance(found, Wire)
    return found


LIVE = "live"


@router.websocket("/api/v1/live/ws", dependencies=[Depends(declared(PUBLIC))])
async def live_socket(websocket: WebSocket) -> None:
    async with entered(websocket, PUBLIC) as live:
        if live is not None:
            await _forward_changes(websocket)


async def _forward_changes(websocket: WebSocket) -> None:
    async with websocket.app.state.bus.subscribe(LIVE_CHANNEL) as events:
        if not await accept(websocket):
            return

        async def forward_changes() -> None:
            async for message in events:
                if message.get("type") != "change":
                    continue
                record = shared_matches(websocket.app.state).decode(message)
                if record.status == "waiting" or record.sealed:  # sealed: a duplicate table
                    continue
                await send(websocket, await live_message(websocket, record))

        await run_jobs(websocket, forward_changes, lambda: answer_pings(websocket))
