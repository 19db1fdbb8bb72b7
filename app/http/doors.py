"""Doors: each route declares the scope it needs, and the gate checks it the same way everywhere.

``Depends(door(scope))`` resolves the caller (:func:`app.http.principal.resolve_principal`),
refuses a credential that lacks the scope (403 ``missing_scope``), insists on the CSRF token for
every cookie-authenticated write, and leaves the :class:`Principal` on ``request.state``. Sockets
and streams declare theirs with ``declared(scope)`` and call :func:`admit` when they open.
A door that needs a role (``MODERATE`` doors, the moderators' pages) asks the database whether
the caller holds it on every call (403 ``not_a_moderator``), so granting and revoking take effect
at once on every instance. A test walks every route of the app and fails for one that declares
no scope.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.http import scopes
from app.http.credentials import SAFE_METHODS, csrf_ok, sent_csrf
from app.http.principal import Principal, credentials, resolve_principal_async
from app.kernel.errors import Forbidden, Unauthenticated
from app.kernel.identity import Identity

SCOPE_ATTRIBUTE = "door_scope"
SIGNED_IN_ATTRIBUTE = "door_signed_in"
ROLE_ATTRIBUTE = "door_role"
SIGN_IN_FIRST = "Sign in first: POST /api/v1/guests gives a guest a token."
NEEDS = {
    scopes.READ: "the `read` scope", scopes.PLAY: "the `play` scope",
    scopes.CHALLENGE: "the `challenge` scope", scopes.BOT: "the `bot` scope",
    scopes.ACCOUNT: "a browser session or a full-access token",
    scopes.MODERATE: "a moderator's browser session or full-access token",
}


def admit(connection: HTTPConnection, principal: Principal, scope: str) -> Principal:
    """Raise unless ``principal`` may pass a door that needs ``scope``."""
    if principal.expired():
        raise Unauthenticated("That API token has expired.", code="invalid_token")
    if not principal.allows(scope):
        raise Forbidden(f"This token lacks {NEEDS.get(scope, scope)} for this call.",
                        code="missing_scope")
    connection.state.principal = principal
    return principal


async def _check_csrf(request: Request, principal: Principal, scope: str) -> None:
    """A write made with the browser's cookie must carry the page's CSRF token."""
    cookie_write = request.method not in SAFE_METHODS and (
        principal.credential == "session" or scope == scopes.PAGE)
    if cookie_write and not csrf_ok(request, await sent_csrf(request)):
        raise Forbidden("Missing or wrong CSRF token; reload the page.", code="csrf_failed")


async def require_role(connection: HTTPConnection, principal: Principal, role: str) -> None:
    """Raise unless the caller holds ``role`` now (one short query in a worker thread: a role is
    never cached, so a revoked moderator is refused at once on every instance)."""
    if principal.user is None:
        raise Unauthenticated(SIGN_IN_FIRST, code="unauthenticated")
    if role != scopes.MODERATOR:
        raise ValueError(f"unknown role {role!r}")
    if not await asyncio.to_thread(credentials(connection).is_moderator, principal.user.id):
        raise Forbidden("Moderators only.", code="not_a_moderator")


def door(scope: str, *, signed_in: bool = False, role: str | None = None
         ) -> Callable[[Request], Awaitable[Any]]:
    """The dependency of a route that needs ``scope``; ``signed_in``: refuse anonymous callers;
    ``role``: refuse callers without it (``MODERATE`` always requires ``MODERATOR``)."""
    if scope not in scopes.DOOR_SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    if scope == scopes.MODERATE:
        role, signed_in = scopes.MODERATOR, True

    async def enter(request: Request) -> Identity | None:
        principal = await resolve_principal_async(request, tokens=scope != scopes.PAGE)
        admit(request, principal, scope)
        if role is not None:
            await require_role(request, principal, role)
        await _check_csrf(request, principal, scope)
        if signed_in and principal.user is None:
            raise Unauthenticated(SIGN_IN_FIRST, code="unauthenticated")
        return principal.user

    setattr(enter, SCOPE_ATTRIBUTE, scope)
    setattr(enter, SIGNED_IN_ATTRIBUTE, signed_in)
    setattr(enter, ROLE_ATTRIBUTE, role)
    enter.__name__ = f"door_{scope}{'_signed_in' if signed_in else ''}{f'_{role}' if role else ''}"
    return enter


def declared(scope: str) -> Callable[[], None]:
    """A marker for a socket or stream that admits its caller itself (it must call
    :func:`admit` with this scope when it opens), or for a route that reads no credential of
    its caller at all (OAuth's token and revocation endpoints: the app proves itself by the
    code and its PKCE verifier, or by the token it revokes)."""

    def marker() -> None:
        return None

    setattr(marker, SCOPE_ATTRIBUTE, scope)
    marker.__name__ = f"declared_{scope}"
    return marker


def principal_of(connection: HTTPConnection) -> Principal:
    """The principal a door left on this request (a route without a door has none: a bug)."""
    principal = getattr(connection.state, "principal", None)
    if not isinstance(principal, Principal):
        raise RuntimeError("this route declares no door")
    return principal


def door_scopes(call: Any) -> set[str]:
    """Every scope declared by ``call``'s dependencies (for the route inventory)."""
    found: set[str] = set()
    for dependency in getattr(call, "dependencies", []):
        scope = getattr(dependency.call, SCOPE_ATTRIBUTE, None)
        if scope is not None:
            found.add(scope)
        found |= door_scopes(dependency)
    return found


def door_roles(call: Any) -> set[str]:
    """Every role declared by ``call``'s dependencies (for the route inventory)."""
    found: set[str] = set()
    for dependency in getattr(call, "dependencies", []):
        role = getattr(dependency.call, ROLE_ATTRIBUTE, None)
        if role is not None:
            found.add(role)
        found |= door_roles(dependency)
    return found


def door_needs(call: Any) -> tuple[str, bool] | None:
    """The scope ``call``'s door declares and whether it refuses anonymous callers (for the
    OpenAPI document's security requirements); None for a call with no door."""
    for dependency in getattr(call, "dependencies", []):
        scope = getattr(dependency.call, SCOPE_ATTRIBUTE, None)
        if scope is not None:
            return scope, bool(getattr(dependency.call, SIGNED_IN_ATTRIBUTE, False))
        found = door_needs(dependency)
        if found is not None:
            return found
    return None


# The callers' types, one per scope (routes annotate a parameter with one of these).
Anyone = Annotated[Identity | None, Depends(door(scopes.PUBLIC))]
Reader = Annotated[Identity | None, Depends(door(scopes.READ))]
SignedInReader = Annotated[Identity, Depends(door(scopes.READ, signed_in=True))]
Player = Annotated[Identity, Depends(door(scopes.PLAY, signed_in=True))]
Challenger = Annotated[Identity, Depends(door(scopes.CHALLENGE, signed_in=True))]
BotMaker = Annotated[Identity, Depends(door(scopes.BOT, signed_in=True))]
AccountOwner = Annotated[Identity, Depends(door(scopes.ACCOUNT, signed_in=True))]
Moderator = Annotated[Identity, Depends(door(scopes.MODERATE))]
PublicDoor = Depends(door(scopes.PUBLIC))
PageDoor = Depends(door(scopes.PAGE))
ModeratorPageDoor = Depends(door(scopes.PAGE, role=scopes.MODERATOR))
"""The moderators' pages: a browser session whose person is a moderator (checked each time)."""
