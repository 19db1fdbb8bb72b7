"""playban: ``playban_outcomes`` (how each person ended each rated real-time game) and
``playbans`` (the waits before a next rated game that abandoning games earned)

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "playban_outcomes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("outcome", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_playban_outcomes_user_id_users"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_playban_outcomes_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_playban_outcomes")),
        sa.UniqueConstraint("user_id", "match_id", name=op.f("uq_playban_outcomes_user_id")),
    )
    op.create_index("ix_playban_outcomes_user_id", "playban_outcomes", ["user_id"])
    op.create_table(
        "playbans",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=12), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=False),
        sa.Column("last_outcome_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_playbans_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_playbans")),
    )
    op.create_index("ix_playbans_user_id", "playbans", ["user_id"])
    op.create_index("ix_playbans_ends_at", "playbans", ["ends_at"])


def downgrade() -> None:
    op.drop_index("ix_playbans_ends_at", table_name="playbans")
    op.drop_index("ix_playbans_user_id", table_name="playbans")
    op.drop_table("playbans")
    op.drop_index("ix_playban_outcomes_user_id", table_name="playban_outcomes")
    op.drop_table("playban_outcomes")
