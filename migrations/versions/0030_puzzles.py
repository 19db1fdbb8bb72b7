"""puzzles: proven positions, their solvers' ratings, rated attempts, the matches mined

Revision ID: 0030
Revises: 0026
Create Date: 2026-12-10 10:00:00

``puzzles`` (app/puzzles): a position (game, options, moves from the start), the side to move,
the whole solution tree, themes and the puzzle's own rating; ``puzzle_ratings`` a person's
rating per game; ``puzzle_attempts`` the first rated attempt per (puzzle, person);
``puzzle_mined_matches`` the finished matches the miner has searched.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("solution", sa.JSON(), nullable=False),
        sa.Column("goal", sa.String(length=10), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("themes", sa.JSON(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=10), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=True),
        sa.Column("position_key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
        sa.UniqueConstraint("position_key", name=op.f("uq_puzzles_position_key")),
    )
    op.create_index("ix_puzzles_game", "puzzles", ["game"])
    op.create_index("ix_puzzles_match_id", "puzzles", ["match_id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_puzzle_ratings_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game", name=op.f("pk_puzzle_ratings")),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"],
                                name=op.f("fk_puzzle_attempts_puzzle_id_puzzles"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_puzzle_attempts_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_attempts")),
        sa.UniqueConstraint("puzzle_id", "user_id", name=op.f("uq_puzzle_attempts_puzzle_id")),
    )
    op.create_index("ix_puzzle_attempts_user_id", "puzzle_attempts", ["user_id"])
    op.create_table(
        "puzzle_mined_matches",
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("found", sa.Integer(), nullable=False),
        sa.Column("mined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name=op.f("fk_puzzle_mined_matches_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_puzzle_mined_matches")),
    )


def downgrade() -> None:
    op.drop_table("puzzle_mined_matches")
    op.drop_index("ix_puzzle_attempts_user_id", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzles_match_id", table_name="puzzles")
    op.drop_index("ix_puzzles_game", table_name="puzzles")
    op.drop_table("puzzles")
