"""one rematch per game: matches.rematch_of is unique

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 04:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Earlier races may have left several rematches of one game: keep the first, unlink the rest.
    op.execute("""
        UPDATE matches SET rematch_of = NULL
        WHERE rematch_of IS NOT NULL AND id NOT IN (
            SELECT first_id FROM (
                SELECT MIN(id) AS first_id FROM matches
                WHERE rematch_of IS NOT NULL GROUP BY rematch_of) AS firsts)
    """)
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_matches_rematch_of", ["rematch_of"])


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_constraint("uq_matches_rematch_of", type_="unique")
