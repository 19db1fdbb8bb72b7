"""Structured logs: one JSON object a line, each carrying the id of the request it belongs to.

A request keeps the ``X-Request-ID`` its client (or the load balancer) sent when it is a short
token of safe characters, else gets a fresh one; the id goes back in the response header and into
every log record written while the request runs (``request_id``). Log messages never carry
secrets: the code logs ids and kinds of things, never tokens, cookies, seeds or cards.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
from datetime import UTC, datetime

current_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None)
SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
HEADER = "x-request-id"


def request_id_from(sent: str | None) -> str:
    """The client's id if it is a sane token, else a new one (a log line must never be forged)."""
    return sent if sent is not None and SAFE_ID.match(sent) else secrets.token_hex(8)


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        return True


SECRET_IN_TEXT = re.compile(r"(?i)((?:token|access_token|code|password)=)[^&\s\"']+|\bsw_[A-Za-z0-9_-]{8,}")


def _redacted(match: re.Match[str]) -> str:
    return f"{match.group(1)}[redacted]" if match.group(1) else "sw_[redacted]"


class RedactFilter(logging.Filter):
    """Blanks credentials that a message quotes (uvicorn logs a socket's URL with its query
    string, ``?token=...``): no token reaches a log line, whoever wrote it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = SECRET_IN_TEXT.sub(_redacted, message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class JsonFormatter(logging.Formatter):
    """time, level, logger, message, request_id (when in a request) and the exception, if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None)
        if request_id:
            line["request_id"] = request_id
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(log_format: str, level: int = logging.INFO) -> None:
    """Send every logger's records to stderr, as JSON lines or as plain text."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    handler.addFilter(RedactFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(
        "%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
