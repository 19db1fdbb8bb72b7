"""reserved identities: ``users.username_key`` and ``users.builtin_bot``

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-24 10:00:00

A built-in bot was found by its username, so an account that took ``bot-hard`` was seated as the
hard bot. ``builtin_bot`` binds each level to its bot user; the bots created so far (kind
``bot`` with a ``bot-<level>`` username: nothing else could make one) are bound here.
``username_key`` is the username's skeleton, unique, so two usernames that look the same cannot
both exist; where existing ones already collide, the oldest keeps the key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.accounts.reserved_names import skeleton

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

LEVELS = ("easy", "medium", "hard")


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username_key", sa.String(40), nullable=True))
        batch_op.add_column(sa.Column("builtin_bot", sa.String(10), nullable=True))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("kind", sa.String),
                     sa.column("username", sa.String), sa.column("username_key", sa.String),
                     sa.column("builtin_bot", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    rows = connection.execute(sa.select(users.c.id, users.c.kind, users.c.username)
                              .where(users.c.username.is_not(None)).order_by(users.c.id)).all()
    for user_id, kind, username in rows:
        values: dict[str, str] = {}
        key = skeleton(username)[:40]
        if key not in seen:
            seen.add(key)
            values["username_key"] = key
        level = username[4:] if username.startswith("bot-") else None
        if kind == "bot" and level in LEVELS:
            values["builtin_bot"] = level
        if values:
            connection.execute(sa.update(users).where(users.c.id == user_id).values(**values))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_users_username_key", ["username_key"])
        batch_op.create_unique_constraint("uq_users_builtin_bot", ["builtin_bot"])


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("uq_users_builtin_bot", type_="unique")
        batch_op.drop_constraint("uq_users_username_key", type_="unique")
        batch_op.drop_column("builtin_bot")
        batch_op.drop_column("username_key")
