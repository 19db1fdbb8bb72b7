"""A migrated SQLite database session for service-level tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.db.migrate import upgrade
from app.db.session import make_engine, make_session_factory


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    url = f"sqlite:///{tmp_path / 'services.db'}"
    upgrade(url)
    engine = make_engine(url)
    with make_session_factory(engine)() as db_session:
        yield db_session
    engine.dispose()
