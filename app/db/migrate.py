"""Run the Alembic migrations programmatically (used by `make run`, tests and the container)."""

from __future__ import annotations

import sys

from alembic import command
from alembic.config import Config

from app.kernel.settings import PROJECT_ROOT, Settings


def alembic_config(database_url: str) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str) -> None:
    from app.db.session import make_engine

    make_engine(database_url).dispose()  # creates the SQLite folder if needed
    command.upgrade(alembic_config(database_url), "head")


if __name__ == "__main__":
    url = sys.argv[1] if len(sys.argv) > 1 else Settings().database_url
    upgrade(url)
    print(f"database migrated: {url.split('@')[-1]}")
