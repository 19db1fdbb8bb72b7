"""the rating history: ``rating_history``, one row per player per finished rated match

Revision ID: 0029
Revises: 0026
Create Date: 2026-12-09 10:00:00

Each row is where a rated match left a player's rating in one game (app/people/history.py draws
it). Rated matches finished before this table carry their change in ``result.rating_changes``
(mu before and after, rounded to a tenth, no sigma): those are copied in, with a null sigma. A
match finished before results carried changes leaves no step.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0026"
branch_labels = None
depends_on = None

BATCH = 500


def _changes(result: Any) -> list[dict[str, Any]]:
    """The stored result's ``rating_changes``."""
    if not isinstance(result, dict):
        return []
    rows = result.get("rating_changes") or []
    return [row for row in rows if isinstance(row, dict)
            and isinstance(row.get("seat"), int) and isinstance(row.get("before"), int | float)
            and isinstance(row.get("after"), int | float)]


def upgrade() -> None:
    history = op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_history_user_id_users")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_history_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
        sa.UniqueConstraint("match_id", "user_id", name=op.f("uq_rating_history_match_id")),
    )
    op.create_index("ix_rating_history_user_game_at", "rating_history",
                    ["user_id", "game", "at"])
    op.create_index(op.f("ix_rating_history_match_id"), "rating_history", ["match_id"])
    _backfill(history)


def _backfill(history: sa.Table) -> None:
    connection = op.get_bind()
    table = sa.table("matches", sa.column("id", sa.String()), sa.column("game", sa.String()),
                     sa.column("result", sa.JSON()), sa.column("finished_at", sa.DateTime()),
                     sa.column("status", sa.String()), sa.column("rated", sa.Boolean()))
    matches = connection.execute(
        sa.select(table.c.id, table.c.game, table.c.result, table.c.finished_at)
        .where(table.c.status == "finished", table.c.rated.is_(True),
               table.c.finished_at.is_not(None))
        .order_by(table.c.finished_at, table.c.id)).all()
    for start in range(0, len(matches), BATCH):
        batch = matches[start:start + BATCH]
        seats: dict[tuple[str, int], int] = {}
        for match_id, seat, user_id in connection.execute(
                sa.text("select match_id, seat, user_id from match_players "
                        "where match_id in :ids").bindparams(sa.bindparam("ids", expanding=True)),
                {"ids": [row.id for row in batch]}):
            seats[(match_id, seat)] = user_id
        rows = []
        for match in batch:
            for change in _changes(match.result):
                user_id = seats.get((match.id, change["seat"]))
                if user_id is not None:
                    rows.append({"user_id": user_id, "game": match.game, "match_id": match.id,
                                 "mu_before": float(change["before"]),
                                 "mu": float(change["after"]), "sigma": None,
                                 "at": match.finished_at})
        if rows:
            connection.execute(history.insert(), rows)


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_history_match_id"), table_name="rating_history")
    op.drop_index("ix_rating_history_user_game_at", table_name="rating_history")
    op.drop_table("rating_history")
