"""match rules version: the game rules a match is played under, so an old match replays exactly

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 04:20:00

Every match stored before this revision was played under its game's rules version 1 (Town of
Stairs changed its walking rule and one card in version 2), so existing rows get 1.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("rules_version")
