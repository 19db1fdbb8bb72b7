"""How every websocket opens: through the one gate, the same way for each.

1. A browser's ``Origin`` must be this site or a trusted one, whatever the credential (else close
   4403 before the handshake completes: another site's page reads nothing);
2. the caller resolves into a :class:`Principal` and must hold the socket's declared scope
   (close 4401 ``invalid_token`` / 4403 ``missing_scope``, after an error message);
3. the connection registers in :class:`LiveConnections` (a token over its cap: close 4429
   ``rate_limited``), which closes it with 4401 ``credential_ended`` when its token is revoked
   or expires, or its browser session logs out, and with 1012 when the instance shuts down (a
   socket that opens while it does is accepted and closed with 1012 at once, so the client
   reconnects to another instance rather than failing).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from app.http.credentials import origin_allowed
from app.http.doors import admit
from app.http.live_connections import (
    CLOSE_CREDENTIAL_ENDED,
    CLOSE_FORBIDDEN,
    CLOSE_RESTART,
    CLOSE_TOO_MANY,
    RESTART,
    Live,
    Reason,
    ended_message,
    live_connections,
)
from app.http.principal import resolve_principal_async
from app.http.ratelimit import RateLimited
from app.kernel.errors import Forbidden, Unauthenticated

_closing: set[asyncio.Task[None]] = set()


async def refuse(websocket: WebSocket, code: str, message: str, close_code: int,
                 **extra: Any) -> None:
    """Tell the client why in one error message, then close with ``close_code``."""
    if websocket.application_state == WebSocketState.CONNECTING:
        await websocket.accept()
    await websocket.send_json({"type": "error", "code": code, "message": message, **extra})
    await websocket.close(close_code)


def closer(websocket: WebSocket) -> Callable[[Reason], None]:
    """What the registry calls when the socket's credential ends: an error message, then close
    4401; or when the instance shuts down: close 1012 (the handler, waiting for the client, then
    sees the disconnect and cleans up)."""

    async def close(reason: Reason) -> None:
        with contextlib.suppress(Exception):
            if reason == RESTART:
                await websocket.close(CLOSE_RESTART, "server restarting")
                return
            if websocket.application_state == WebSocketState.CONNECTED:
                await websocket.send_json(ended_message(reason))
            await websocket.close(CLOSE_CREDENTIAL_ENDED)  # before accepting: a refusal

    def end(reason: Reason) -> None:
        task = asyncio.get_running_loop().create_task(close(reason))
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    return end


async def enter(websocket: WebSocket, scope: str) -> Live | None:
    """Check, admit and register the socket; None when it was refused (and closed). The caller
    subscribes to what it needs, then calls :func:`accept`, and must :func:`leave` with what this
    returns when the socket ends."""
    if not origin_allowed(websocket, websocket.app.state.settings.trusted_origins):
        await websocket.close(CLOSE_FORBIDDEN)
        return None
    if live_connections(websocket).closing:
        await websocket.accept()
        await websocket.close(CLOSE_RESTART, "server restarting")
        return None
    try:
        principal = admit(websocket, await resolve_principal_async(websocket), scope)
    except Unauthenticated as error:
        await refuse(websocket, error.code, error.message, CLOSE_CREDENTIAL_ENDED)
        return None
    except Forbidden as error:
        await refuse(websocket, error.code, error.message, CLOSE_FORBIDDEN)
        return None
    try:
        live = live_connections(websocket).open(principal, closer(websocket))
    except RateLimited as error:
        await refuse(websocket, error.code, error.message, CLOSE_TOO_MANY,
                     retry_after=error.retry_after_seconds)
        return None
    return live


async def accept(websocket: WebSocket) -> bool:
    """Complete the handshake, unless the credential ended since :func:`enter` (the socket is
    closed already: the handler returns)."""
    if websocket.application_state != WebSocketState.CONNECTING:
        return False
    await websocket.accept()
    return True


def leave(websocket: WebSocket, live: Live) -> None:
    live_connections(websocket).close(live)


@contextlib.asynccontextmanager
async def entered(websocket: WebSocket, scope: str) -> AsyncIterator[Live | None]:
    """:func:`enter` and :func:`leave` around a handler's life (None: refused, return)."""
    live = await enter(websocket, scope)
    try:
        yield live
    finally:
        if live is not None:
            leave(websocket, live)
