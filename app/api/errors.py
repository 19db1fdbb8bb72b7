"""Every error is JSON ``{code, message}`` with a fitting status: never a 500 for bad input."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.services.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    ServiceError,
    Unauthenticated,
)

log = logging.getLogger(__name__)

STATUS_BY_ERROR: list[tuple[type[ServiceError], int]] = [
    (NotFound, 404),
    (Forbidden, 403),
    (Conflict, 409),
    (Invalid, 422),
    (Unauthenticated, 401),
]
HTTP_CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 422: "invalid_request"}


def status_of(error: ServiceError) -> int:
    for kind, status in STATUS_BY_ERROR:
        if isinstance(error, kind):
            return status
    return 400


def error_response(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status)


def install_error_handlers(app: FastAPI, render_page_error: object = None) -> None:
    """JSON errors for /api; pages get a readable HTML page from ``render_page_error``."""

    def wants_page(request: Request) -> bool:
        return render_page_error is not None and not request.url.path.startswith("/api/")

    async def on_service_error(request: Request, error: ServiceError) -> Response:
        status = status_of(error)
        if wants_page(request):
            return render_page_error(request, status, error.message)  # type: ignore[operator]
        return error_response(status, error.code, error.message)

    async def on_validation_error(request: Request, error: RequestValidationError) -> Response:
        details = [
            {"loc": list(item.get("loc", ())), "msg": item.get("msg", "")}
            for item in error.errors()
        ]
        message = "; ".join(
            f"{'.'.join(str(p) for p in d['loc'][1:]) or 'body'}: {d['msg']}" for d in details
        ) or "The request is not valid."
        if wants_page(request):
            return render_page_error(request, 422, message)  # type: ignore[operator]
        return error_response(422, "invalid_request", message, errors=details)

    async def on_http_error(request: Request, error: StarletteHTTPException) -> Response:
        message = str(error.detail) if error.detail else "Request failed."
        if wants_page(request):
            return render_page_error(request, error.status_code, message)  # type: ignore[operator]
        code = HTTP_CODES.get(error.status_code, "error")
        return error_response(error.status_code, code, message)

    async def on_unexpected(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path, exc_info=error)
        return error_response(500, "internal_error", "Something went wrong on our side.")

    app.add_exception_handler(ServiceError, on_service_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, on_validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, on_http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, on_unexpected)
