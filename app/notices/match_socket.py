"""WS /api/v1/matches/{id}/ws: the match as the connected viewer may see it, pushed on every
change, and the seat's own moves.

On connect the client gets ``{type: "state", ply, ...match}``; after every committed change it gets
the new state for its own seat (built once per version and seat for all sockets, see
``payloads.seat_message``). Clients may send:
- ``{"type": "move", "move": "c3-d4", "ply": N, "id": tag}`` (seated players): answered on this
  socket by ``{"type": "ack", "id", "ply"}`` or ``{"type": "error", "id", "code", "message"}``
  with exactly the REST guards and codes (stale_ply, not_your_turn, illegal_move, time_out…);
- ``{"type": "sync"}`` to be sent the current state again (after noticing a gap in ``ply``);
- ``{"type": "ping"}`` to keep the connection alive.
Browsers authenticate with their session cookie, other clients with ``?token=`` or a bearer
header; any browser's ``Origin`` must be the site's own or a trusted one (see
``app/http/socket_door.py``). A move needs the ``play`` scope (else ``missing_scope``).
Close codes: 1012 the instance is restarting (reconnect after a short random delay: moves sent
before were answered, a move sent after the close began was not played), 4401 a refused or
ended credential (revoked, expired, logged out), 4403 a foreign Origin, a token without
``read`` or a sealed match, 4404 no such match, 4429 too many connections for one token.

Served by :class:`MatchSockets`, a pure ASGI middleware in front of the app's stack, rather than
a FastAPI route: the route's dependency machinery and every middleware frame would live as long
as the socket (at 10,000 idle sockets, about 17 KiB each for those alone). An idle socket
holds its handler coroutine (waiting for the client), one :class:`SocketFeed` in its channels'
sets and its presence entry; a task forwards events only while some are pending.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from base64 import b64decode
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends
from itsdangerous.exc import BadSignature
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.analysis import AnalysisMessage
from app.chat import CHAT_KINDS, visible_line
from app.db.one_hop import hop
from app.http import ratelimit
from app.http.doors import declared
from app.http.live_connections import CLOSE_FORBIDDEN, Live
from app.http.messages import ErrorMessage
from app.http.scopes import PLAY, READ
from app.http.socket_door import accept, enter, leave, refuse, refuse_busy, server_busy
from app.kernel import i18n
from app.kernel.errors import NotFound, ServerBusy, ServiceError
from app.kernel.identity import Identity
from app.match import (
    AckMessage,
    Known,
    MatchRecord,
    MatchService,
    app_match_service,
    change_messages,
    sealed_error,
    sealed_for,
    seat_message,
)
from app.notices.match_feed import MatchFeed, shared_matches
from app.realtime.bus import QUEUE_SIZE, RESYNC, Receiver
from app.realtime.connection import EXPECTED_ENDINGS
from app.realtime.messages import PONG, Message, PresenceMessage, forwarded, send
from app.realtime.presence import Connection, Presence

log = logging.getLogger(__name__)
PATH = re.compile(r"/api/v1/matches/([^/]+)/ws")

CLOSE_NOT_FOUND = 4404
CLOSE_SEALED = CLOSE_FORBIDDEN  # after an error message {"type": "error", "code": "match_sealed"}


def _load_record(websocket: WebSocket, match_id: str) -> MatchRecord | None:
    """The match in one short database session, off the event loop."""
    with websocket.app.state.session_factory() as session:
        try:
            return MatchService.read_only(session).get(match_id)
        except NotFound:
            return None


def _play(websocket: WebSocket, match_id: str, viewer: Identity, move: str, ply: int
          ) -> MatchRecord:
    with websocket.app.state.session_factory() as session:
        return app_match_service(websocket.app, session).play(match_id, viewer, move, ply)


def _refusal(tag: str | int | None, failed: ServiceError) -> ErrorMessage:
    """A refused move's error message: the service's code, message and fields; a busy server's
    and a rate limit's say when to retry, as their 503 and 429 do."""
    error = ErrorMessage.model_validate({"type": "error", "id": tag, "code": failed.code,
                                         "message": failed.message, **failed.extra})
    if isinstance(failed, ServerBusy | ratelimit.RateLimited):
        error.retry_after = failed.retry_after_seconds
    return error


async def play_from_socket(websocket: WebSocket, match_id: str, live: Live,
                           message: dict[str, Any]) -> AckMessage | ErrorMessage:
    """The ack or the typed error for one ``move`` message."""
    tag = message.get("id")
    if not isinstance(tag, str | int) or isinstance(tag, bool):
        tag = None
    move, ply = message.get("move"), message.get("ply")
    principal, viewer = live.principal, live.principal.user

    def error(code: str, text: str) -> ErrorMessage:
        return ErrorMessage(type="error", id=tag, code=code, message=text)

    if viewer is None:
        return error("unauthenticated", "Sign in first: only a seated player can move.")
    if live.ended is not None or principal.expired():  # the socket is being closed
        return error("credential_ended", "Your credential has ended: this socket is closing.")
    if not principal.allows(PLAY):
        return error("missing_scope", "This token lacks the `play` scope: it cannot move.")
    if not isinstance(move, str) or not isinstance(ply, int) or isinstance(ply, bool):
        return error("invalid_request",
                     'A move message is {"type": "move", "move": "<text>", "ply": <int>}.')
    # An illegal move's reason comes in the player's language (the HTTP middleware skips sockets).
    language = i18n.current_language.set(i18n.choose_language(websocket))
    try:
        with ratelimit.move_quota(websocket, principal, match_id):
            record = await hop(_play, websocket, match_id, viewer, move, ply)
    except ServiceError as failed:
        return _refusal(tag, failed)
    except Exception as failure:  # the database away or saturated: the socket's 503
        busy = server_busy(failure)
        if busy is None:
            raise
        return _refusal(tag, busy)
    finally:
        i18n.current_language.reset(language)
    return AckMessage(type="ack", id=tag, ply=record.ply, version=record.version)


FORWARDED: dict[str, type[Message]] = {"presence": PresenceMessage, "analysis": AnalysisMessage}
"""What else the match's channel carries to its sockets, as it is: batched presence, the
analysis's progress."""


class SocketFeed(Receiver):
    """One match socket's side of its channels: the bus hands it each message (``push``); a
    task forwards what is pending, in order, and ends when nothing is left. Messages pushed
    before :meth:`start` (between subscribing and the first state) wait for it."""

    __slots__ = (
        "_pending",
        "_started",
        "_task",
        "connection",
        "feed",
        "latest",
        "load",
        "presence",
        "seat",
        "websocket",
    )

    def __init__(self, websocket: WebSocket, load: Callable[[], Awaitable[MatchRecord]]) -> None:
        self.websocket = websocket
        self.load = load
        self.feed: MatchFeed | None = None
        self.presence: Presence | None = None
        self.connection: Connection | None = None
        self.latest: Known | None = None
        self.seat: int | None = None
        self._pending: deque[dict[str, Any]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._started = False

    def push(self, message: dict[str, Any]) -> None:
        pending = self._pending
        if pending is None:
            pending = self._pending = deque()
        elif len(pending) >= QUEUE_SIZE:  # a slow reader only needs the newest state
            pending.popleft()
        pending.append(message)
        if self._started and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())

    def start(self, first: Known) -> None:
        """The first state is sent: forward what came meanwhile and everything after."""
        self.latest, self._started = first, True
        if self._pending and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def stop(self) -> None:
        self._started = False
        self._pending = None
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    async def _drain(self) -> None:
        try:
            while self._pending:
                await self._forward(self._pending.popleft())
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the socket is gone or broken: end it, the handler cleans up
            if not isinstance(error, EXPECTED_ENDINGS):
                log.exception("forwarding to a match socket failed")
            self._started = False
            with contextlib.suppress(Exception):
                await self.websocket.close()
        finally:
            if self._task is asyncio.current_task():
                self._task = None
            if not self._pending:
                self._pending = None

    async def _forward(self, message: dict[str, Any]) -> None:
        websocket, latest, feed = self.websocket, self.latest, self.feed
        assert latest is not None and feed is not None
        kind = message.get("type")
        if kind in CHAT_KINDS:  # only the rooms this viewer may read now
            line = visible_line(message, latest, feed.viewer_id)
            if line is not None:
                await send(websocket, line)
            return
        if kind == RESYNC:  # the bus was away: changes may have been missed
            try:
                incoming = await feed.reloaded(latest, self.load)
            except NotFound:
                return
        elif kind not in ("record", "change"):
            model = FORWARDED.get(str(kind))
            if model is not None:
                await send(websocket, forwarded(message, model))
            return
        else:
            incoming = await feed.newer(message, latest, self.load)
        if incoming is None:
            return
        self.latest = incoming
        seat = incoming.seat_of(feed.viewer_id)  # a seat may have been taken meanwhile
        if seat != self.seat:
            self.seat = seat
            if self.presence is not None and self.connection is not None:
                self.connection = self.presence.reseat(self.connection, seat)
        built = seat_message(incoming, self.seat)
        await send(websocket, built.state)
        if built.clock is not None:
            await send(websocket, built.clock)
        for event in change_messages(latest, incoming):
            await send(websocket, event)


class MatchSockets:
    """Pure ASGI middleware, outermost: ``/api/v1/matches/{id}/ws`` is served here, everything
    else goes on to the app. ``sessions`` is the app's own session middleware, whose cookie
    settings this reads (a browser socket signs in with the session cookie)."""

    def __init__(self, app: ASGIApp, sessions: SessionMiddleware) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path = scope["path"]
            root = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root):]
            found = PATH.fullmatch(path)
            if found is not None:
                scope["session"] = self._session(scope)
                scope["path_params"] = {"match_id": found[1]}
                await match_socket(WebSocket(scope, receive, send), found[1])
                return
        await self.app(scope, receive, send)

    def _session(self, scope: Scope) -> dict[str, Any]:
        """The signed session cookie's content, as SessionMiddleware reads it."""
        sessions = self.sessions
        raw = HTTPConnection(scope).cookies.get(sessions.session_cookie)
        if raw:
            try:
                data = sessions.signer.unsign(raw.encode("utf-8"), max_age=sessions.max_age)
                found = json.loads(b64decode(data))
                if isinstance(found, dict):
                    return found
            except (BadSignature, ValueError):
                pass
        return {}


router = APIRouter()


@router.websocket("/api/v1/matches/{match_id}/ws", dependencies=[Depends(declared(READ))])
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """The match socket. :class:`MatchSockets` serves this path before the app sees it; the
    route is here so the app's route list (and so its inventory of doors) shows it."""
    live = await enter(websocket, READ)
    if live is None:
        return
    try:
        await _serve(websocket, match_id, live)
    finally:
        leave(websocket, live)


async def _serve(websocket: WebSocket, match_id: str, live: Live) -> None:
    viewer = live.principal.user
    viewer_id = viewer.id if viewer else None
    state = websocket.app.state
    shared = shared_matches(state)

    async def load() -> MatchRecord:
        record = await hop(_load_record, websocket, match_id)
        if record is None:
            raise NotFound(f"There is no match {match_id!r}.", code="no_match")
        return shared.record(record)

    socket = SocketFeed(websocket, load)
    feed = socket.feed = MatchFeed(state.bus, match_id, viewer_id, shared, socket)
    presence = socket.presence = state.presence
    try:
        await feed.open()
        try:
            first = await load()
        except NotFound as missing:
            await refuse(websocket, missing.code, missing.message, CLOSE_NOT_FOUND)
            return
        except Exception as failure:
            busy = server_busy(failure)
            if busy is None:
                raise
            await refuse_busy(websocket, busy)
            return
        if sealed_for(first, viewer_id):  # a duplicate table: its seated players only
            error = sealed_error()
            await refuse(websocket, error.code, error.message, CLOSE_SEALED)
            return
        if not await accept(websocket):
            return
        await feed.settle(first)
        socket.seat = first.seat_of(viewer_id)
        socket.connection = presence.connect(viewer_id, match_id, socket.seat)
        await send(websocket, seat_message(first, socket.seat).state)
        socket.start(first)
        del first  # the socket's latest from now on: an old version must not stay alive here
        await answer_client(websocket, socket, match_id, live)
    except EXPECTED_ENDINGS:
        pass
    finally:
        await socket.stop()
        if socket.connection is not None:
            presence.disconnect(socket.connection)
        await feed.aclose()
        with contextlib.suppress(Exception):
            await websocket.close()


async def answer_client(websocket: WebSocket, socket: SocketFeed, match_id: str,
                        live: Live) -> None:
    """The client's messages, until it goes away (this is where an idle socket waits)."""
    while True:
        message = await websocket.receive_json()
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await send(websocket, PONG)
        elif kind == "move":
            if not live.start_move():  # closing for a restart: unplayed, the client retries
                continue
            try:
                await send(websocket, await play_from_socket(websocket, match_id, live, message))
            finally:
                live.finish_move()
        elif kind == "sync":
            with contextlib.suppress(NotFound):
                await send(websocket, seat_message(await socket.load(), socket.seat).state)
