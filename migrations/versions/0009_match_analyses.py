"""computer analysis of finished matches: match_analyses

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 07:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("runs", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("requested_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_match_analyses_match_id_matches"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["requested_by"], ["users.id"],
                                name=op.f("fk_match_analyses_requested_by_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_analyses")),
    )
    with op.batch_alter_table("match_analyses", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_analyses_status"), ["status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("match_analyses", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_analyses_status"))
    op.drop_table("match_analyses")
