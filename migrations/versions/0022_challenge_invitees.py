"""challenges to several players and declines with a reason: ``seeks.invitees``,
``seeks.decline_reason`` and ``seeks.declined_by``

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27 10:00:00

A challenge names its invited users in ``invitees`` (its first one is ``target_id``, as before);
a challenge made before this revision has none and reads as an invitation to ``target_id`` alone.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seeks", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invitees", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("decline_reason", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("declined_by", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_seeks_declined_by_users", "users", ["declined_by"], ["id"],
                                    ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("seeks", schema=None) as batch_op:
        batch_op.drop_constraint("fk_seeks_declined_by_users", type_="foreignkey")
        batch_op.drop_column("declined_by")
        batch_op.drop_column("decline_reason")
        batch_op.drop_column("invitees")
