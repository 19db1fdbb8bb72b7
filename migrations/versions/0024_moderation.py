"""moderation: closed accounts and chat mutes (``users.closed_at``, ``users.chat_muted_until``),
hidden chat lines, resolved reports, and the moderators' log ``moderation_actions``

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("chat_muted_until", sa.DateTime(), nullable=True))
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hidden_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("hidden_by", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(op.f("fk_chat_messages_hidden_by_users"), "users",
                                    ["hidden_by"], ["id"], ondelete="SET NULL")
    with op.batch_alter_table("chat_reports", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resolved_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("resolved_by", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("resolution", sa.String(length=12), nullable=True))
        batch_op.create_foreign_key(op.f("fk_chat_reports_resolved_by_users"), "users",
                                    ["resolved_by"], ["id"], ondelete="SET NULL")
        batch_op.create_index("ix_chat_reports_resolved_at", ["resolved_at"])
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("moderator_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["moderator_id"], ["users.id"],
                                name=op.f("fk_moderation_actions_moderator_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"],
                                name=op.f("fk_moderation_actions_target_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_actions")),
    )
    op.create_index("ix_moderation_actions_target_id", "moderation_actions", ["target_id"])
    op.create_index("ix_moderation_actions_created_at", "moderation_actions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_actions_created_at", table_name="moderation_actions")
    op.drop_index("ix_moderation_actions_target_id", table_name="moderation_actions")
    op.drop_table("moderation_actions")
    with op.batch_alter_table("chat_reports", schema=None) as batch_op:
        batch_op.drop_index("ix_chat_reports_resolved_at")
        batch_op.drop_constraint(op.f("fk_chat_reports_resolved_by_users"), type_="foreignkey")
        batch_op.drop_column("resolution")
        batch_op.drop_column("resolved_by")
        batch_op.drop_column("resolved_at")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("fk_chat_messages_hidden_by_users"), type_="foreignkey")
        batch_op.drop_column("hidden_by")
        batch_op.drop_column("hidden_at")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("chat_muted_until")
        batch_op.drop_column("closed_at")
