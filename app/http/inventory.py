"""Every door of an app with the scope it declares: read by the route-inventory test and printed
into docs/security.md (``python scripts/doors.py``), so the docs list what the code does."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute, Mount, WebSocketRoute

from app.http.doors import door_roles, door_scopes

FRAMEWORK_ROUTES = frozenset({"/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect",
                              "/docs-assets", "/static"})
"""FastAPI's own schema and documentation pages and the static files: public by nature."""


@dataclass(frozen=True)
class Door:
    methods: tuple[str, ...]
    path: str
    scopes: frozenset[str]
    roles: frozenset[str] = frozenset()

    @property
    def scope(self) -> str:
        shown = ", ".join(sorted(self.scopes)) or "—"
        return f"{shown} ({', '.join(sorted(self.roles))}s only)" if self.roles else shown


def walk_routes(routes: list[BaseRoute]) -> Iterator[tuple[BaseRoute, str]]:
    """Every route with its full path template, wherever it was included."""
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is not None:  # an included router
            for context in contexts():
                full = context.path or getattr(context.starlette_route, "path", "")
                yield context.original_route, full or getattr(context.original_route, "path", "")
        else:
            yield route, getattr(route, "path", "")


def find_route(app: Any, path: str, method: str) -> BaseRoute | None:
    """The route serving ``method`` at the full ``path`` template, wherever it was included."""
    for route, full in walk_routes(app.routes):
        if full == path and method in getattr(route, "methods", ()):
            return route
    return None


def doors(app: Any) -> list[Door]:
    """Each route's methods (``WS`` for a websocket), full path and declared scopes."""
    found = []
    for route, path in walk_routes(app.routes):
        if isinstance(route, Mount):
            found.append(Door(("MOUNT",), path, frozenset()))
            continue
        methods = ("WS",) if isinstance(route, WebSocketRoute) or not hasattr(
            route, "methods") else tuple(sorted(m for m in route.methods if m != "HEAD"))
        dependant = getattr(route, "dependant", None)
        scopes = frozenset(door_scopes(dependant)) if dependant is not None else frozenset()
        roles = frozenset(door_roles(dependant)) if dependant is not None else frozenset()
        found.append(Door(methods, path, scopes, roles))
    return found


def markdown(app: Any) -> str:
    """The door table of docs/security.md."""
    lines = ["| method | path | scope |", "|---|---|---|"]
    for door in sorted(doors(app), key=lambda d: (d.path, d.methods)):
        if door.path in FRAMEWORK_ROUTES:
            continue
        lines.append(f"| {' '.join(door.methods)} | `{door.path}` | {door.scope} |")
    return "\n".join(lines) + "\n"

