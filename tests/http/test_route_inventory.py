"""Every door of the app declares the scope it needs: the route inventory, read from the app
itself (HTTP routes, websockets, and the match socket that a middleware serves), must have a
scope on each entry. Only FastAPI's own documentation routes and the static files are exempt."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from starlette.routing import Mount

from app.http.doors import door_scopes
from app.main import create_app
from app.settings import Settings

EXEMPT = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/static", "/docs-assets"}
"""FastAPI's OpenAPI document and documentation pages, and the static file mounts."""


def inventory(app: FastAPI) -> Iterator[tuple[str, str, set[str] | None]]:
    """(methods, path, declared scopes) of every route; scopes None: the route has no
    dependency list at all (a plain Starlette route or mount)."""
    for route in app.routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is None:
            yield from _entry(route, route)
            continue
        for context in contexts():
            yield from _entry(context.starlette_route or context, context.original_route)


def _entry(route: Any, original: Any) -> Iterator[tuple[str, str, set[str] | None]]:
    dependant = getattr(route, "dependant", None) or getattr(original, "dependant", None)
    methods = getattr(route, "methods", None)
    if isinstance(route, Mount):
        kind = "MOUNT"
    elif methods:
        kind = ",".join(sorted(methods - {"HEAD"}) or methods)
    else:
        kind = "WS"
    yield kind, route.path, None if dependant is None else door_scopes(dependant)


def test_every_route_declares_its_scope(tmp_path: Any) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'routes.db'}",
                              secret_key="inventory", bots_enabled=False))
    routes = sorted(inventory(app), key=lambda entry: (entry[1], entry[0]))
    table = "\n".join(f"{kind:12} {path:55} {', '.join(sorted(scopes or [])) or '-'}"
                      for kind, path, scopes in routes)
    missing = [(kind, path) for kind, path, scopes in routes
               if not scopes and path not in EXEMPT]
    assert not missing, f"routes without a declared scope: {missing}\n\ninventory:\n{table}"
    assert len(scopes_of(routes, "/api/v1/matches/{match_id}/ws")) == 1, (
        "the match socket (served by MatchSockets) is in the inventory")
    print(f"\n{table}")


def scopes_of(routes: list[tuple[str, str, set[str] | None]], path: str) -> set[str]:
    return {scope for _kind, where, scopes in routes if where == path for scope in scopes or ()}


def test_the_inventory_sees_an_undeclared_route_of_every_kind(tmp_path: Any) -> None:
    from fastapi import APIRouter, WebSocket

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'routes.db'}",
                              secret_key="inventory", bots_enabled=False))
    router = APIRouter(prefix="/extra")

    @router.get("/page")
    def undeclared_page() -> None: ...

    @router.websocket("/ws")
    async def undeclared_socket(websocket: WebSocket) -> None: ...

    @app.post("/bare")
    def undeclared_bare() -> None: ...

    app.include_router(router)
    found = {(kind, path): scopes for kind, path, scopes in inventory(app)}
    for entry in (("GET", "/extra/page"), ("WS", "/extra/ws"), ("POST", "/bare")):
        assert entry in found and not found[entry], entry
