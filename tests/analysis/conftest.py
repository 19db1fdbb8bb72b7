"""Fixtures of the analysis tests: one SQLite app shared by a module's tests that need no database
of their own (the board is stateless). Two guests and a started match: tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.databases import sqlite_database

TEST_BUDGET = 100
"""Search iterations per analysed position in tests (the known blunder is proven well within)."""


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = sqlite_database(tmp_path_factory.mktemp("analysis") / "stepwell.db")
    app = create_app(Settings(database_url=url, secret_key="test-secret",
                              analysis_budget=TEST_BUDGET))
    with TestClient(app) as client:
        yield client
