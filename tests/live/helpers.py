"""A live server for stream tests (uvicorn in a subprocess on a free port, fresh SQLite file) and
a reader that follows an NDJSON stream in a background thread."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.databases import sqlite_database
from tests.live import server
from tests.live.server import free_port

__all__ = ["StreamReader", "account", "free_port", "guest", "live_server"]


@contextmanager
def live_server(folder: Path, **env: str) -> Iterator[str]:
    """Base URL of a running server on a fresh SQLite file in ``folder`` (``env``: STEPWELL_*
    variables, a STEPWELL_DATABASE_URL among them overriding the file); see tests/live/server.py."""
    settings = {key.removeprefix("STEPWELL_").lower(): value for key, value in env.items()}
    url = settings.pop("database_url", None)
    if url is None:
        url = sqlite_database(folder / "live.db")
    with server.live_server(url, folder, **settings) as base:
        yield base


def guest(base: str, name: str) -> dict[str, str]:
    response = httpx.post(f"{base}/api/v1/guests", json={"name": name})
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def account(base: str, username: str) -> dict[str, str]:
    response = httpx.post(f"{base}/api/v1/accounts",
                          json={"username": username, "password": "correct horse"})
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


class StreamReader:
    """Follows one NDJSON stream; ``next()`` returns the next event (keep-alive lines are
    counted in ``blank_lines`` and skipped)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.lines: queue.Queue[Any] = queue.Queue()
        self.blank_lines = 0
        self.status: int | None = None
        self.content_type = ""
        self.content_encoding: str | None = None
        self.ended = threading.Event()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(url, headers or {}), daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self, url: str, headers: dict[str, str]) -> None:
        try:
            with httpx.Client(timeout=httpx.Timeout(5, read=60)) as client, \
                    client.stream("GET", url, headers=headers) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                self.content_encoding = response.headers.get("content-encoding")
                self._ready.set()
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.strip():
                        self.lines.put(json.loads(line))
                    else:
                        self.blank_lines += 1
        except httpx.HTTPError as error:
            self.lines.put(error)
        finally:
            self._ready.set()
            self.ended.set()

    def next(self, timeout: float = 10) -> dict[str, Any]:
        item = self.lines.get(timeout=timeout)
        if isinstance(item, Exception):
            raise item
        return item  # type: ignore[no-any-return]

    def next_of(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next event of type ``kind``, skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.next(max(0.1, deadline - time.monotonic()))
            if event.get("type") == kind:
                return event

    def close(self) -> None:
        self._stop.set()
