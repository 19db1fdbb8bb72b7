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


class _Item:
    """What ``one_database_each`` reads of a collected test."""

    def __init__(self, nodeid: str, database: str | None, marked: bool = False) -> None:
        self.nodeid = nodeid
        self.marked = marked
        if database is not None:
            self.callspec = type("CallSpec", (), {"params": {"database_url": database}})()

    def get_closest_marker(self, name: str) -> object | None:
        return object() if self.marked and name == "both_databases" else None


def _pair(nodeid: str, marked: bool = False) -> list[_Item]:
    return [_Item(nodeid.replace("DB", database), database, marked) for database in ("sqlite", "postgres")]


def test_each_test_of_the_domains_runs_on_one_database_and_half_meet_each() -> None:
    pairs = [_pair(f"tests/match/test_x.py::test_{number}[DB]") for number in range(200)]
    pairs += [_pair(f"tests/match/test_y.py::test_z[{number}-DB]") for number in range(200)]
    kept, dropped = databases.one_database_each([item for pair in pairs for item in pair])
    assert all(sum(item in kept for item in pair) == 1 for pair in pairs)
    assert len(dropped) == len(pairs)
    on_postgres = sum(item.nodeid.endswith("postgres]") for item in kept)
    assert 150 < on_postgres < 250, "about half of them on each"
    again, _ = databases.one_database_each([item for pair in pairs for item in pair])
    assert [item.nodeid for item in again] == [item.nodeid for item in kept], "the same choice every run"


def test_marked_tests_races_and_the_data_layer_run_on_both_databases() -> None:
    items = [*_pair("tests/match/test_x.py::test_marked[DB]", marked=True),
             *_pair("tests/live/test_races.py::test_race[DB]"),
             *_pair("tests/db/test_migrations.py::test_up[DB]"),
             _Item("tests/games/test_town.py::test_rules[7]", None)]
    assert databases.one_database_each(items) == (items, [])
