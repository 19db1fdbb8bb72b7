"""the colour theme setting: ``users.theme``

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-02 10:00:00

``system`` (the default: follows the device's light or dark preference), ``light`` or ``dark``
(app/web/theme.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("theme", sa.String(length=8), nullable=False,
                                      server_default="system"))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("theme")
