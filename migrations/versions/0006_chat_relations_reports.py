"""match chat, mutes and blocks, chat reports, moderator flag

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 04:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_moderator", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=140), nullable=True),
        sa.Column("phrase", sa.String(length=20), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_chat_messages_match_id_matches")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_chat_messages_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index("ix_chat_messages_match_room", "chat_messages", ["match_id", "room", "id"])
    op.create_index(op.f("ix_chat_messages_user_id"), "chat_messages", ["user_id"])
    op.create_table(
        "user_relations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_user_relations_owner_id_users")),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_user_relations_target_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_relations")),
        sa.UniqueConstraint("owner_id", "target_id", "kind",
                            name=op.f("uq_user_relations_owner_id")),
    )
    op.create_index(op.f("ix_user_relations_owner_id"), "user_relations", ["owner_id"])
    op.create_index(op.f("ix_user_relations_target_id"), "user_relations", ["target_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["chat_messages.id"], ondelete="CASCADE",
                                name=op.f("fk_chat_reports_message_id_chat_messages")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_chat_reports_match_id_matches")),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], ondelete="CASCADE",
                                name=op.f("fk_chat_reports_reporter_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
    )
    op.create_index(op.f("ix_chat_reports_message_id"), "chat_reports", ["message_id"])
    op.create_index(op.f("ix_chat_reports_created_at"), "chat_reports", ["created_at"])


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_table("user_relations")
    op.drop_table("chat_messages")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("is_moderator")
