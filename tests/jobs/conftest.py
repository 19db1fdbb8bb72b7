"""Fixtures of the worker tests that run real processes: a PostgreSQL database and a Redis key
prefix of their own (the shared Redis is only read and written under that prefix)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from tests import servers


@pytest.fixture
def cluster_redis() -> Iterator[tuple[str, str]]:
    """(url, a key prefix of this test's own); the prefix's keys are deleted afterwards."""
    url = servers.require_redis("the worker failover tests")
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    yield url, prefix
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()
