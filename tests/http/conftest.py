"""Fixtures of the gate's tests: an app whose database cannot be reached."""

from __future__ import annotations

import socket

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens once the probe closes


@pytest.fixture
def no_database() -> TestClient:
    url = f"postgresql+psycopg://127.0.0.1:{_closed_port()}/test?connect_timeout=1"
    return TestClient(create_app(Settings(database_url=url, secret_key="down",
                                          background_jobs="off", bots_enabled=False)))
