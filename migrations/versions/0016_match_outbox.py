"""match outbox: ``matches.announced_version`` and the index of changes still to announce

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26 10:00:00

A change is committed with its ``version``; once it has reached the bus, ``announced_version``
catches up (app/match/outbox.py). A match whose version is ahead was committed but perhaps never
announced (the process died in between): the relay announces it again. Every stored match counts
as announced; the partial index holds only the matches still to announce.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

UNANNOUNCED = "version > announced_version"


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("announced_version", sa.Integer(), nullable=False,
                                      server_default="-1"))
    op.execute("UPDATE matches SET announced_version = version")
    op.create_index("ix_matches_unannounced", "matches", ["id"],
                    postgresql_where=sa.text(UNANNOUNCED), sqlite_where=sa.text(UNANNOUNCED))


def downgrade() -> None:
    op.drop_index("ix_matches_unannounced", table_name="matches")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("announced_version")
