"""Every door of the app declares the scope it needs: the route inventory, read from the app
itself (HTTP routes, websockets, and the match socket that a middleware serves), must have a
scope on each entry. Only FastAPI's own documentation routes and the static files are exempt."""

from __future__ import annotations

from typing import Any

from app.http.inventory import FRAMEWORK_ROUTES, Door, doors
from app.kernel.settings import Settings
from app.main import create_app


def _app(tmp_path: Any) -> Any:
    return create_app(Settings(database_url=f"sqlite:///{tmp_path / 'routes.db'}",
                               secret_key="inventory", bots_enabled=False))


def _table(found: list[Door]) -> str:
    return "\n".join(f"{' '.join(d.methods):12} {d.path:55} {d.scope}"
                     for d in sorted(found, key=lambda d: (d.path, d.methods)))


def test_every_route_declares_its_scope(tmp_path: Any) -> None:
    found = doors(_app(tmp_path))
    missing = [(d.methods, d.path) for d in found
               if not d.scopes and d.path not in FRAMEWORK_ROUTES]
    assert not missing, f"routes without a declared scope: {missing}\n\ninventory:\n{_table(found)}"
    match_socket = [d for d in found if d.path == "/api/v1/matches/{match_id}/ws"]
    assert [d.scopes for d in match_socket] == [frozenset({"read"})], (
        "the match socket (served by MatchSockets) is in the inventory")
    assert all(len(d.scopes) == 1 for d in found if d.scopes), _table(found)
    print(f"\n{_table(found)}")


def test_the_inventory_sees_an_undeclared_route_of_every_kind(tmp_path: Any) -> None:
    from fastapi import APIRouter, WebSocket

    app = _app(tmp_path)
    router = APIRouter(prefix="/extra")

    @router.get("/page")
    def undeclared_page() -> None: ...

    @router.websocket("/ws")
    async def undeclared_socket(websocket: WebSocket) -> None: ...

    @app.post("/bare")
    def undeclared_bare() -> None: ...

    app.include_router(router)
    found = {(d.methods, d.path): d.scopes for d in doors(app)}
    for entry in ((("GET",), "/extra/page"), (("WS",), "/extra/ws"), (("POST",), "/bare")):
        assert entry in found and not found[entry], entry
