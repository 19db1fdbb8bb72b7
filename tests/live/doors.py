"""Helpers for tests of the live doors against real servers: personal tokens, a browser's session
cookie, and watching a websocket or an NDJSON stream end."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

SESSION_COOKIE = "stepwell_session"


def personal_token(base: str, owner: dict[str, str], scopes: list[str],
                   **extra: object) -> tuple[int, str]:
    """(id, secret) of a new personal token of ``owner`` (an account's headers)."""
    response = httpx.post(f"{base}/api/v1/tokens", headers=owner,
                          json={"description": "live doors", "scopes": scopes, **extra})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def revoke(base: str, owner: dict[str, str], token_id: int) -> float:
    """Revoke the token; returns the moment (``time.monotonic``) the request was sent."""
    sent = time.monotonic()
    response = httpx.delete(f"{base}/api/v1/tokens/{token_id}", headers=owner)
    assert response.status_code == 204, response.text
    return sent


class Browser:
    """A visitor's browser: a server-side session behind the signed cookie, and its CSRF token."""

    def __init__(self, base: str, name: str | None = None) -> None:
        """``name``: become a guest of that name at once."""
        self.base = base
        self.client = httpx.Client(base_url=base, timeout=10)
        if name is not None:
            self.post_form("/guest", name=name)
            assert self.cookie, "signing in as a guest sets the session cookie"

    def log_in(self, username: str, password: str = "correct horse") -> None:
        self.post_form("/login", username=username, password=password)
        assert self.cookie, "logging in sets the session cookie"

    @property
    def cookie(self) -> str | None:
        return self.client.cookies.get(SESSION_COOKIE)

    def csrf(self) -> str:
        page = self.client.get("/").text
        found = re.search(r'name="csrf-token" content="([^"]+)"', page) or re.search(
            r'name="csrf" value="([^"]+)"', page)
        assert found, "the page embeds a CSRF token"
        return found.group(1)

    def post_form(self, path: str, **fields: str) -> float:
        """Post a form as the page does; returns the moment it was sent."""
        data = {"csrf": self.csrf(), **fields}
        sent = time.monotonic()
        response = self.client.post(path, data=data)
        assert response.status_code in (200, 303), response.text
        return sent

    def socket(self, path: str, base: str | None = None) -> ClientConnection:
        """A websocket sent with this browser's cookie and its own page's Origin."""
        target = base or self.base
        return connect(target.replace("http://", "ws://") + path, open_timeout=10,
                       origin=target, additional_headers={
                           "Cookie": f"{SESSION_COOKIE}={self.cookie}"})  # type: ignore[arg-type]

    def close(self) -> None:
        self.client.close()


def socket(base: str, path: str, token: str | None = None,
           origin: str | None = None) -> ClientConnection:
    url = base.replace("http://", "ws://") + path
    if token is not None:
        url += ("&" if "?" in url else "?") + f"token={token}"
    return connect(url, open_timeout=10, origin=origin)  # type: ignore[arg-type]


def first_message(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=timeout))  # type: ignore[no-any-return]


@dataclass
class Ending:
    """How a connection ended: after how many seconds, with which close code, and the last
    message before it."""

    seconds: float
    code: int | None
    last: dict[str, Any] | None


ENDS_WITHIN = 15.0
"""A generous deadline for a connection to end: how fast it ends is measured, not asserted."""


def socket_ends(ws: ClientConnection, since: float, within: float = ENDS_WITHIN) -> Ending:
    """Read until the server closes ``ws``; fails if it is still open ``within`` seconds after
    ``since`` (a ``time.monotonic`` moment)."""
    last = None
    while True:
        left = since + within - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the socket was still open {within} s later")
        try:
            last = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            return Ending(time.monotonic() - since, code, last)


def stream_ends(reader: Any, since: float, within: float = ENDS_WITHIN) -> float:
    """Seconds until the NDJSON stream of ``reader`` (tests.live.helpers.StreamReader) ended."""
    assert reader.ended.wait(max(0.0, since + within - time.monotonic())), (
        f"the stream was still open {within} s later")
    return time.monotonic() - since
