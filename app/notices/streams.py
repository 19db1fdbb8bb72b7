"""NDJSON streams for programs (one JSON object per line, an empty line as keep-alive), and the
account events on a websocket for browsers.

- ``GET /api/v1/stream/event``: the caller's challenges and the start and end of their matches.
- ``GET /api/v1/matches/{id}/stream``: one match as the caller's seat (or as a spectator).

Both are fed by the event bus; a stream holds no database session while it waits. Being
connected to a match stream counts as being at the board (presence), exactly as the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import StreamingResponse

from app.accounts import followees_to_hear, followers_to_tell
from app.chat import CHAT_KINDS, visible_line
from app.db.one_hop import OneHopRoute
from app.http.doors import Reader, SignedInReader, declared, principal_of
from app.http.live_connections import CLOSE_CREDENTIAL_ENDED, live_connections
from app.http.openapi import NDJSON, ndjson_response
from app.http.scopes import READ
from app.http.socket_door import accept, entered, refuse
from app.kernel.identity import Identity
from app.kernel.timesource import now
from app.lobby import LobbyService, SeekJSON, user_channel
from app.match import MatchChange, MatchRecord, MatchService, require_visible
from app.notices.match_feed import MatchFeed, shared_matches
from app.notices.stream_events import AccountGames, FollowedGames, MatchFollower, personal_event
from app.people import games_in_play
from app.protocol import PROTOCOL_VERSION, ChallengeEvent, EventStreamLine, MatchStreamLine
from app.realtime.bus import LIVE_CHANNEL, RESYNC
from app.realtime.connection import answer_pings, run_jobs
from app.realtime.messages import Message, Wire, encode, send

router = APIRouter(route_class=OneHopRoute, tags=["streams"])

KEEPALIVE_SECONDS = 6.0
QUEUE_SIZE = 256

Events = AsyncIterator[Message | Wire]


class LiveStream(StreamingResponse):
    """An NDJSON response that leaves the live-connection registry when it ends, however it
    ends (even if the client went away before the first line)."""

    def __init__(self, lines: AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(lines, media_type=NDJSON,
                         headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


async def _ndjson(events: Callable[[], Events], keepalive: float,
                  queue: asyncio.Queue[tuple[str, Any]]) -> AsyncIterator[bytes]:
    """Lines of JSON from ``events`` (run in its own task), an empty line after each quiet
    ``keepalive`` seconds; the stream ends when an ``end`` item arrives (the credential ended,
    or the events did), and the producer is cancelled when the client goes away."""

    async def produce() -> None:
        try:
            async for event in events():
                await queue.put(("event", event))
        except Exception as error:  # delivered to the reader, which ends the stream
            await queue.put(("error", error))
        await queue.put(("end", None))

    producer = asyncio.create_task(produce())
    try:
        while True:
            try:
                kind, item = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield b"\n"
                continue
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield (item if isinstance(item, Wire) else encode(item)).line()
    finally:
        producer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await producer


def _end_now(queue: asyncio.Queue[tuple[str, Any]]) -> Callable[[str], None]:
    """The registry's way to end a stream: the events not yet sent are dropped (the caller may
    no longer read them) and the reader meets ``end`` next."""

    def end(reason: str) -> None:
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(("end", reason))

    return end


def _stream(events: Callable[[], Events], request: Request) -> StreamingResponse:
    """The NDJSON response, registered as a live connection of the caller's credential (429
    ``rate_limited`` when their token holds too many already)."""
    keepalive = getattr(request.app.state, "stream_keepalive_seconds", KEEPALIVE_SECONDS)
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue(QUEUE_SIZE)
    registry = live_connections(request)
    live = registry.open(principal_of(request), _end_now(queue))
    return LiveStream(_ndjson(events, keepalive, queue), lambda: registry.close(live))


# -- account events -------------------------------------------------------------------------------

def _account_start(app: Any, user: Identity) -> tuple[list[MatchRecord], list[SeekJSON]]:
    """The user's matches in play and the open challenges to them they have not accepted yet,
    in one short session."""
    with app.state.session_factory() as session:
        matches = MatchService.read_only(session)
        records = [matches.get(game["id"]) for game in games_in_play(session, user.id, limit=None)]
        challenges = LobbyService(session, matches).pending_for(user)
    incoming = [c for c in challenges if any(invited["id"] == user.id for invited in c["targets"])
                and all(j["id"] != user.id for j in c["joined"])]
    return [r for r in records if r.status == "active"], incoming


def _followees(app: Any, user_id: int) -> set[int]:
    with app.state.session_factory() as session:
        return followees_to_hear(session, user_id)


def _still_told(app: Any, user_id: int, followee_ids: list[int]) -> list[int]:
    """Those of ``followee_ids`` the user still follows with ``notify`` on, with no block."""
    with app.state.session_factory() as session:
        told = followers_to_tell(session, followee_ids)
    return [f for f in followee_ids if user_id in told.get(f, [])]


async def account_events(app: Any, user: Identity) -> Events:
    """On connect: ``gameStart`` for each match in play and ``challenge`` for each open one;
    then every new challenge, decline, cancel, start and finish as it happens. While it is
    open its user counts as present (their seeks and quick play wait, as for a socket)."""
    bus = app.state.bus
    since = now().isoformat()
    tracker = AccountGames(user.id, since + "Z")
    async with contextlib.AsyncExitStack() as stack:
        presence = app.state.presence
        stack.callback(presence.disconnect, presence.connect(user.id))
        personal = await stack.enter_async_context(bus.subscribe(user_channel(user.id)))
        live = await stack.enter_async_context(bus.subscribe(LIVE_CHANNEL))
        records, challenges = await asyncio.to_thread(_account_start, app, user)
        followed = FollowedGames(user.id, since,
                                 await asyncio.to_thread(_followees, app, user.id))
        for record in records:
            for event in tracker.events_for(record):
                yield event
        for challenge in challenges:
            yield ChallengeEvent.model_validate({"type": "challenge", "challenge": challenge,
                                                 "direction": "in"})
        merged: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

        async def pump(name: str, source: AsyncIterator[dict[str, Any]]) -> None:
            async for message in source:
                await merged.put((name, message))

        pumps = [asyncio.create_task(pump("personal", personal)),
                 asyncio.create_task(pump("live", live))]
        try:
            while True:
                source, message = await merged.get()
                if source == "personal":
                    if message.get("type") == "follows_changed":
                        followed.followees = await asyncio.to_thread(_followees, app, user.id)
                        continue
                    found = personal_event(message, user.id)
                    if found is not None:
                        yield found
                elif message.get("type") == "change":
                    change = MatchChange.from_json(message["change"])
                    for event in tracker.events_for(change):
                        yield event
                    starters = followed.candidates(change)
                    if starters:
                        told = await asyncio.to_thread(_still_told, app, user.id, starters)
                        started = followed.event(change, told[0]) if told else None
                        if started is not None:
                            yield started
        finally:
            for task in pumps:
                task.cancel()


@router.get("/stream/event", response_class=StreamingResponse, responses=ndjson_response(
    EventStreamLine, "NDJSON: one event per line, an empty line every ~6 s; kept open."))
async def stream_account_events(request: Request, user: SignedInReader) -> StreamingResponse:
    """Your events as NDJSON, kept open: `challenge`, `challengeCanceled`, `challengeDeclined`
    (each with `direction`: `in` for a challenge to you, `out` for yours; on connect, one
    `challenge` per open challenge waiting for your answer), `gameStart` (any match of yours
    starts; on connect, one per match in play), `gameFinish`, `yourTurn`, `offer`, `moderation`
    (a moderator acted on something of yours), `followedGame` (a person you follow with
    `notify` on started a game: `PUT /api/v1/users/{name}/follow`). An empty line every ~6 s
    keeps the connection alive; while it is open you count as present (your seeks and
    quick-play wait do not expire). Browsers: `WS /api/v1/stream/event/ws`."""
    return _stream(lambda: account_events(request.app, user), request)


@router.websocket("/stream/event/ws", dependencies=[Depends(declared(READ))])
async def account_event_socket(websocket: WebSocket) -> None:
    """The account events of `GET /api/v1/stream/event`, one JSON message each, for browsers.
    Send `{"type": "ping"}` to get `{"type": "pong"}`. Closes with 4401 when the session or
    token ends (see app/http/live_connections.py)."""
    async with entered(websocket, READ) as live:
        if live is None:
            return
        user = live.principal.user
        if user is None:
            await refuse(websocket, "unauthenticated", "Sign in first (session cookie or ?token=).",
                         CLOSE_CREDENTIAL_ENDED)
            return
        if await accept(websocket):
            await _send_account_events(websocket, user)


async def _send_account_events(websocket: WebSocket, user: Identity) -> None:

    async def forward() -> None:
        async for event in account_events(websocket.app, user):
            await send(websocket, event)

    await run_jobs(websocket, forward, lambda: answer_pings(websocket))


# -- one match -----------------------------------------------------------------------------------

def _load_record(app: Any, match_id: str) -> MatchRecord:
    with app.state.session_factory() as session:
        return MatchService.read_only(session).get(match_id)


def _load_moves(app: Any, match_id: str) -> list[str]:
    """The match's moves in order, from its move log."""
    with app.state.session_factory() as session:
        return [row["move"] for row in MatchService.read_only(session).moves(match_id)]


async def match_events(app: Any, match_id: str, viewer: Identity | None,
                       first: MatchRecord) -> Events:
    """``gameFull``, then ``gameState`` / ``offer`` / ``opponentGone`` / ``chatLine`` /
    ``chatHidden`` until ``gameFinish``."""
    presence = app.state.presence
    claim_after = app.state.settings.claim_after_seconds
    viewer_id = viewer.id if viewer else None

    shared = shared_matches(app.state)

    async def load() -> MatchRecord:
        return shared.record(await asyncio.to_thread(_load_record, app, match_id))

    async with MatchFeed(app.state.bus, match_id, viewer_id, shared) as feed:
        record = await load()  # nothing missed since: the feed is subscribed
        moves = await asyncio.to_thread(_load_moves, app, match_id)
        follower = MatchFollower(record if record.version >= first.version else first,
                                 viewer_id, PROTOCOL_VERSION, moves)
        await feed.settle(follower.latest)
        connection = presence.connect(viewer_id, match_id, follower.latest.seat_of(viewer_id))
        try:
            for event in follower.first_events():
                yield event
            if follower.over:
                return
            for event in await _presence(follower, presence, match_id, claim_after):
                yield event
            while True:
                message = await feed.next()
                kind = message.get("type")
                if kind in CHAT_KINDS:
                    line = visible_line(message, follower.latest, viewer_id)
                    if line is not None:
                        yield line
                elif kind in ("record", "change", RESYNC):
                    incoming = await (feed.reloaded(follower.latest, load) if kind == RESYNC
                                      else feed.newer(message, follower.latest, load))
                    if incoming is None:
                        continue
                    if not follower.follow_moves(incoming):
                        loaded = await asyncio.to_thread(_load_moves, app, match_id)
                        follower.moves = loaded[:incoming.ply]
                    for event in follower.events_for(incoming):
                        yield event
                    if follower.over:
                        return
                elif kind == "presence":  # batched, shared across instances
                    for event in await _presence(follower, presence, match_id, claim_after,
                                                 message["online_seats"]):
                        yield event
        finally:
            presence.disconnect(connection)


async def _presence(follower: MatchFollower, presence: Any, match_id: str, claim_after: float,
                    online: list[int] | None = None) -> list[Message]:
    record = follower.latest
    if online is None:
        online = (await presence.match_presence_async(match_id))["online_seats"]
    away = {s.seat: await presence.away_seconds_async(match_id, s.user_id)
            for s in record.seats if s.user_id is not None}
    return follower.presence_events(away, claim_after, list(online))


@router.get("/matches/{match_id}/stream", response_class=StreamingResponse,
            responses=ndjson_response(MatchStreamLine, (
                "NDJSON: one event per line, an empty line every ~6 s; ends after `gameFinish`.")))
async def stream_match(match_id: str, request: Request, viewer: Reader) -> StreamingResponse:
    """One match as NDJSON, as your seat sees it (spectators: the public view): `gameFull`
    first (players, options, view, legal moves, clock), then `gameState` after every change,
    `offer`, `opponentGone` (real-time games: with the seconds until you may claim the win) and
    `gameFinish`, after which the stream ends. Play with `POST /api/v1/matches/{id}/moves`.
    403 `match_sealed`: see `GET /matches/{id}`."""
    first = await asyncio.to_thread(_load_record, request.app, match_id)  # 404 no_match
    require_visible(first, viewer.id if viewer else None)  # 403 match_sealed
    return _stream(lambda: match_events(request.app, match_id, viewer, first), request)
