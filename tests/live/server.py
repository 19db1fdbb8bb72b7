"""A live uvicorn process on a free port, for tests that must fire real concurrent requests."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx

from app.kernel.settings import Settings
from tests.live import forked

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30.0
"""How long a test waits for an awaited event before it gives up (a guard against hanging)."""


STARTUP_SECONDS = float(os.environ.get("STEPWELL_TEST_START_SECONDS", "120"))
"""How long a starting server may take to answer: importing the app alone takes tens of seconds
on a machine shared by many processes (a guard against a server that never starts, not a timing)."""


GRACEFUL_SECONDS = 2
"""How long a stopping server waits for open connections: a test's NDJSON streams never end by
themselves, and uvicorn would otherwise wait for them until the test killed it (10 s)."""


def checked_settings(settings: dict[str, str]) -> dict[str, str]:
    """``settings`` as STEPWELL_<NAME> variables; a name that is no setting fails here (the
    app ignores unknown variables, so a misspelt one would silently test the default)."""
    unknown = sorted(set(settings) - set(Settings.model_fields))
    assert not unknown, f"not settings of app/kernel/settings.py: {unknown}"
    return {f"STEPWELL_{name.upper()}": value for name, value in settings.items()}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def live_server(database_url: str, log_dir: Path, *, launch: Callable[[int], list[str]] | None = None,
                strict_shutdown: bool = False, **settings: str) -> Iterator[str]:
    """Serve the app on a free port; ``settings`` become STEPWELL_<NAME> environment variables.

    The server is forked with the app imported (tests/live/forked.py); ``launch(port)`` runs a
    command line of its own instead (e.g. a script that registers a test game first);
    ``strict_shutdown`` fails when the server needs more than SIGTERM to stop."""
    with live_process(database_url, log_dir, launch=launch, strict_shutdown=strict_shutdown,
                      **settings) as (base, _):
        yield base


@contextmanager
def live_process(database_url: str, log_dir: Path, *,
                 launch: Callable[[int], list[str]] | None = None, strict_shutdown: bool = False,
                 **settings: str) -> Iterator[tuple[str, subprocess.Popen[bytes] | forked.ForkedProcess]]:
    """:func:`live_server`, also yielding the process (for tests that signal it themselves).
    Unless a test asks otherwise, the server drains for no grace period when it stops, and
    never sheds sockets to rebalance (a test's few sockets stay where the test put them)."""
    settings = {"drain_grace_seconds": "0", "rebalance_seconds": "0", **settings}
    port = free_port()
    env = {**os.environ, "STEPWELL_DATABASE_URL": database_url, "STEPWELL_SECRET_KEY": "live-tests",
           **checked_settings(settings)}
    env.pop("STEPWELL_REDIS_URL", None) if "redis_url" not in settings else None
    log_path = log_dir / f"server-{port}.log"
    log = log_path.open("w")
    process: subprocess.Popen[bytes] | forked.ForkedProcess
    if launch:
        process = subprocess.Popen(launch(port), env=env, stdout=log, stderr=subprocess.STDOUT,
                                   cwd=ROOT)
    else:
        process = forked.serve([
            "app.main:create_app", "--factory", "--host", "127.0.0.1", "--port", str(port),
            "--no-access-log", "--timeout-graceful-shutdown", str(GRACEFUL_SECONDS)],
            env, ROOT, log_path)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        while True:
            try:
                # a refused connection answers at once; an accepted first request may take
                # seconds on a busy machine, and a short timeout would only send it again
                left = max(1.0, deadline - time.monotonic())
                if httpx.get(f"{base}/api/v1/games", timeout=left).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the live server did not start; see {log.name}")
            time.sleep(0.1)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            if strict_shutdown:
                raise RuntimeError("the live server did not shut down within 10 s of SIGTERM") from None
        finally:
            log.close()


def run_async(make_coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a fresh loop in its own thread (Playwright's sync API
    may have left a running loop on the main thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make_coroutine())).result()


def wait_for(check: Callable[[], Any], seconds: float = WAIT_SECONDS, step: float = 0.1) -> Any:
    """The first true value of ``check()``, polled every ``step``; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the awaited condition did not come true")
        time.sleep(step)
