"""arena presence: ``tournament_entries.paused``

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 11:40:00

An arena pairs only the players who are there: one who pressed "pause", or who let
an arena game be aborted by not making its first move, is paused (not paired) until they join
again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.drop_column("paused")
