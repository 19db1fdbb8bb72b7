"""Every error is JSON ``{code, message}`` with a fitting status: never a 500 for bad input.

Every status answered here is declared on every API operation (``ERROR_RESPONSES``), so clients
and schema checkers know them all; a body that cannot even be parsed is 422 like any other
invalid request, and 405 names the allowed methods in ``Allow``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DataError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from app.db.one_hop import as_server_busy, is_busy_error
from app.http.ratelimit import RateLimited
from app.http.schemas import ErrorOut
from app.kernel.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    ServerBusy,
    ServiceError,
    Unauthenticated,
)
from app.kernel.metrics import DATABASE_UNAVAILABLE

log = logging.getLogger(__name__)

STATUS_BY_ERROR: list[tuple[type[ServiceError], int]] = [
    (RateLimited, 429),
    (NotFound, 404),
    (Forbidden, 403),
    (Conflict, 409),
    (Invalid, 422),
    (Unauthenticated, 401),
    (ServerBusy, 503),
]
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description} for status, description in [
        (400, "Refused (a service error without a more specific status)."),
        (401, "No valid credentials: `unauthenticated`, `invalid_token`."),
        (403, "Not allowed: e.g. `not_a_player`, `not_your_turn`, `csrf_failed`."),
        (404, "No such match, seek, game or user."),
        (409, "The state moved on: e.g. `stale_ply`, `match_full`, `seek_closed`."),
        (422, "Invalid request: `invalid_request` (malformed or schema-invalid body) or a "
              "specific code such as `illegal_move`, `invalid_options`."),
        (429, "`rate_limited`: too many requests; `Retry-After` says when to retry."),
        (503, "`server_busy`: saturated; `Retry-After` says when to retry."),
    ]
}
"""Declared on every operation of the app (``install_error_handlers`` adds them app-wide)."""
HTTP_CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 422: "invalid_request"}


def status_of(error: ServiceError) -> int:
    for kind, status in STATUS_BY_ERROR:
        if isinstance(error, kind):
            return status
    return 400


CANDIDATE_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's 405 names only the first
    route's, e.g. GET for a path that also takes POST)."""
    return [method for method in CANDIDATE_METHODS
            if any(isinstance(route, BaseRoute)
                   and route.matches({**request.scope, "method": method})[0] == Match.FULL
                   for route in request.app.router.routes)]


def error_response(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status)


def install_error_handlers(
    app: FastAPI, render_page_error: Callable[[Request, int, str], Response] | None = None
) -> None:
    """JSON errors for /api; pages get a readable HTML page from ``render_page_error``.

    Call before including the routers: the error responses are declared app-wide."""
    app.router.responses = {**ERROR_RESPONSES, **app.router.responses}

    def page_error(request: Request, status: int, message: str) -> Response | None:
        """The HTML error page for a page request; None for the API (it answers JSON)."""
        if render_page_error is None or request.url.path.startswith("/api/"):
            return None
        return render_page_error(request, status, message)

    async def on_service_error(request: Request, error: ServiceError) -> Response:
        status = status_of(error)
        response = page_error(request, status, error.message)
        if response is None:
            response = error_response(status, error.code, error.message, **error.extra)
        retry_after = getattr(error, "retry_after_seconds", None)  # ServerBusy, RateLimited
        if retry_after is not None:
            response.headers["Retry-After"] = str(retry_after)
        return response

    async def on_validation_error(request: Request, error: RequestValidationError) -> Response:
        details = [
            {"loc": list(item.get("loc", ())), "msg": item.get("msg", "")}
            for item in error.errors()
        ]
        message = "; ".join(
            f"{'.'.join(str(p) for p in d['loc'][1:]) or 'body'}: {d['msg']}" for d in details
        ) or "The request is not valid."
        page = page_error(request, 422, message)
        if page is not None:
            return page
        fields = {str(part) for d in details for part in d["loc"]}
        code = "invalid_time_control" if "time_control" in fields else "invalid_request"
        return error_response(422, code, message, errors=details)

    async def on_http_error(request: Request, error: StarletteHTTPException) -> Response:
        status = error.status_code
        message = str(error.detail) if error.detail else "Request failed."
        if status == 400:  # FastAPI's answer to a body it cannot decode (e.g. invalid UTF-8)
            status, message = 422, f"body: {message}"
        response = page_error(request, status, message)
        if response is None:
            response = error_response(status, HTTP_CODES.get(status, "error"), message)
        for name, value in (error.headers or {}).items():
            response.headers[name] = value
        if status == 405:
            response.headers["Allow"] = ", ".join(allowed_methods(request))
        return response

    async def on_data_error(request: Request, error: DataError) -> Response:
        """PostgreSQL refuses NUL in text (SQLite stores it): whatever field let one through,
        the client sent bad text, so it is a 422 on either database, not a 500."""
        if "NUL" not in str(error.orig):
            return await on_unexpected(request, error)
        message = "Text may not contain NUL characters."
        page = page_error(request, 422, message)
        if page is not None:
            return page
        return error_response(422, "invalid_text", message)

    async def on_database_error(request: Request, error: SQLAlchemyError) -> Response:
        """The database away (restarting, unreachable, saturated) is a 503 with Retry-After,
        answered like any refusal so the connection stays open for the retry."""
        if not is_busy_error(error):
            return await on_unexpected(request, error)
        log.warning("database unavailable on %s: %s", request.url.path, error.__class__.__name__)
        DATABASE_UNAVAILABLE.inc()
        return await on_service_error(request, as_server_busy(error))

    async def on_unexpected(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path, exc_info=error)
        return error_response(500, "internal_error", "Something went wrong on our side.")

    # Any: each handler takes the exception class it is registered for.
    handlers: dict[type[Exception], Callable[[Request, Any], Awaitable[Response]]] = {
        ServiceError: on_service_error, RequestValidationError: on_validation_error,
        StarletteHTTPException: on_http_error, DataError: on_data_error,
        SQLAlchemyError: on_database_error, Exception: on_unexpected}
    for kind, handler in handlers.items():
        app.add_exception_handler(kind, handler)
