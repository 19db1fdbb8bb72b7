"""Shared fixtures: a migrated database (SQLite file, and PostgreSQL where marked), the app, clients.

The tests of the domains take ``database_url``, parametrised over SQLite and PostgreSQL; each runs on
one of the two, half of them on each (``databases.one_database_each``), and those where the database
itself is under test (races, the data layer, queries that differ by dialect; marked
``both_databases``, or in tests/live and tests/db) on both. ``STEPWELL_TESTS_BOTH_DATABASES=1`` runs
every one on both. Each test's database is a copy of one migrated per run (tests/databases.py).
The servers are reached through tests/servers.py: started if stopped, and under ``CI=true`` a test
that cannot reach one fails; so does any other test that skips loudly there (a reason starting
with ``!!!``), because a green CI run must mean the whole suite ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.accounts import service as account_service
from app.db.session import make_engine, make_session_factory
from app.kernel.settings import Settings
from app.main import create_app
from tests import databases, scheduling, servers

# Ordinary suites never meet a rate limit; tests/http/test_rate_limits.py sets the real scale.
os.environ.setdefault("STEPWELL_RATE_LIMIT_SCALE", "1000")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Under CI a loud skip (a part of the suite that did not run) is reported as a failure."""
    report: pytest.TestReport = yield
    if report.skipped and servers.in_ci() and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if reason.startswith(servers.LOUD):
            report.outcome = "failed"
            report.longrepr = f"{reason}\n(CI=true: a loud skip fails the run)"
    return report


OWN_PROCESS = "STEPWELL_TEST_OWN_PROCESS"


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A test marked ``own_process`` runs in a pytest process of its own: tests that walk the
    whole heap (``gc.get_objects()``, full collections) cost a minute in a process that has run
    hundreds of tests before them, and a second in a fresh one."""
    if pyfuncitem.get_closest_marker("own_process") is None or os.environ.get(OWN_PROCESS):
        return None
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q",
         "--no-header", "-o", "addopts=", pyfuncitem.nodeid],
        env={**os.environ, OWN_PROCESS: "1"}, capture_output=True, text=True, timeout=600,
        cwd=pyfuncitem.config.rootpath)
    if run.returncode != 0:
        pytest.fail(f"in its own process:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}", pytrace=False)
    return True


def pytest_sessionfinish(session: pytest.Session) -> None:
    databases.drop_templates()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("STEPWELL_TESTS_BOTH_DATABASES") != "1":
        kept, dropped = databases.one_database_each(items)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    scheduling.order_long_first(items)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, absent under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` as tests/scheduling.py shares the files; other modes as xdist's."""
    return scheduling.make_scheduler(config, log) if config.getvalue("dist") == "loadfile" else None


CHEAP_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""argon2 at its cheapest: the same hashing and verifying code, a hundredth of the time. The
real parameters cost most of a second per sign-up or login on a loaded machine, and the suite
signs up and logs in hundreds of times."""


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes() -> Iterator[None]:
    real = account_service.HASHER
    account_service.HASHER = CHEAP_HASHER
    yield
    account_service.HASHER = real


@pytest.fixture(scope="session")
def postgres_base_url() -> str:
    """The PostgreSQL server's URL (its ``test`` database), for tests that need the server."""
    return servers.require_postgres()


@pytest.fixture
def postgres_database_url(postgres_base_url: str) -> Iterator[str]:
    """A migrated PostgreSQL database of this test's own (a schema in the server's database)."""
    with databases.postgres_schema(postgres_base_url) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A freshly migrated database of this test's own, SQLite file or PostgreSQL."""
    if request.param == "sqlite":
        return databases.sqlite_database(tmp_path / "stepwell.db")
    return str(request.getfixturevalue("postgres_database_url"))


@pytest.fixture(scope="module",
                params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def module_database_url(request: pytest.FixtureRequest,
                        tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database shared by one module's tests, SQLite file or PostgreSQL: for tests
    that start a server of their own and never meet each other's rows."""
    if request.param == "sqlite":
        yield databases.sqlite_database(tmp_path_factory.mktemp("module") / "stepwell.db")
    else:
        with databases.postgres_schema(request.getfixturevalue("postgres_base_url")) as url:
            yield url


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


# Fixtures shared by the domains' tests: two guests, a started match, a service session, and the
# cross-instance tests' database and Redis prefix.


@pytest.fixture
def alice(client: TestClient) -> dict[str, str]:
    return make_guest(client, "Alice")


@pytest.fixture
def bob(client: TestClient) -> dict[str, str]:
    return make_guest(client, "Bob")


def start_match(client: TestClient, first: dict[str, str], second: dict[str, str],
                game: str = "stairs", **body: Any) -> dict[str, Any]:
    created = client.post("/api/v1/matches", json={"game": game, **body}, headers=first)
    assert created.status_code == 201, created.text
    joined = client.post(f"/api/v1/matches/{created.json()['id']}/join", headers=second)
    assert joined.status_code == 200, joined.text
    return joined.json()  # type: ignore[no-any-return]


def start_table(client: TestClient, game: str, players: int) -> tuple[str, list[dict[str, str]]]:
    """A started match of ``game`` with ``players`` new guests in seat order: its id and the
    seats' headers."""
    seats = [make_guest(client, f"P{n}") for n in range(players)]
    created = client.post("/api/v1/matches", json={"game": game, "players": players, "seat": 0},
                          headers=seats[0])
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    for seat, headers in enumerate(seats[1:], start=1):
        joined = client.post(f"/api/v1/matches/{match_id}/join", json={"seat": seat},
                             headers=headers)
        assert joined.status_code == 200, joined.text
    return match_id, seats


@pytest.fixture
def match(client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> dict[str, Any]:
    """A started Stairs match: Alice in seat 0 (light, to move), Bob in seat 1."""
    return start_match(client, alice, bob)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """A session on a migrated SQLite database, for tests below the HTTP layer."""
    engine = make_engine(databases.sqlite_database(tmp_path / "services.db"))
    with make_session_factory(engine)() as db_session:
        yield db_session
    engine.dispose()


@pytest.fixture
def cluster_database(postgres_database_url: str) -> str:
    """The cross-instance tests' PostgreSQL database."""
    return postgres_database_url


@contextmanager
def _redis_prefix() -> Iterator[tuple[str, str]]:
    url = servers.require_redis("the cross-instance tests")
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    yield url, prefix
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def cluster_redis() -> Iterator[tuple[str, str]]:
    """(url, a key prefix of this test's own); the prefix's keys are deleted afterwards."""
    with _redis_prefix() as made:
        yield made


@pytest.fixture(scope="module")
def module_cluster_database(postgres_base_url: str) -> Iterator[str]:
    """A PostgreSQL database shared by one module's cross-instance tests (a cluster of its own
    that several tests use: each works on rows of its own)."""
    with databases.postgres_schema(postgres_base_url) as url:
        yield url


@pytest.fixture(scope="module")
def module_cluster_redis() -> Iterator[tuple[str, str]]:
    """:func:`cluster_redis` for one module's tests together."""
    with _redis_prefix() as made:
        yield made
