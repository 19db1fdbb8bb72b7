"""Cursor pagination for the list endpoints that grow: ``?limit=`` and an opaque ``cursor``.

A page is the items after a key in the list's order (keyset pagination: an item that appears
or goes away between two pages never shifts the others). The key of a page's last item travels
as the cursor, base64url of its JSON: opaque to clients, which only hand it back. When there is
more, the answer's ``Link: <…?cursor=…&limit=…>; rel="next"`` (RFC 8288, relative to the
request) is the next page; no ``Link``, no more. Bodies stay the lists they always were.

Lists read whole from the database (they are short) are cut with :func:`page_of`; lists that
grow without bound page in SQL on the same keys (their domains take a :class:`PageRequest`).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import Query, Request, Response

from app.kernel.errors import Invalid

T = TypeVar("T")
Key = tuple[Any, ...]

MAX_LIMIT = 100
CURSOR_MAX_LENGTH = 400

PAGED: dict[int | str, dict[str, Any]] = {200: {"headers": {"Link": {
    "description": "`<url>; rel=\"next\"`: the next page (none on the last page).",
    "schema": {"type": "string"}}}}}
"""The paged routes' OpenAPI ``responses``: the ``Link`` header of their answer."""


@dataclass(frozen=True, slots=True)
class PageRequest:
    """A page asked for: at most ``limit`` items after the key ``after`` (None: the first)."""

    limit: int
    after: Key | None = None


def encode_cursor(key: Key) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(key), separators=(",", ":")).encode()
                                    ).decode().rstrip("=")


def decode_cursor(cursor: str) -> Key:
    """The key in a cursor; 422 ``invalid_cursor`` for anything this module did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key = json.loads(raw)
    except (binascii.Error, ValueError):
        key = None
    if not isinstance(key, list) or not key or not all(
            isinstance(part, str | int | float) and not isinstance(part, bool) for part in key):
        raise Invalid("That cursor is not one of ours: use the Link of the previous page.",
                      code="invalid_cursor")
    return tuple(key)


def paging(default: int = 50) -> Callable[..., PageRequest]:
    """The ``cursor`` and ``limit`` query parameters of a paged route, as a dependency."""

    def page_request(
            cursor: Annotated[str | None, Query(max_length=CURSOR_MAX_LENGTH, description=(
                "Where the page starts: the `cursor` of the previous answer's `Link: rel=\"next\"` "
                "(opaque). Omitted: the first page."))] = None,
            limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description=(
                "Items on the page at most."))] = default) -> PageRequest:
        return PageRequest(limit, decode_cursor(cursor) if cursor else None)

    return page_request


def page_of(items: Sequence[T], key: Callable[[T], Key], page: PageRequest
            ) -> tuple[list[T], Key | None]:
    """The page of ``items`` (in ascending ``key`` order, keys unique) and the next page's key
    (None on the last page). Keys compared with a cursor's must have the same shape."""
    after = page.after
    rest = list(items)
    if after is not None and rest:
        if not _same_shape(after, key(rest[0])):
            raise Invalid("That cursor belongs to another list.", code="invalid_cursor")
        rest = [item for item in items if key(item) > after]
    chosen = rest[:page.limit]
    return chosen, key(chosen[-1]) if len(rest) > page.limit else None


def _same_shape(cursor: Key, key: Key) -> bool:
    """Whether a cursor's key can be compared with this list's keys (numbers with numbers)."""
    return len(cursor) == len(key) and all(
        isinstance(mine, str) == isinstance(theirs, str) for mine, theirs in zip(cursor, key, strict=True))


def moment(iso: str | None) -> int:
    """An ISO time (as payloads carry it, ``Z`` or not) as whole microseconds, for keys: the
    texts themselves do not sort (``…:05Z`` comes after ``…:05.2Z``)."""
    if not iso:
        return 0
    when = datetime.fromisoformat(iso.removesuffix("Z"))
    return round(when.replace(tzinfo=when.tzinfo or UTC).timestamp() * 1_000_000)


def link_next(request: Request, response: Response, next_key: Key | None) -> None:
    """``Link: rel="next"`` on ``response`` when there is a next page."""
    if next_key is None:
        return
    query = request.url.include_query_params(cursor=encode_cursor(next_key)).query
    response.headers["Link"] = f'<{request.url.path}?{query}>; rel="next"'
