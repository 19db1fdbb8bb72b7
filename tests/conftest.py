"""Shared fixtures: a migrated database (SQLite file, and PostgreSQL where marked), the app, clients.

API and realtime tests run against both databases: ``database_url`` is parametrised; the PostgreSQL
case starts the local server if it is stopped and skips loudly when none answers.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.db.migrate import upgrade
from app.main import create_app
from app.settings import Settings

# Ordinary suites never meet a rate limit; tests/api/test_rate_limits.py sets the real scale.
os.environ.setdefault("STEPWELL_RATE_LIMIT_SCALE", "1000")

POSTGRES_SERVER = os.environ.get("STEPWELL_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _postgres_reachable() -> str | None:
    """None when the server answers, else why not (after trying to start it once)."""
    def probe() -> str | None:
        try:
            engine = create_engine(POSTGRES_SERVER, connect_args={"connect_timeout": 3})
            with engine.connect() as connection:
                connection.execute(text("select 1"))
            engine.dispose()
            return None
        except Exception as error:  # any driver or network failure means "not reachable"
            return f"{type(error).__name__}: {str(error).splitlines()[0]}"

    problem = probe()
    if problem and Path("/etc/postgresql").is_dir():
        versions = sorted(os.listdir("/etc/postgresql"))
        if versions:
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main",
                            "start"], capture_output=True, timeout=60, check=False)
            problem = probe()
    return problem


@pytest.fixture(scope="session")
def postgres_base_url() -> str:
    problem = _postgres_reachable()
    if problem:
        pytest.skip(f"!!! PostgreSQL at {POSTGRES_SERVER} is not reachable ({problem}); "
                    "the PostgreSQL half of the API suite did NOT run !!!")
    return POSTGRES_SERVER


def _fresh_postgres_schema(base_url: str) -> tuple[str, str]:
    schema = f"t_{uuid.uuid4().hex[:10]}"
    engine = create_engine(base_url)
    with engine.begin() as connection:
        connection.execute(text(f'create schema "{schema}"'))
    engine.dispose()
    return schema, f"{base_url}?options=-csearch_path%3D{schema}"


def _drop_postgres_schema(base_url: str, schema: str) -> None:
    engine = create_engine(base_url)
    with engine.begin() as connection:
        connection.execute(text(f'drop schema "{schema}" cascade'))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly migrated database, SQLite file or PostgreSQL schema."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'stepwell.db'}"
        upgrade(url)
        yield url
        return
    base = request.getfixturevalue("postgres_base_url")
    schema, url = _fresh_postgres_schema(base)
    try:
        upgrade(url)
        yield url
    finally:
        _drop_postgres_schema(base, schema)


@pytest.fixture
def app(database_url: str):  # type: ignore[no-untyped-def]
    return create_app(Settings(database_url=database_url, secret_key="test-secret"))


@pytest.fixture
def client(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as test_client:
        yield test_client


def make_guest(client: TestClient, name: str) -> dict[str, str]:
    """Authorization headers of a new guest."""
    response = client.post("/api/v1/guests", json={"name": name})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}
