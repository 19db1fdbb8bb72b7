"""Conditional GET for reads that stay the same (a finished match, a game record, an export):
an ``ETag`` on the answer, and 304 Not Modified, with no body, when the request's
``If-None-Match`` names it.

The tag is a digest of what the answer says (or, for a stream, of what it will say), so it is
right whatever changed; it is weak (``W/"…"``) because the same answer may travel gzipped. An
answer that depends on who asks says ``Vary: Authorization, Cookie`` and ``Cache-Control:
private, no-cache``: a shared cache never hands it to someone else, and a client revalidates.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from fastapi.encoders import jsonable_encoder
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response

NOT_MODIFIED: dict[int | str, dict[str, Any]] = {304: {
    "description": "Not Modified: the `ETag` given in `If-None-Match` is still the answer's."}}
"""The conditional routes' extra OpenAPI ``responses``."""

PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie"}


def etag_of(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\x00")
    return 'W/"' + base64.urlsafe_b64encode(digest.digest()[:18]).decode() + '"'


def _opaque(tag: str) -> str:
    return tag.strip().removeprefix("W/")


def not_modified(connection: HTTPConnection, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or is ``*``), compared weakly (RFC 9110)."""
    header = connection.headers.get("if-none-match")
    if not header:
        return False
    wanted = _opaque(etag)
    return any(tag.strip() == "*" or _opaque(tag) == wanted for tag in header.split(","))


def json_body(content: Any) -> bytes:
    """``content`` encoded as a route's JSON answer would be."""
    return bytes(JSONResponse(jsonable_encoder(content)).body)


def conditional(connection: HTTPConnection, body: bytes, media_type: str,
                headers: dict[str, str] | None = None) -> Response:
    """``body`` with its ``ETag``, or 304 when the client already has it."""
    etag = etag_of(media_type, body)
    tagged = {**PRIVATE, **(headers or {}), "ETag": etag}
    if not_modified(connection, etag):
        return Response(status_code=304, headers=tagged)
    return Response(body, media_type=media_type, headers=tagged)
