"""the "Confirm moves" setting: ``users.confirm_moves``

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-01 10:00:00

Whether a move waits for a second tap, its preview shown meanwhile: ``always``, ``phones``
(the default) or ``never`` (app/accounts/play_settings.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirm_moves", sa.String(length=8), nullable=False,
                                      server_default="phones"))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("confirm_moves")
