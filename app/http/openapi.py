"""The served OpenAPI document, completed for client generators and linters.

FastAPI writes the document from the routes; this adds what it cannot know:

- security: the bearer token and the browser session as schemes, and on every operation the
  requirement its door declares (:func:`app.http.doors.door_needs`): the scope a personal token
  needs (``account``: a full-access token only, never a personal one), and ``{}`` first where
  anonymous callers pass too. Derived from the doors, so no route repeats it;
- ``operationId``: the route function's name (``play_move``), what generators name calls after;
- ``servers``: this server, so relative paths resolve;
- NDJSON streams: a route declares its lines with :func:`ndjson_response` and each line's schema
  is the model it names (a discriminated union of the stream's messages);
- parts: functions a domain hands to :func:`install_openapi` that complete the document further
  (the games' options and views, from the games' own folders).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app.http import scopes
from app.http.doors import door_needs
from app.http.inventory import walk_routes
from app.http.schemas import ErrorOut

NDJSON = "application/x-ndjson"
BEARER = "bearer"
SESSION = "session"
OAUTH = "oauth"
"""The OAuth scheme's name; the accounts domain, which serves OAuth, describes the scheme."""
DocumentPart = Callable[[dict[str, Any]], None]
"""Completes the document in place (called once, when it is first built)."""

BEARER_DESCRIPTION = (
    "`Authorization: Bearer <token>`. A guest's token (`POST /api/v1/guests`) and the token "
    "`POST /api/v1/login` returns have full access; a personal API token has the scopes it was "
    "given (`read`, `play`, `challenge`, `bot`). Each operation lists the scope it needs; "
    "`account` means a full-access token (a personal token never passes); `moderate` a "
    "moderator's full-access token.")
SESSION_DESCRIPTION = (
    "The browser's session cookie (full access). Writes made with it also need the page's CSRF "
    "token in `X-CSRF-Token`.")


def ndjson_response(items: type[BaseModel], description: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that answers an NDJSON stream: one JSON object per line,
    each an ``items`` (a model, or a RootModel of a discriminated union of message models);
    empty lines keep the connection open. Declare the route with ``response_class`` a
    ``StreamingResponse``."""
    return {200: {"model": items, "description": description, "content": {NDJSON: {}}}}


def security_requirement(scope: str, signed_in: bool) -> list[dict[str, list[str]]]:
    """The requirement of an operation whose door needs ``scope`` (``signed_in``: anonymous
    callers are refused)."""
    if scope == scopes.PAGE:
        return [{SESSION: []}]
    roles = [] if scope == scopes.PUBLIC else [scope]
    found: list[dict[str, list[str]]] = [{BEARER: roles}, {SESSION: []}]
    if scope in scopes.TOKEN_SCOPES:  # an OAuth token is a scoped token
        found.insert(1, {OAUTH: roles})
    if not signed_in:
        found.insert(0, {})
    return found


def _add_security(app: FastAPI, doc: dict[str, Any], session_cookie: str) -> None:
    """The security schemes, and on each operation its door's requirement and an
    ``operationId`` named after its function (``play_move``: a generated client's name)."""
    doc.setdefault("components", {})["securitySchemes"] = {
        BEARER: {"type": "http", "scheme": "bearer", "description": BEARER_DESCRIPTION},
        SESSION: {"type": "apiKey", "in": "cookie", "name": session_cookie,
                  "description": SESSION_DESCRIPTION},
    }
    paths = doc.get("paths", {})
    routes = [(route, path) for route, path in walk_routes(app.routes)
              if isinstance(route, APIRoute) and route.include_in_schema]
    names = Counter(route.name for route, _ in routes)
    for route, path in routes:
        needs = door_needs(route.dependant)
        methods = sorted(route.methods or ())
        for method in methods:
            operation = paths.get(path, {}).get(method.lower())
            if operation is None:
                continue
            if needs is not None:
                operation["security"] = security_requirement(*needs)
            single = names[route.name] == 1 and len(methods) == 1
            operation["operationId"] = route.name if single else f"{route.name}_{method.lower()}"


def _stream_items(doc: dict[str, Any]) -> None:
    """A response declared by :func:`ndjson_response`: FastAPI put the model under JSON."""
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                if NDJSON in content and not content[NDJSON].get("schema") \
                        and "application/json" in content:
                    content[NDJSON]["schema"] = content.pop("application/json")["schema"]


def _error_bodies(doc: dict[str, Any]) -> None:
    """Every 4xx and 5xx answer of the API is ``ErrorOut`` (the handlers in app/http/errors.py
    answer nothing else), including those an operation declares with a description only."""
    ref = {"$ref": f"#/components/schemas/{ErrorOut.__name__}"}
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                if str(status)[0] in "45" and not response.get("content"):
                    response["content"] = {"application/json": {"schema": dict(ref)}}


def install_openapi(app: FastAPI, *, session_cookie: str,
                    parts: Sequence[DocumentPart] = ()) -> None:
    """Serve the completed document at ``app.openapi_url`` (built once, on first request)."""
    build = app.openapi
    app.swagger_ui_parameters = {**(app.swagger_ui_parameters or {}),
                                 "persistAuthorization": True}

    def completed() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = build()
        doc["servers"] = doc.get("servers") or [{"url": "/", "description": "This server."}]
        _add_security(app, doc, session_cookie)
        _stream_items(doc)
        _error_bodies(doc)
        for part in parts:
            part(doc)
        app.openapi_schema = doc
        return doc

    app.openapi = completed  # type: ignore[method-assign]
