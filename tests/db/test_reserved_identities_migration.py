"""Migration 0013 on a database that already has users: the built-in bots made so far are bound
to their levels, an account that took a bot's username is not, and look-alike usernames already
stored keep working (the oldest holds the skeleton)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from app.db.migrate import alembic_config


def test_existing_bots_are_bound_and_impostors_are_not(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0012")
    engine = create_engine(url)
    with engine.begin() as connection:
        for name, kind, username in [("Bot (easy)", "bot", "bot-easy"),
                                     ("Impostor", "account", "bot-hard"),
                                     ("Paypal", "account", "paypal"),
                                     ("Paypa1", "account", "paypa1")]:
            connection.execute(text(
                "insert into users (name, kind, username, is_moderator, created_at, last_seen_at) "
                "values (:name, :kind, :username, 0, '2026-01-01', '2026-01-01')"),
                {"name": name, "kind": kind, "username": username})
    command.upgrade(alembic_config(url), "head")
    with engine.connect() as connection:
        rows = {row.username: (row.builtin_bot, row.username_key) for row in connection.execute(
            text("select username, builtin_bot, username_key from users"))}
    engine.dispose()
    assert rows["bot-easy"][0] == "easy"
    assert rows["bot-hard"][0] is None
    assert rows["paypal"][1] == "paypal" and rows["paypa1"][1] is None
