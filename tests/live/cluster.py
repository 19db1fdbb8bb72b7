"""A real several-instance topology for tests: web instances (uvicorn processes on free ports),
optional workers (``python -m app.worker``; both forked, tests/live/forked.py), one PostgreSQL
schema and one Redis key prefix of their own. Also small synchronous websocket helpers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.sync.client import ClientConnection, connect

from tests.live import forked
from tests.live.server import ROOT, WAIT_SECONDS, checked_settings, live_server
from tests.live.server import wait_for as wait_for  # re-exported: the cluster tests' helper


class Cluster:
    def __init__(self, database_url: str, redis_url: str, prefix: str, log_dir: Path,
                 **settings: str) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.prefix = prefix
        self.log_dir = log_dir
        self.settings = {"redis_url": redis_url, "redis_prefix": prefix,
                         "rate_limit_prefix": f"{prefix}limits", "rate_limit_scale": "0",
                         **settings}  # every guest comes from one address here
        self.stack = contextlib.ExitStack()
        self.workers: list[forked.ForkedProcess] = []
        self.redis = redis.Redis.from_url(redis_url)

    def web(self, **settings: str) -> str:
        """Start a web instance; returns its base URL."""
        return self.stack.enter_context(live_server(self.database_url, self.log_dir,
                                                    **{**self.settings, **settings}))

    def worker(self, **settings: str) -> forked.ForkedProcess:
        env = {**os.environ, "STEPWELL_DATABASE_URL": self.database_url,
               "STEPWELL_SECRET_KEY": "live-tests",
               **checked_settings({**self.settings, **settings})}
        log = self.log_dir / f"worker-{len(self.workers)}.log"
        log.touch()
        process = forked.work(env, ROOT, log)
        self.workers.append(process)
        return process

    def kill(self, process: forked.ForkedProcess) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def leader_token(self) -> bytes | None:
        return self.redis.get(f"{self.prefix}jobs:leader")

    def connections_by_process(self) -> dict[str, int]:
        """Redis connections per process of this cluster (they are named prefix + instance)."""
        counts: dict[str, int] = {}
        for client in self.redis.client_list():
            name = client.get("name", "")
            if name.startswith(self.prefix):
                counts[name] = counts.get(name, 0) + 1
        return counts

    def close(self) -> None:
        for process in self.workers:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        self.stack.close()
        self.redis.close()


@contextlib.contextmanager
def cluster(database_url: str, redis: tuple[str, str], log_dir: Path,
            **settings: str) -> Iterator[Cluster]:
    made = Cluster(database_url, redis[0], redis[1], log_dir, **settings)
    try:
        yield made
    finally:
        made.close()


# -- clients -------------------------------------------------------------------------------------

def guest(base: str, name: str) -> tuple[dict[str, str], str]:
    """(Authorization headers, token) of a new guest."""
    response = httpx.post(f"{base}/api/v1/guests", json={"name": name}, timeout=10)
    assert response.status_code == 201, response.text
    token = response.json()["token"]
    return {"Authorization": f"Bearer {token}"}, token


def ws_url(base: str, path: str, token: str | None = None) -> str:
    url = base.replace("http://", "ws://") + path
    return f"{url}?token={token}" if token else url


def open_socket(base: str, path: str, token: str | None = None) -> ClientConnection:
    return connect(ws_url(base, path, token), open_timeout=10, legacy=True)


def receive_until(socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool],
                  seconds: float = WAIT_SECONDS) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("the awaited message did not arrive")
        message = json.loads(socket.recv(timeout=left))
        if wanted(message):
            return message
