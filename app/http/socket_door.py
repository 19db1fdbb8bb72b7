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

from starlette.websockets import WebSocket, WebSocketState

from app.db.one_hop import as_server_busy, is_busy_error
from app.http.credentials import origin_allowed
from app.http.doors import admit
from app.http.live_connections import (
    CLOSE_CREDENTIAL_ENDED,
    CLOSE_FORBIDDEN,
    CLOSE_RESTART,
    CLOSE_TOO_MANY,
    CLOSE_TRY_AGAIN,
    RESTART,
    Live,
    Reason,
    ended_message,
    live_connections,
)
from app.http.messages import ErrorMessage
from app.http.principal import resolve_principal_async
from app.http.ratelimit import RateLimited
from app.kernel.errors import Forbidden, ServerBusy, Unauthenticated
from app.realtime.messages import send

_closing: set[asyncio.Task[None]] = set()


async def refuse(websocket: WebSocket, code: str, message: str, close_code: int,
                 retry_after: float | None = None) -> None:
    """Tell the client why in one error message, then close with ``close_code``."""
    if websocket.application_state == WebSocketState.CONNECTING:
        await websocket.accept()
    error = ErrorMessage(type="error", code=code, message=message)
    if retry_after is not None:
        error.retry_after = retry_after
    await send(websocket, error)
    await websocket.close(close_code)


def server_busy(error: BaseException) -> ServerBusy | None:
    """``error`` as the 503 it means (the database or the live service away), else None."""
    if isinstance(error, ServerBusy):
        return error
    return as_server_busy(error) if is_busy_error(error) else None


async def refuse_busy(websocket: WebSocket, busy: ServerBusy) -> None:
    """The socket's 503: an error message with ``retry_after``, then close 1013 (try again
    later), never a failed handshake."""
    await refuse(websocket, busy.code, busy.message, CLOSE_TRY_AGAIN,
                 retry_after=busy.retry_after_seconds)


def closer(websocket: WebSocket) -> Callable[[Reason], None]:
    """What the registry calls when the socket's credential ends: an error message, then close
    4401; or when the instance shuts down: close 1012 (the handler, waiting for the client, then
    sees the disconnect and cleans up)."""

    async def close(reason: Reason) -> None:
        with contextlib.suppress(Exception):
            if reason == RESTART:
                if websocket.application_state == WebSocketState.CONNECTING:
                    return  # not admitted yet: :func:`enter` accepts it, then closes it
                await websocket.close(CLOSE_RESTART, "server restarting")
                return
            if websocket.application_state == WebSocketState.CONNECTED:
                await send(websocket, ended_message(reason))
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
    except Exception as error:
        busy = server_busy(error)
        if busy is None:
            raise
        await refuse_busy(websocket, busy)
        return None
    try:
        live = live_connections(websocket).open(principal, closer(websocket))
    except RateLimited as error:
        await refuse(websocket, error.code, error.message, CLOSE_TOO_MANY,
                     retry_after=error.retry_after_seconds)
        return None
    if live.ended == RESTART:  # the drain began since the check above: go elsewhere
        leave(websocket, live)
        with contextlib.suppress(Exception):  # accepted first: a close before it is a 403
            await websocket.accept()
            await websocket.close(CLOSE_RESTART, "server restarting")
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
