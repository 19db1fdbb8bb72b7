"""A migrated SQLite database session for service-level tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.db.session import make_engine, make_session_factory
from tests.databases import sqlite_database


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    engine = make_engine(sqlite_database(tmp_path / "services.db"))
    with make_session_factory(engine)() as db_session:
        yield db_session
    engine.dispose()
