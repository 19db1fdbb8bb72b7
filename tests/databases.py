"""Migrated databases for tests: the schema is built once per run and copied for each test.

Running every Alembic migration for each of the suite's hundreds of fresh databases cost minutes
of every run. The first test to need a database runs the real migrations once, and every test
then gets its own copy, as isolated as a freshly migrated database and holding the same rows the
migrations insert:

- SQLite: the migrated template file is copied.
- PostgreSQL: each test has a schema of its own in the server's ``test`` database, as before. The
  template schema is migrated once, ``pg_dump`` prints it as SQL and is dropped; each copy
  replays that SQL under its own schema name (a tenth of the migrations' time). Without a
  working ``pg_dump`` each schema runs the migrations instead. A copy is not a database of its
  own because a fresh database costs more: its first connections build their catalog caches.

tests/test_databases.py checks that a copy has the freshly migrated schema;
tests/db/test_migrations.py and the seed and rules-version tests check the migrations.
Each pytest process builds its own templates, so several runs may share one server.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
import warnings
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy import create_engine, pool, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from app.db.migrate import upgrade

T = TypeVar("T")
_sqlite_template: Path | None = None
_postgres_scripts: dict[str, str | None] = {}
"""Server URL -> the migrated template schema as SQL (schema name TEMPLATE), None: no pg_dump."""
TEMPLATE = "stepwell_template_schema"


FULL_SERVER_SECONDS = 60.0
"""How long a schema's creation or removal waits for a free connection when the server is full."""


def _patiently(attempt: Callable[[], T]) -> T:
    """``attempt()``, tried again while the server refuses new connections for being full: the
    suite's workers each run live servers with pools of their own, and together they may touch
    the server's limit for a moment. Any other error, or a full server for a minute, is raised."""
    deadline = time.monotonic() + FULL_SERVER_SECONDS
    while True:
        try:
            return attempt()
        except OperationalError as error:
            if "too many clients" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _administer(server_url: str, statement: str) -> None:
    """Run one statement on the server's database in a transaction of its own."""
    engine = create_engine(server_url, poolclass=pool.NullPool)

    def run() -> None:
        with engine.begin() as connection:
            connection.execute(text(statement))

    try:
        _patiently(run)
    finally:
        engine.dispose()


def schema_url(server_url: str, schema: str) -> str:
    """The server's URL with ``schema`` first on the search path (where the app's tables go),
    its connections named after it (so the schema's owner can end them, :func:`postgres_schema`)."""
    return (make_url(server_url).update_query_dict({"options": f"-csearch_path={schema}",
                                                    "application_name": schema})
            .render_as_string(hide_password=False))


def _sqlite_template_file() -> Path:
    global _sqlite_template
    if _sqlite_template is None:
        path = Path(tempfile.mkdtemp(prefix="stepwell-template-")) / "template.db"
        upgrade(f"sqlite:///{path}")
        _sqlite_template = path
    return _sqlite_template


def sqlite_database(path: Path) -> str:
    """The URL of a migrated SQLite database at ``path`` (a copy of this run's template)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_sqlite_template_file(), path)
    return f"sqlite:///{path}"


def _dump(server_url: str, schema: str) -> str:
    """The schema and its rows as SQL, from ``pg_dump`` (its ``\\`` meta-commands left out)."""
    url = make_url(server_url)
    env = {**os.environ, **({"PGPASSWORD": url.password} if url.password else {})}
    command = ["pg_dump", "--schema", schema, "--inserts", "--no-owner", "--no-privileges",
               "--host", url.host or "127.0.0.1", "--port", str(url.port or 5432),
               "--username", url.username or "postgres", "--dbname", url.database or "postgres"]
    dumped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=True)
    return "\n".join(line for line in dumped.stdout.splitlines() if not line.startswith("\\"))


def _postgres_script(server_url: str) -> str | None:
    if server_url not in _postgres_scripts:
        name = f"{TEMPLATE}_{uuid.uuid4().hex[:12]}"
        _administer(server_url, f'create schema "{name}"')
        try:
            upgrade(schema_url(server_url, name))
            script: str | None = _dump(server_url, name).replace(name, TEMPLATE)
        except (OSError, subprocess.SubprocessError) as error:
            warnings.warn(f"no pg_dump ({error}): each PostgreSQL test schema runs the migrations",
                          stacklevel=2)
            script = None
        finally:
            _administer(server_url, f'drop schema "{name}" cascade')
        _postgres_scripts[server_url] = script
    return _postgres_scripts[server_url]


def _replay(server_url: str, script: str) -> None:
    """Several statements at once: psycopg sends them unparametrised, as one transaction."""
    engine = create_engine(server_url, poolclass=pool.NullPool)
    try:
        connection = _patiently(engine.raw_connection)
        try:
            connection.cursor().execute(script)
            connection.commit()
        finally:
            connection.close()
    finally:
        engine.dispose()


@contextmanager
def postgres_schema(server_url: str, *, migrated: bool = True) -> Iterator[str]:
    """The URL of a PostgreSQL schema of its own, migrated (a copy of this run's template) or
    empty (for tests that run migrations themselves); dropped afterwards."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    script = _postgres_script(server_url) if migrated else None
    if script is None:
        _administer(server_url, f'create schema "{name}"')
    try:
        if script is not None:
            _replay(server_url, script.replace(TEMPLATE, name))
        elif migrated:
            upgrade(schema_url(server_url, name))
        yield schema_url(server_url, name)
    finally:
        # An app a test built but never closed keeps its pool open (idle, or idle in a
        # transaction that would hold the drop): its connections end with the schema, so a run
        # never meets the server's connection limit.
        _administer(server_url, "select pg_terminate_backend(pid) from pg_stat_activity"
                                f" where application_name = '{name}' and pid <> pg_backend_pid()")
        _administer(server_url, f'drop schema if exists "{name}" cascade')


def drop_templates() -> None:
    """Remove this run's SQLite template (the end of the run; PostgreSQL keeps none)."""
    global _sqlite_template
    if _sqlite_template is not None:
        shutil.rmtree(_sqlite_template.parent, ignore_errors=True)
        _sqlite_template = None


BOTH_DATABASES_FOLDERS = ("tests/live/", "tests/db/")
"""Where every test runs on both databases: races against live servers, migrations."""


def one_database_each(items: list[pytest.Item]) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """The tests to run and those left out: a test that takes ``database_url`` runs on SQLite or on
    PostgreSQL, chosen by a digest of its name without the database (the same choice in every
    pytest process and every run), so half of them meet each dialect; one marked
    ``both_databases`` or in :data:`BOTH_DATABASES_FOLDERS` runs on both.

    A test of the domains asserts what the app does, which the two databases must not change;
    running each on both doubled a third of the suite's time to find the dialect bugs the tests
    that look at the database (marked) and the other half of the tests find."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        database = callspec.params.get("database_url") if callspec is not None else None
        if (database is None or item.get_closest_marker("both_databases") is not None
                or item.nodeid.startswith(BOTH_DATABASES_FOLDERS)):
            kept.append(item)
            continue
        name, _, ids = item.nodeid.partition("[")
        key = name + "[" + "-".join(part for part in ids.rstrip("]").split("-") if part != database)
        chosen = ("sqlite", "postgres")[zlib.crc32(key.encode()) % 2]
        (kept if database == chosen else dropped).append(item)
    return kept, dropped
