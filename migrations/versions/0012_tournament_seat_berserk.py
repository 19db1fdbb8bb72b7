"""arena berserk: ``tournament_seats.berserk``

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23 11:55:00

An arena player may go berserk before their first move (half the clock, no increment); a
berserk win made with at least 7 moves of one's own scores one point more (Lichess).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("berserk", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournament_seats", schema=None) as batch_op:
        batch_op.drop_column("berserk")
