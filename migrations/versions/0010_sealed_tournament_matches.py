"""sealed tournament matches: ``matches.sealed`` and ``matches.tournament_id``

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 11:00:00

A duplicate round's tables all play one deal: while the round runs, each table is sealed to
everyone not seated at it. ``tournament_id`` names the event a match belongs to, so
``gameStart`` says it whenever the match is read (on a stream's reconnect too).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("sealed", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("tournament_id", sa.String(12), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("tournament_id")
        batch_op.drop_column("sealed")
