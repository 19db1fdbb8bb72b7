"""The PostgreSQL and Redis servers the suite needs: reach them, start them when they are stopped,
and say what to do when they still do not answer.

A test that needs one asks :func:`require_postgres` or :func:`require_redis`. Under ``CI=true``
an unreachable server fails the test: a green CI run means the PostgreSQL and Redis halves of
the suite ran. Elsewhere it skips, loudly (a reason that starts with ``!!!``).

``STEPWELL_TEST_POSTGRES`` and ``STEPWELL_TEST_REDIS`` point the suite at other servers; only
the machine's own default servers are started (the commands below start those, not others).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
POSTGRES_URL = os.environ.get("STEPWELL_TEST_POSTGRES", DEFAULT_POSTGRES)
REDIS_URL = os.environ.get("STEPWELL_TEST_REDIS", DEFAULT_REDIS)

REDIS_START = ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
               "--save", "", "--appendonly", "no", "--dir", "/tmp", "--logfile", "/tmp/redis-ci.log"]
LOUD = "!!!"
"""A skip reason that starts with this means a part of the suite did not run (see in_ci)."""


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def fail_or_skip(message: str) -> None:
    """Fail under CI, where a missing server must not pass for a green run; else skip loudly."""
    if in_ci():
        pytest.fail(f"{LOUD} {message} (CI=true: a missing server fails the run) {LOUD}",
                    pytrace=False)
    pytest.skip(f"{LOUD} {message} {LOUD}")


def _first_line(error: Exception) -> str:
    return f"{type(error).__name__}: {(str(error).splitlines() or [''])[0]}"


def _postgres_answers() -> str | None:
    from sqlalchemy import create_engine, text

    try:
        engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
        try:
            with engine.connect() as connection:
                connection.execute(text("select 1"))
        finally:
            engine.dispose()
        return None
    except Exception as error:  # any driver or network failure means "not reachable"
        return _first_line(error)


def _start_postgres() -> None:
    versions = sorted(os.listdir("/etc/postgresql")) if Path("/etc/postgresql").is_dir() else []
    if versions and shutil.which("pg_ctlcluster"):
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main", "start"],
                       capture_output=True, timeout=60, check=False)


def _redis_answers() -> str | None:
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
        return None
    except redis.RedisError as error:
        return _first_line(error)


def _start_redis() -> None:
    if shutil.which("redis-server"):
        subprocess.run(REDIS_START, capture_output=True, timeout=30, check=False)


def _reach(answers: Callable[[], str | None], start: Callable[[], None], is_default: bool,
           tries: int) -> str | None:
    """None once the server answers, else why not; the default server is started first."""
    problem = answers()
    if problem is None or not is_default:
        return problem
    start()
    for _ in range(tries):
        problem = answers()
        if problem is None:
            return None
        time.sleep(0.2)
    return problem


@functools.cache
def postgres_problem() -> str | None:
    """Asked once per run: why PostgreSQL does not answer, or None."""
    return _reach(_postgres_answers, _start_postgres, POSTGRES_URL == DEFAULT_POSTGRES, tries=10)


@functools.cache
def redis_problem() -> str | None:
    """Asked once per run: why Redis does not answer, or None."""
    return _reach(_redis_answers, _start_redis, REDIS_URL == DEFAULT_REDIS, tries=20)


def require_postgres(what: str = "the PostgreSQL half of the suite") -> str:
    """The server URL, or the test fails (CI) or skips loudly."""
    problem = postgres_problem()
    if problem:
        fail_or_skip(f"PostgreSQL at {POSTGRES_URL} is not reachable ({problem}); {what} did NOT run")
    return POSTGRES_URL


def require_redis(what: str = "the Redis tests") -> str:
    """The server URL, or the test fails (CI) or skips loudly."""
    problem = redis_problem()
    if problem:
        fail_or_skip(f"Redis at {REDIS_URL} is not reachable ({problem}); {what} did NOT run")
    return REDIS_URL
