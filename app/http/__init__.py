"""The one request gate: every door (REST, page form, websocket, stream) resolves its caller here
into a :class:`Principal` and checks the scope it declares (see ``doors``).

A shared layer: its modules are its interface (``from app.http.doors import Player``); the
principal and the scopes are also named here, the gate's vocabulary (docs/architecture.md).
"""

from app.http.principal import Principal, resolve_principal, resolve_principal_async
from app.http.scopes import ACCOUNT, BOT, CHALLENGE, PAGE, PLAY, PUBLIC, READ, TOKEN_SCOPES

__all__ = [
    "ACCOUNT", "BOT", "CHALLENGE", "PAGE", "PLAY", "PUBLIC", "READ", "TOKEN_SCOPES",
    "Principal", "resolve_principal", "resolve_principal_async",
]
