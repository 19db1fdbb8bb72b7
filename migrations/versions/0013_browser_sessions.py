"""server-side browser sessions: ``browser_sessions``

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 07:20:00

A browser's cookie names a row here, so logging out ends every copy of the cookie.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_browser_sessions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_browser_sessions")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_browser_sessions_key_hash")),
    )
    op.create_index(op.f("ix_browser_sessions_user_id"), "browser_sessions", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_browser_sessions_user_id"), table_name="browser_sessions")
    op.drop_table("browser_sessions")
