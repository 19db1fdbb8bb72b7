"""``POST /api/v1/matches/{id}/moves`` from an API client, served in front of the framework's stack.

Why: a REST move cost about 0.5 ms of CPU more than the same move over the match socket, and
profiled under load that difference was the framework's own machinery around one small call —
the dependency solver (rate limit, door, session, service), request body content-type parsing,
the middlewares' frames and send wrappers, routing over every route of the app, and response
validation. The bare baseline server pays none of it. :class:`MoveLane` takes the common case
(a bearer token the gate knows, a JSON body the route would accept, no cookie) and does exactly
what the route does, in the same order, with the same functions:

1. the caller is resolved by the gate (``resolve_principal`` from its cache) and admitted with
   the ``play`` scope (``admit``);
2. the body is read as the route's :class:`~app.match.schemas.MoveIn`;
3. the caller's refused moves in the match are held to the ``moves`` limit, and a refusal is
   counted (``ratelimit.move_quota``);
4. the move is played in one worker-thread hop, in the caller's language, with the service the
   route gets (``app_match_service``), and answered with the route's response model;
5. a refusal is answered by the app's own exception handlers, as the route's would be (a
   database away or saturated is ``on_database_error``'s 503).

Everything else — no or unknown token, a cookie, another content type, a body the model
refuses, a caller the door would refuse — goes to the app's stack untouched (the body read here
is handed on), before anything was counted or written, so the answer is the route's own. The
route itself stays the one the API documents (OpenAPI, the door inventory, docs/security.md).
The outer middlewares (request ids, metrics, admission) still wrap the lane; the metrics count
it under the route's template.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.one_hop import hop
from app.http import ratelimit
from app.http.credentials import bearer_token
from app.http.doors import admit
from app.http.inventory import find_route
from app.http.principal import Principal, credentials, resolve_principal
from app.http.scopes import PLAY
from app.kernel import i18n
from app.kernel.errors import ServiceError
from app.kernel.identity import Identity
from app.match.deps import app_match_service
from app.match.payloads import move_answer
from app.match.schemas import MatchOut, MoveIn

PATH = re.compile(r"/api/v1/matches/([^/]+)/moves")
ROUTE = "/api/v1/matches/{match_id}/moves"
ANSWER = TypeAdapter(MatchOut)
"""The route's response model: the lane answers with the same validation and encoding."""


def _json_body(headers: Any) -> bool:
    """A content type the route reads as JSON for certain (others go to the stack)."""
    kind: str = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return kind == "application/json"


def _play(app: ASGIApp, match_id: str, user: Identity, body: MoveIn) -> bytes:
    """The route's body in one worker thread: play, then the mover's answer, encoded. A
    database error goes up as it is: the app's handler answers it (a busy one is a 503)."""
    with app.state.session_factory() as session:  # type: ignore[attr-defined]
        record = app_match_service(app, session).play(match_id, user, body.move, body.ply)
    return ANSWER.dump_json(ANSWER.validate_python(move_answer(record, user.id)))


class MoveLane:
    """Pure ASGI middleware (inside the admission limit, outside the session and language
    middlewares): see the module's docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._route: APIRoute | None = None

    def _the_route(self, scope: Scope) -> APIRoute | None:
        """The documented route (for the metrics' label); None if the app has none."""
        if self._route is None:
            route = find_route(scope["app"], ROUTE, "POST")
            self._route = route if isinstance(route, APIRoute) else None
        return self._route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        found = PATH.fullmatch(scope["path"])
        if found is None or "\x00" in found.group(1):
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        headers = connection.headers
        token = bearer_token(connection)
        route = self._the_route(scope)
        if (token is None or "cookie" in headers or not _json_body(headers) or route is None
                or not credentials(connection).answerable(token, None)):
            await self.app(scope, receive, send)
            return
        body, receive = await _read_body(receive)
        caller = _admitted(connection) if body is not None else None
        move = _move_in(body) if body is not None and caller is not None else None
        if caller is None or caller.user is None or move is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = route
        language = i18n.current_language.set(i18n.choose_language(connection))
        try:
            await self._play(scope, receive, send, connection, caller, found.group(1), move)
        finally:
            i18n.current_language.reset(language)

    @staticmethod
    async def _play(scope: Scope, receive: Receive, send: Send, connection: HTTPConnection,
                    caller: Principal, match_id: str, move: MoveIn) -> None:
        assert caller.user is not None
        try:
            with ratelimit.move_quota(connection, caller, match_id):
                answer = await hop(_play, scope["app"], match_id, caller.user, move)
        except Exception as error:
            await _refused(scope, receive, send, error)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(answer)).encode()),
                                (b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": answer})


def _admitted(connection: HTTPConnection) -> Principal | None:
    """The caller if the route's door would let them play; None: let the stack answer."""
    try:
        principal = resolve_principal(connection)
        return admit(connection, principal, PLAY)
    except ServiceError:
        return None


def _move_in(body: bytes) -> MoveIn | None:
    """The body as the route reads it (JSON, then the model); None: let the stack answer."""
    try:
        return MoveIn.model_validate(orjson.loads(body))
    except (orjson.JSONDecodeError, ValidationError):
        return None


async def _read_body(receive: Receive) -> tuple[bytes | None, Receive]:
    """The whole request body (None if the client left first), and a ``receive`` that hands
    the messages read here on, as they came, to whoever reads next."""
    read: list[Message] = []
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request":
            return None, _replaying(read, receive)
        if not message.get("more_body", False):
            return b"".join(m.get("body", b"") for m in read), _replaying(read, receive)


def _replaying(read: list[Message], receive: Receive) -> Receive:
    async def replay() -> Message:
        return read.pop(0) if read else await receive()

    return replay


async def _refused(scope: Scope, receive: Receive, send: Send, error: Exception) -> None:
    """The answer of the app's own exception handler for ``error`` (as the route's would be);
    an error with none goes up to the server-error middleware, as from the route."""
    handlers = scope["app"].exception_handlers
    handler = next((handlers[kind] for kind in type(error).__mro__
                    if kind in handlers and kind is not Exception), None)
    if handler is None:
        raise error
    response = await handler(Request(scope, receive, send), error)
    await response(scope, receive, send)
