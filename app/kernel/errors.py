"""The one error type of the service layer: a stable ``code`` and a readable ``message``.

The API turns ``code`` into an HTTP status (app/http/errors.py); pages show ``message``.
"""

from __future__ import annotations


class ServiceError(Exception):
    code = "error"

    def __init__(self, message: str, code: str | None = None,
                 extra: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra: dict[str, object] = dict(extra or {})  # more fields of the JSON error body


class NotFound(ServiceError):
    code = "not_found"


class Forbidden(ServiceError):
    code = "forbidden"


class Conflict(ServiceError):
    code = "conflict"


class Invalid(ServiceError):
    code = "invalid"


class Unauthenticated(ServiceError):
    code = "unauthenticated"


class ServerBusy(ServiceError):
    """Saturated: answered at once with 503 and ``Retry-After`` instead of queueing forever."""

    code = "server_busy"
    retry_after_seconds = 1
