"""match seed as text: ``matches.seed`` holds a 128-bit (up to 256-bit) seed

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 09:00:00

New matches draw a 128-bit seed (Town of Stairs deals through a cryptographic generator from rules
version 3 on); no integer column holds that on both SQLite and PostgreSQL, so the seed becomes
decimal text. Stored seeds keep their value ('7' for 7): old matches replay from the same number.
Downgrading works only while every stored seed still fits a BIGINT.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("seed", existing_type=sa.BigInteger(), type_=sa.String(80),
                              existing_nullable=False, postgresql_using="seed::text")


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("seed", existing_type=sa.String(80), type_=sa.BigInteger(),
                              existing_nullable=False, postgresql_using="seed::bigint")
