"""email: mail settings per account, password-reset tokens, the mail outbox

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-26 14:30:00

``users.email`` (present since the first schema) is the address; these tables say whether it
is confirmed, hold the reset tokens' hashes and the mails still to send (app/mail/).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "email_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("language", sa.String(5), nullable=False),
        sa.Column("digest", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("digest_sent_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name="fk_email_settings_user_id_users"),
        sa.PrimaryKeyConstraint("user_id", name="pk_email_settings"),
    )
    op.create_table(
        "password_resets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name="fk_password_resets_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_password_resets"),
        sa.UniqueConstraint("token_hash", name="uq_password_resets_token_hash"),
    )
    op.create_index("ix_password_resets_user_id", "password_resets", ["user_id"])
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("language", sa.String(5), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.String(10), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE",
                                name="fk_mail_outbox_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_mail_outbox"),
    )
    op.create_index("ix_mail_outbox_user_id", "mail_outbox", ["user_id"])
    op.create_index("ix_mail_outbox_next_attempt_at", "mail_outbox", ["next_attempt_at"])
    op.create_index("ix_users_email_lower", "users", [sa.text("lower(email)")])


def downgrade() -> None:
    op.drop_index("ix_users_email_lower", table_name="users")
    op.drop_table("mail_outbox")
    op.drop_table("password_resets")
    op.drop_table("email_settings")
