"""follows: who follows whom, and who wants to hear when they start a game

Revision ID: 0027_follows
Revises: 0026
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027_follows"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("follower_id", sa.Integer(), nullable=False),
        sa.Column("followee_id", sa.Integer(), nullable=False),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["follower_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_follows_follower_id_users")),
        sa.ForeignKeyConstraint(["followee_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_follows_followee_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_follows")),
        sa.UniqueConstraint("follower_id", "followee_id", name=op.f("uq_follows_follower_id")),
    )
    op.create_index(op.f("ix_follows_followee_id"), "follows", ["followee_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_follows_followee_id"), table_name="follows")
    op.drop_table("follows")
