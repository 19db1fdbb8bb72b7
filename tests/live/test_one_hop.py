"""Every HTTP route closes its database session inside the endpoint's own worker thread."""

from __future__ import annotations

from fastapi.routing import APIRoute

from app.db.one_hop import OneHopRoute, closes_sessions
from app.kernel.settings import Settings
from app.main import create_app


def _api_routes(routes: list) -> list[APIRoute]:  # type: ignore[type-arg]
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        elif hasattr(route, "original_router"):  # an included router (FastAPI ≥ 0.120)
            found.extend(_api_routes(route.original_router.routes))
    return found


def test_every_route_is_a_one_hop_route(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", secret_key="k"))
    routes = _api_routes(app.router.routes)
    assert len(routes) > 20
    strays = [r.path for r in routes
              if not isinstance(r, OneHopRoute) and not closes_sessions(r.endpoint)
              and r.path not in ("/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect")]
    assert not strays, f"routers must use APIRouter(route_class=OneHopRoute): {strays}"
