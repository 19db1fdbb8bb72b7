"""Tables only: users (guests, accounts, bots), API tokens, matches, seats and the move log."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from app.kernel import timesource

MAX_ROW_ID = 2**31 - 1
"""The largest id an ``Integer`` primary key holds on every supported database."""

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return timesource.now()


def _start_rules_version(context: Any) -> int:
    """A new match is played under the rules version of the state it starts from (a game's
    ``rules_version``; a snapshot without one is version 1), so every way of creating a match
    records it without having to remember to."""
    snapshot = context.get_current_parameters().get("snapshot") or {}
    return int(snapshot.get("rules_version", 1))


class SeedText(TypeDecorator[int]):
    """A match's seed: a whole number of up to 256 bits, stored as decimal text because no
    integer column holds 128 bits on both SQLite and PostgreSQL. Python code sees an ``int``."""

    impl = String(80)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> str | None:
        return None if value is None else str(int(value))

    def process_result_value(self, value: Any, dialect: Any) -> int | None:
        return None if value is None else int(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar = {dict[str, Any]: JSON, list[Any]: JSON}
    if TYPE_CHECKING:
        # Each model maps one Table (SQLAlchemy types it as any FromClause), so Core statements
        # (insert/update/delete) take ``Model.__table__``.
        __table__: ClassVar[Table]


class User(Base):
    """A person (guest or account) or a bot. Guests have no password; an account later adds one."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(10), default="guest")  # guest | account | bot
    username: Mapped[str | None] = mapped_column(String(40), unique=True)  # accounts only
    # How the username looks (app/accounts/reserved_names.py): two look-alikes cannot coexist.
    username_key: Mapped[str | None] = mapped_column(String(40), unique=True)
    # A built-in bot's level: its seats are bound to this user by id, never found by name.
    builtin_bot: Mapped[str | None] = mapped_column(String(10), unique=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str | None] = mapped_column(String(200))
    is_moderator: Mapped[bool] = mapped_column(Boolean, default=False)  # sees chat reports
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Base):
    """A bearer token; only its SHA-256 is stored, so a database leak gives no usable token."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(60), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    scopes: Mapped[str | None] = mapped_column(String(40))  # personal tokens; NULL = full access
    expires_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class BrowserSession(Base):
    """A signed-in browser: the cookie holds a random key, the server keeps its SHA-256, so
    logging out (or out everywhere) deletes the row and every copy of the cookie stops working."""

    __tablename__ = "browser_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)


UNANNOUNCED = "version > announced_version"
"""A match whose latest change has not been announced yet (the outbox's condition)."""


class Match(Base):
    """One game: its options and seed, the engine snapshot after ``ply`` moves, and its result."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(SeedText)  # secret until the record may show it
    num_seats: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), index=True)  # waiting|active|finished|aborted
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # remaining ms per seat, turn start
    deadline_at: Mapped[datetime | None] = mapped_column(index=True)  # when the mover flags
    offers: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # pending draw/takeback/… offers
    eliminated: Mapped[list[Any]] = mapped_column(JSON, default=list)  # seats out, in order
    version: Mapped[int] = mapped_column(Integer, default=0)  # bumped by every change
    # The last version whose change reached the bus (app/match/outbox.py): a newer ``version``
    # is a change still to announce. A new match (version 0) starts unannounced.
    announced_version: Mapped[int] = mapped_column(Integer, default=-1, server_default="-1")
    rematch_of: Mapped[str | None] = mapped_column(String(12), unique=True)  # one rematch a game
    # Sealed: only its seated players may see it (a duplicate round's table, until the round
    # has ended at every table: the tables share one deal). See app/match/sealing.py.
    sealed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    tournament_id: Mapped[str | None] = mapped_column(String(12))  # the event it is played in
    # The game's rules version the match is played under: replays from the seed use it.
    rules_version: Mapped[int] = mapped_column(
        Integer, default=_start_rules_version, server_default="1"
    )
    ply: Mapped[int] = mapped_column(Integer, default=0)
    snapshot: Mapped[dict[str, Any]] = mapped_column()
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list[MatchPlayer]] = relationship(
        order_by="MatchPlayer.seat", cascade="all, delete-orphan", lazy="selectin"
    )

    __table_args__ = (
        # Only the changes still to announce: the outbox relay's scan reads this small index.
        Index("ix_matches_unannounced", "id", postgresql_where=text(UNANNOUNCED),
              sqlite_where=text(UNANNOUNCED)),
    )


class MatchPlayer(Base):
    """Who sits in which seat of a match."""

    __tablename__ = "match_players"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship(lazy="joined")


class Move(Base):
    """The move log; (match_id, ply) is unique so a duplicate submission cannot be stored twice."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("match_id", "ply"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int] = mapped_column(Integer)  # 1 for the first move
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(40))
    time_spent_ms: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """A user's openskill rating in one game (mu, sigma), updated when a rated match finishes."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("user_id", "game"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(20), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Seek(Base):
    """A request to play: an open lobby seek, a quick-play entry, or a challenge to one user.

    It becomes a match once enough players accepted (``joined`` holds their user ids in order).
    """

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), default="open")  # open | quick | challenge
    game: Mapped[str] = mapped_column(String(20), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    num_seats: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    seat: Mapped[str] = mapped_column(String(8), default="random")  # creator's wish: 0..3|random
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    joined: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(10), index=True, default="open")
    # open | matched | cancelled | declined | expired
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    creator: Mapped[User] = relationship(foreign_keys=[creator_id], lazy="joined")
    target: Mapped[User | None] = relationship(foreign_keys=[target_id], lazy="joined")


class ChatMessage(Base):
    """One line of a match's chat: free ``text`` or a quick ``phrase`` code (shown translated).

    ``room`` is ``players`` (seated players only) or ``spectators`` (everyone watching).
    """

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_match_room", "match_id", "room", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    room: Mapped[str] = mapped_column(String(12))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    text: Mapped[str | None] = mapped_column(String(140))
    phrase: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship(lazy="joined")


class UserRelation(Base):
    """``owner`` mutes (hides their chat) or blocks (no chat, no challenges) ``target``."""

    __tablename__ = "user_relations"
    __table_args__ = (UniqueConstraint("owner_id", "target_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))  # mute | block
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatReport(Base):
    """A chat line someone reported, for a moderator to read (with its match)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"),
                                            index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)

    message: Mapped[ChatMessage] = relationship(lazy="joined")
    reporter: Mapped[User] = relationship(lazy="joined")


class MatchAnalysis(Base):
    """The computer analysis of one finished match: one row per match, so a request
    made twice (or by two viewers at once) finds the row the first one inserted."""

    __tablename__ = "match_analyses"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    status: Mapped[str] = mapped_column(String(10), index=True)  # queued | running | done | failed
    progress: Mapped[int] = mapped_column(Integer, default=0)  # positions evaluated
    total: Mapped[int] = mapped_column(Integer, default=0)  # positions to evaluate
    budget: Mapped[int] = mapped_column(Integer, default=0)  # search iterations per position
    runs: Mapped[int] = mapped_column(Integer, default=0)  # times a job started it (expected: 1)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
