"""Fixtures of the cross-instance tests: a PostgreSQL schema and a Redis key prefix of their own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from app.db.migrate import upgrade
from tests.conftest import _drop_postgres_schema, _fresh_postgres_schema
from tests.realtime.test_redis_bus import REDIS_URL, _redis_problem


@pytest.fixture
def cluster_database(postgres_base_url: str) -> Iterator[str]:
    schema, url = _fresh_postgres_schema(postgres_base_url)
    try:
        upgrade(url)
        yield url
    finally:
        _drop_postgres_schema(postgres_base_url, schema)


@pytest.fixture
def cluster_redis() -> Iterator[tuple[str, str]]:
    """(url, a key prefix of this test's own); the prefix's keys are deleted afterwards."""
    problem = _redis_problem()
    if problem:
        pytest.skip(f"!!! Redis at {REDIS_URL} is not reachable ({problem}); "
                    "the cross-instance tests did NOT run !!!")
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    yield REDIS_URL, prefix
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()
