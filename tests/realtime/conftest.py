"""Fixtures of the cross-instance tests: a PostgreSQL database and a Redis key prefix of their own."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from tests import servers


@pytest.fixture
def cluster_database(postgres_database_url: str) -> str:
    return postgres_database_url


@pytest.fixture
def cluster_redis() -> Iterator[tuple[str, str]]:
    """(url, a key prefix of this test's own); the prefix's keys are deleted afterwards."""
    url = servers.require_redis("the cross-instance tests")
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    yield url, prefix
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()
