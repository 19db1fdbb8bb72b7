"""OAuth for apps: ``oauth_codes`` (authorization codes, single-use) and ``api_tokens.app``
(the app a token was granted to)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("app", sa.String(100), nullable=True))
    op.create_table(
        "oauth_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(100), nullable=False),
        sa.Column("redirect_uri", sa.String(1000), nullable=False),
        sa.Column("scopes", sa.String(40), nullable=False),
        sa.Column("code_challenge", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_oauth_codes_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_oauth_codes_code_hash")),
    )
    op.create_index("ix_oauth_codes_user_id", "oauth_codes", ["user_id"])
    op.create_index("ix_oauth_codes_expires_at", "oauth_codes", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_oauth_codes_expires_at", table_name="oauth_codes")
    op.drop_index("ix_oauth_codes_user_id", table_name="oauth_codes")
    op.drop_table("oauth_codes")
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.drop_column("app")
