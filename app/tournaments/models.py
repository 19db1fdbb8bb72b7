"""Tournament tables: the event, its entrants, its rounds, its games and who sat where.

Two guards live in the database so two schedulers (a restart, a second leader) can never pair
anyone twice: a tournament's ``version`` is bumped by a conditional update before any pairing
is written, and ``tournament_seats`` is unique per (tournament, user, slot), the slot being the
round (Swiss, duplicate) or the player's n-th game (arena).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.json_shapes import StoredTimeControl
from app.db.models import Base, User, utcnow


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(10))  # swiss | arena | duplicate
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    time_control: Mapped[StoredTimeControl | None] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    rounds: Mapped[int | None] = mapped_column(Integer)  # swiss, duplicate
    minutes: Mapped[int | None] = mapped_column(Integer)  # arena: length of the window
    starts_at: Mapped[datetime] = mapped_column(index=True)
    ends_at: Mapped[datetime | None]  # arena: starts_at + minutes; others: when they finished
    status: Mapped[str] = mapped_column(String(10), index=True, default="upcoming")
    # upcoming | running | finished
    round: Mapped[int] = mapped_column(Integer, default=0)  # the round in play (0 before)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    creator: Mapped[User | None] = relationship(lazy="joined")


class TournamentEntry(Base):
    """A player in a tournament; ``withdrawn`` players keep their games but are paired no more;
    ``paused`` arena players (they pressed pause, or did not start their last game) are not
    paired until they join again."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    rating: Mapped[float] = mapped_column(Float, default=0.0)  # at entry: first-round order
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship(lazy="joined")


class TournamentRound(Base):
    """A round of a Swiss or duplicate event; ``deal`` is duplicate Town's secret deal."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    number: Mapped[int] = mapped_column(Integer)
    deal: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]


class TournamentGame(Base):
    """One board or table: a match (None for a bye) and its state in the tournament."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                               index=True)
    round: Mapped[int] = mapped_column(Integer, default=0)  # 0 in an arena
    board: Mapped[int] = mapped_column(Integer, default=0)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"),
                                                 unique=True)
    status: Mapped[str] = mapped_column(String(10), default="playing", index=True)
    # playing | finished | bye | void (an arena game that counts for nobody: aborted, or still
    # running when the arena ended)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    seats: Mapped[list[TournamentSeat]] = relationship(
        order_by="TournamentSeat.seat", cascade="all, delete-orphan", lazy="selectin")


class TournamentSeat(Base):
    """Who played a tournament game in which seat, and what it earned."""

    __tablename__ = "tournament_seats"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", "slot"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("tournament_games.id", ondelete="CASCADE"),
                                         index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    slot: Mapped[int] = mapped_column(Integer)  # the round, or the n-th arena game
    seat: Mapped[int | None] = mapped_column(Integer)  # None for a bye
    result: Mapped[float | None] = mapped_column(Float)  # 1 win, 0.5 draw, 0 loss (2 players)
    points: Mapped[float | None] = mapped_column(Float)  # what the game adds to the standings
    berserk: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # arena: half the clock, no increment; a win with 7+ own moves scores a point more
