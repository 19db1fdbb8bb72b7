"""Migrated databases for tests: the schema is built once per run and copied for each test.

Running every Alembic migration for each of the suite's hundreds of fresh databases cost minutes
of every run. The first test to need a database runs the real migrations once (a SQLite file, a
PostgreSQL template database); every test then gets its own copy (a file copy,
``CREATE DATABASE … TEMPLATE``), as isolated as a freshly migrated database and with the same
rows the migrations insert. tests/services/test_migrations.py and
tests/services/test_rules_version.py check the migrations themselves.

Each pytest process builds its own templates under names of its own, so several runs may share
one PostgreSQL server; :func:`drop_templates` removes them at the end of the run.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app.db.migrate import upgrade

_sqlite_template: Path | None = None
_postgres_templates: dict[str, str] = {}  # server URL -> template database name


def _administer(server_url: str, statement: str) -> None:
    """Run one statement outside any transaction (CREATE and DROP DATABASE refuse to run in one)."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(statement))
    finally:
        admin.dispose()


def _database_url(server_url: str, name: str) -> str:
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


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


def _postgres_template(server_url: str) -> str:
    name = _postgres_templates.get(server_url)
    if name is None:
        name = f"stepwell_template_{uuid.uuid4().hex[:12]}"
        _administer(server_url, f'create database "{name}"')
        _postgres_templates[server_url] = name  # recorded first, so a failed migration is dropped too
        upgrade(_database_url(server_url, name))
    return name


@contextmanager
def postgres_database(server_url: str) -> Iterator[str]:
    """The URL of a migrated PostgreSQL database of its own (a copy of this run's template),
    dropped afterwards even if something still holds a connection to it."""
    template = _postgres_template(server_url)
    name = f"stepwell_test_{uuid.uuid4().hex[:12]}"
    _administer(server_url, f'create database "{name}" template "{template}"')
    try:
        yield _database_url(server_url, name)
    finally:
        _administer(server_url, f'drop database if exists "{name}" with (force)')


def drop_templates() -> None:
    """Remove this run's templates (the end of the run)."""
    global _sqlite_template
    if _sqlite_template is not None:
        shutil.rmtree(_sqlite_template.parent, ignore_errors=True)
        _sqlite_template = None
    for server_url, name in list(_postgres_templates.items()):
        del _postgres_templates[server_url]
        with contextlib.suppress(Exception):  # a server gone by now holds nothing of ours
            _administer(server_url, f'drop database if exists "{name}" with (force)')
