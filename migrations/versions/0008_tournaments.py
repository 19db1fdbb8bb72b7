"""tournaments: Swiss, arena and duplicate Town events, their entrants, rounds, games and seats

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 07:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(),
                  sa.ForeignKey("users.id", name="fk_tournaments_created_by_users",
                                ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(12),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_entries_tournament_id_tournaments",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(),
                  sa.ForeignKey("users.id", name="fk_tournament_entries_user_id_users",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_entries"),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_entries_tournament_id"),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    op.create_index("ix_tournament_entries_user_id", "tournament_entries", ["user_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(12),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_rounds_tournament_id_tournaments",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_rounds"),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_tournament_id"),
    )
    op.create_index("ix_tournament_rounds_tournament_id", "tournament_rounds", ["tournament_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(12),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_games_tournament_id_tournaments",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(12),
                  sa.ForeignKey("matches.id", name="fk_tournament_games_match_id_matches",
                                ondelete="SET NULL"), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_games"),
        sa.UniqueConstraint("match_id", name="uq_tournament_games_match_id"),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])
    op.create_index("ix_tournament_games_status", "tournament_games", ["status"])
    op.create_table(
        "tournament_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(12),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_seats_tournament_id_tournaments",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.Integer(),
                  sa.ForeignKey("tournament_games.id", name="fk_tournament_seats_game_id_tournament_games",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(),
                  sa.ForeignKey("users.id", name="fk_tournament_seats_user_id_users",
                                ondelete="CASCADE"), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("result", sa.Float(), nullable=True),
        sa.Column("points", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_seats"),
        sa.UniqueConstraint("tournament_id", "user_id", "slot", name="uq_tournament_seats_tournament_id"),
    )
    op.create_index("ix_tournament_seats_game_id", "tournament_seats", ["game_id"])
    op.create_index("ix_tournament_seats_user_id", "tournament_seats", ["user_id"])


def downgrade() -> None:
    for table in ("tournament_seats", "tournament_games", "tournament_rounds",
                  "tournament_entries", "tournaments"):
        op.drop_table(table)
