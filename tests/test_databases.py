"""A test's copy of the run's template has exactly the schema and rows the migrations make, on
both databases: tests/databases.py may copy instead of migrating only while this holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from app.db.migrate import upgrade
from tests import databases


def _index(index: Any) -> str:
    """An index as text; a partial index's condition by its SQL, not its object's address."""
    options = {key: str(value) for key, value in index.get("dialect_options", {}).items()}
    return repr({**index, "dialect_options": options})


def describe(url: str) -> dict[str, Any]:
    """Every table's columns, keys, indexes and constraints, and its rows."""
    engine = create_engine(url)
    try:
        inspector = inspect(engine)
        tables: dict[str, Any] = {}
        with engine.connect() as connection:
            for table in sorted(inspector.get_table_names()):
                tables[table] = {
                    "columns": [(c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                                for c in inspector.get_columns(table)],
                    "primary key": inspector.get_pk_constraint(table),
                    "foreign keys": sorted(map(repr, inspector.get_foreign_keys(table))),
                    "indexes": sorted(map(_index, inspector.get_indexes(table))),
                    "unique": sorted(map(repr, inspector.get_unique_constraints(table))),
                    "checks": sorted(map(repr, inspector.get_check_constraints(table))),
                    "rows": sorted(map(repr, connection.execute(text(f'select * from "{table}"')))),
                }
        return tables
    finally:
        engine.dispose()


def test_a_sqlite_copy_is_the_migrated_schema(tmp_path: Path) -> None:
    migrated = f"sqlite:///{tmp_path / 'migrated.db'}"
    upgrade(migrated)
    copy = describe(databases.sqlite_database(tmp_path / "copy.db"))
    assert "alembic_version" in copy and len(copy) > 5
    assert copy == describe(migrated)


@pytest.mark.postgres
def test_a_postgres_copy_is_the_migrated_schema(postgres_base_url: str) -> None:
    with databases.postgres_schema(postgres_base_url) as copy_url, \
            databases.postgres_schema(postgres_base_url, migrated=False) as empty_url:
        upgrade(empty_url)
        copy = describe(copy_url)
        assert "alembic_version" in copy and len(copy) > 5
        assert copy == describe(empty_url)
