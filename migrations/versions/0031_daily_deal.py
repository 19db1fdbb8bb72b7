"""the daily duplicate deal and the luck reports: ``daily_deals``, ``daily_entries``,
``match_luck``

Revision ID: 0031
Revises: 0026 (0026_theme)
Create Date: 2026-11-26 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revealed_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_deals")),
        sa.UniqueConstraint("game", "day", "players", name=op.f("uq_daily_deals_game")),
    )
    op.create_index(op.f("ix_daily_deals_revealed_at"), "daily_deals", ["revealed_at"])
    op.create_table(
        "daily_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("counted", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["deal_id"], ["daily_deals.id"], ondelete="CASCADE",
                                name=op.f("fk_daily_entries_deal_id_daily_deals")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_daily_entries_user_id_users")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_daily_entries_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_entries")),
        sa.UniqueConstraint("deal_id", "user_id", name=op.f("uq_daily_entries_deal_id")),
        sa.UniqueConstraint("match_id", name=op.f("uq_daily_entries_match_id")),
    )
    op.create_index(op.f("ix_daily_entries_deal_id"), "daily_entries", ["deal_id"])
    op.create_index(op.f("ix_daily_entries_user_id"), "daily_entries", ["user_id"])
    op.create_table(
        "match_luck",
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_match_luck_match_id_matches")),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_luck")),
    )
    op.create_index(op.f("ix_match_luck_status"), "match_luck", ["status"])


def downgrade() -> None:
    op.drop_index(op.f("ix_match_luck_status"), table_name="match_luck")
    op.drop_table("match_luck")
    op.drop_index(op.f("ix_daily_entries_user_id"), table_name="daily_entries")
    op.drop_index(op.f("ix_daily_entries_deal_id"), table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_index(op.f("ix_daily_deals_revealed_at"), table_name="daily_deals")
    op.drop_table("daily_deals")
