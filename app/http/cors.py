"""CORS: programs in other sites' pages may call the API with a bearer token, never with the
visitor's cookies.

On ``/api/v1/…`` (the OAuth token and revocation endpoints included) and the OAuth metadata,
every answer says ``Access-Control-Allow-Origin: *`` and never ``…-Allow-Credentials``, so a
browser shows another site's script the answer only to a request made without cookies; a
preflight is answered here at once (204). A request from another site's page has its
``Cookie`` header removed before anything reads it: whatever the browser sent along, it is
answered as the bearer token (or nobody) it names, never as the signed-in visitor. Requests
from this site's own pages (same host, or a trusted origin) and from programs that send no
``Origin`` keep their cookies, and with them the CSRF checks of cookie writes (``doors``).
Websockets check their Origin themselves (``socket_door``).
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.credentials import origin_allowed

API_PREFIX = "/api/v1/"
OTHER_PATHS = frozenset({"/.well-known/oauth-authorization-server"})
ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE"
ALLOW_HEADERS = "Authorization, Content-Type, Accept, Accept-Language, If-None-Match, If-Modified-Since"
EXPOSE_HEADERS = ("Retry-After, ETag, Last-Modified, Location, Link, Content-Disposition, "
                  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, "
                  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset")
MAX_AGE = "7200"
"""Seconds a browser may reuse a preflight's answer (Chromium's own ceiling)."""


def cors_path(path: str) -> bool:
    return path.startswith(API_PREFIX) or path in OTHER_PATHS


class Cors:
    """Pure ASGI middleware; ``trusted_origins`` as the websockets' (app settings)."""

    def __init__(self, app: ASGIApp, trusted_origins: list[str] | tuple[str, ...] = ()) -> None:
        self.app = app
        self.trusted = tuple(trusted_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not cors_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if (scope["method"] == "OPTIONS" and origin is not None
                and "access-control-request-method" in headers):
            await self._preflight(send)
            return
        if origin is not None and not origin_allowed(HTTPConnection(scope), self.trusted):
            scope = {**scope, "headers": [(name, value) for name, value in scope["headers"]
                                          if name.lower() != b"cookie"]}

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = MutableHeaders(scope=message)
                answer["Access-Control-Allow-Origin"] = "*"
                answer["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
                answer.add_vary_header("Origin")  # whether cookies counted depends on it
            await send(message)

        await self.app(scope, receive, send_with_cors)

    @staticmethod
    async def _preflight(send: Send) -> None:
        await send({"type": "http.response.start", "status": 204, "headers": [
            (b"access-control-allow-origin", b"*"),
            (b"access-control-allow-methods", ALLOW_METHODS.encode()),
            (b"access-control-allow-headers", ALLOW_HEADERS.encode()),
            (b"access-control-max-age", MAX_AGE.encode()),
        ]})
        await send({"type": "http.response.body", "body": b""})
