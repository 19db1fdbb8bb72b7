"""the archive search's index: ``archive_entries`` (one row per seat of a finished match) and
``ix_matches_finished``

Revision ID: 0028
Revises: 0026
Create Date: 2026-12-04 10:00:00

The rows of the matches finished before this revision are written here, a batch at a time
(app/match/archive_index.py computes each seat's outcome as the running code does).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027_follows"
branch_labels = None
depends_on = None

BATCH = 2000
FINISHED = "status = 'finished'"


def _outcome(result: Any, seat: int) -> str:
    winners = (result or {}).get("winners") or []
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def _backfill() -> None:
    connection = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.String), sa.column("game", sa.String),
                       sa.column("rated", sa.Boolean), sa.column("status", sa.String),
                       sa.column("result", sa.JSON), sa.column("finished_at", sa.DateTime),
                       sa.column("updated_at", sa.DateTime))
    players = sa.table("match_players", sa.column("match_id", sa.String),
                       sa.column("seat", sa.Integer), sa.column("user_id", sa.Integer))
    entries = sa.table("archive_entries", sa.column("match_id", sa.String),
                       sa.column("seat", sa.Integer), sa.column("user_id", sa.Integer),
                       sa.column("game", sa.String), sa.column("rated", sa.Boolean),
                       sa.column("outcome", sa.String), sa.column("finished_at", sa.DateTime))
    after = ""
    while True:
        chosen = connection.execute(
            sa.select(matches.c.id, matches.c.game, matches.c.rated, matches.c.result,
                      sa.func.coalesce(matches.c.finished_at, matches.c.updated_at))
            .where(matches.c.status == "finished", matches.c.id > after)
            .order_by(matches.c.id).limit(BATCH)).all()
        if not chosen:
            return
        by_id = {row[0]: row for row in chosen}
        rows = [{"match_id": match_id, "seat": seat, "user_id": user_id,
                 "game": by_id[match_id][1], "rated": bool(by_id[match_id][2]),
                 "outcome": _outcome(by_id[match_id][3], seat),
                 "finished_at": by_id[match_id][4]}
                for match_id, seat, user_id in connection.execute(
                    sa.select(players.c.match_id, players.c.seat, players.c.user_id)
                    .where(players.c.match_id.in_(list(by_id))))]
        if rows:
            connection.execute(sa.insert(entries), rows)
        after = chosen[-1][0]


def upgrade() -> None:
    op.create_table(
        "archive_entries",
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=4), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_archive_entries_match_id_matches"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_archive_entries_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_archive_entries")),
    )
    op.create_index("ix_archive_entries_user_finished", "archive_entries",
                    ["user_id", "finished_at", "match_id"])
    op.create_index("ix_archive_entries_user_game", "archive_entries",
                    ["user_id", "game", "finished_at", "match_id"])
    op.create_index("ix_archive_entries_user_outcome", "archive_entries",
                    ["user_id", "outcome", "finished_at", "match_id"])
    op.create_index("ix_matches_finished", "matches", ["finished_at", "id"],
                    postgresql_where=sa.text(FINISHED), sqlite_where=sa.text(FINISHED))
    _backfill()


def downgrade() -> None:
    op.drop_index("ix_matches_finished", table_name="matches")
    op.drop_table("archive_entries")
