"""vacation and conditional moves: ``users.vacation_*`` and ``match_conditionals``

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26 14:30:00

A person on vacation has ``vacation_since`` set and ``vacation_ends_at`` (when the year's
allowance runs out); ``vacation_used_ms`` counts the time used in ``vacation_year``.
``match_conditionals`` holds one seat's private conditional moves of a correspondence match.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("vacation_since", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("vacation_ends_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("vacation_year", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("vacation_used_ms", sa.BigInteger(), nullable=False,
                                      server_default="0"))
        batch_op.create_index("ix_users_vacation_since", ["vacation_since"])
    op.create_table(
        "match_conditionals",
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("base_ply", sa.Integer(), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_match_conditionals_match_id_matches"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_match_conditionals_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_conditionals")),
    )
    op.create_index("ix_match_conditionals_user_id", "match_conditionals", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_match_conditionals_user_id", table_name="match_conditionals")
    op.drop_table("match_conditionals")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index("ix_users_vacation_since")
        batch_op.drop_column("vacation_used_ms")
        batch_op.drop_column("vacation_year")
        batch_op.drop_column("vacation_ends_at")
        batch_op.drop_column("vacation_since")
