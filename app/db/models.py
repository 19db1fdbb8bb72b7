"""Tables only: users (guests, accounts, bots), API tokens, matches, seats and the move log."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
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

from app.db.json_shapes import StoredClock, StoredTimeControl
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
    # A moderator (granted with ``python -m app.accounts.moderators grant <username>``): passes
    # the gate's ``moderate`` doors, checked in the database on every call.
    is_moderator: Mapped[bool] = mapped_column(Boolean, default=False)
    # Closed by a moderator: no credential works any more; the row (its name, its rated games)
    # stays, so the username stays taken.
    closed_at: Mapped[datetime | None] = mapped_column()
    # Muted from chat by a moderator until then (app/chat/service.py refuses their lines).
    chat_muted_until: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Vacation (app/match/vacation.py): since when, and when the year's allowance runs out;
    # the time used is counted per calendar year (``vacation_year``).
    vacation_since: Mapped[datetime | None] = mapped_column(index=True)
    vacation_ends_at: Mapped[datetime | None] = mapped_column()
    vacation_year: Mapped[int | None] = mapped_column(Integer)
    vacation_used_ms: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # Whether a move waits for a second tap, its preview shown meanwhile (app/accounts/play_settings.py):
    # "always", "phones" or "never". Guests keep theirs in the browser.
    confirm_moves: Mapped[str] = mapped_column(String(8), default="phones", server_default="phones")
    # The colour theme (app/web/theme.py): "system" (follows the device), "light" or "dark".
    theme: Mapped[str] = mapped_column(String(8), default="system", server_default="system")


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
    app: Mapped[str | None] = mapped_column(String(100))
    """The app (OAuth ``client_id``) the person granted this token to; NULL: made by hand."""

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
    time_control: Mapped[StoredTimeControl | None] = mapped_column(JSON)
    clock: Mapped[StoredClock | None] = mapped_column(JSON)  # remaining ms per seat, turn start
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


class MatchConditional(Base):
    """A seat's conditional moves in a correspondence match (app/match/conditionals.py): lines
    of moves from the position at ``base_ply``, the owner's replies among them. Private to the
    owner: no record, payload, stream or export reads this table."""

    __tablename__ = "match_conditionals"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    base_ply: Mapped[int] = mapped_column(Integer)
    lines: Mapped[list[Any]] = mapped_column(JSON, default=list)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


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
    time_control: Mapped[StoredTimeControl | None] = mapped_column(JSON)
    seat: Mapped[str] = mapped_column(String(8), default="random")  # creator's wish: 0..3|random
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # A challenge's invited users in order (the first is ``target_id``); None on a challenge
    # older than multi-player challenges: then ``target_id`` alone.
    invitees: Mapped[list[Any] | None] = mapped_column(JSON)
    joined: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(10), index=True, default="open")
    # open | matched | cancelled | declined | expired
    decline_reason: Mapped[str | None] = mapped_column(String(20))  # a DECLINE_REASONS code
    declined_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
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
    # Hidden for everyone by a moderator (kept for the moderators' context and the log).
    hidden_at: Mapped[datetime | None] = mapped_column()
    hidden_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    user: Mapped[User] = relationship(lazy="joined", foreign_keys=[user_id])


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
    """A chat line someone reported, for a moderator to read (with its match). Open until a
    moderator resolves it (``resolution``: ``hidden``, the line was hidden; ``dismissed``)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"),
                                            index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    resolved_at: Mapped[datetime | None] = mapped_column(index=True)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    resolution: Mapped[str | None] = mapped_column(String(12))

    message: Mapped[ChatMessage] = relationship(lazy="joined")
    reporter: Mapped[User] = relationship(lazy="joined", foreign_keys=[reporter_id])


class ModerationAction(Base):
    """The moderators' log: who did what to whom, why and when. Each row is also the notice
    the person concerned reads (app/moderation/)."""

    __tablename__ = "moderation_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    moderator_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"))  # NULL: the command line
    target_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                           index=True)
    action: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(String(500))
    # What the action concerned: a chat line (``message_id``, ``match_id``, its text), a mute's
    # end, a report.
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class PlaybanOutcome(Base):
    """How one person ended one rated real-time game (app/match/playban.py): ``good``, or the
    way they abandoned it. One per person and match, whoever records it first."""

    __tablename__ = "playban_outcomes"
    __table_args__ = (UniqueConstraint("user_id", "match_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    outcome: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Playban(Base):
    """A wait before a person's next rated game, earned by abandoning rated games. The outcomes
    up to ``last_outcome_id`` earned it; the next one counts only those after."""

    __tablename__ = "playbans"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    reason: Mapped[str] = mapped_column(String(12))  # the outcome that earned it
    minutes: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ends_at: Mapped[datetime] = mapped_column(index=True)
    last_outcome_id: Mapped[int] = mapped_column(Integer)


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


class PushSubscription(Base):
    """A device that opted in to web push: the browser's ``PushSubscription`` (its endpoint and
    the keys that encrypt what is sent to it) and the page's language when it subscribed, in which
    its notifications are written. A push service answering 404/410 deletes the row."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(10), default="en")
    label: Mapped[str] = mapped_column(String(120), default="")  # the browser, as it named itself
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_sent_at: Mapped[datetime | None]


class NoticePreference(Base):
    """A person's switch for one notification kind on one channel (push, mail); no row: the
    channel's default (app/notices/preferences.py)."""

    __tablename__ = "notice_preferences"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    channel: Mapped[str] = mapped_column(String(10), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean)


class NoticeDelivery(Base):
    """That one notice was sent: (person, kind, subject, step, channel) is unique, so whichever
    sender inserts it first sends, and a notice goes out at most once per match per turn (step:
    the ply; a tournament's round) however many instances, relays or retries see the change."""

    __tablename__ = "notice_deliveries"
    __table_args__ = (UniqueConstraint("user_id", "kind", "subject", "step", "channel"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(40))
    step: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class OAuthCode(Base):
    """An OAuth authorization code, stored as its SHA-256 like every secret: bound to the person
    who consented, the app (``client_id``), the exact redirect URI, the consented scopes and the
    PKCE challenge. ``used_at`` makes it single-use (a conditional update claims it); the token
    issued for it is remembered so that presenting the code again revokes that token."""

    __tablename__ = "oauth_codes"

    id: Mapped[int] = mapped_column(primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    client_id: Mapped[str] = mapped_column(String(100))
    redirect_uri: Mapped[str] = mapped_column(String(1000))
    scopes: Mapped[str] = mapped_column(String(40))
    code_challenge: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    used_at: Mapped[datetime | None]
    token_hash: Mapped[str | None] = mapped_column(String(64))


class RatingHistory(Base):
    """One step of a user's rating in one game: where a finished rated match left it, written in
    the transaction that changes the ``ratings`` row. ``sigma`` is null on the steps rebuilt from
    the results stored before this table existed (they carried the rounded mu only)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("match_id", "user_id"),
        # A person's history of one game, in order: the profile's graph and its API.
        Index("ix_rating_history_user_game_at", "user_id", "game", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    mu_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(default=utcnow)
class Puzzle(Base):
    """A position of Stairs, Sight or Scalas whose side to move has a forced goal (a win, or
    Scalas' decisive gain) proven by an exact search (``games/puzzles.py``). The position is
    the game, its options and the move list from the start; ``solution`` is the whole proof
    (every defence, each answered). ``position_key`` (the game, options and moves hashed) is
    unique, so a position mined twice is stored once. ``mu``/``sigma``: the puzzle's own
    openskill rating, which moves with every rated attempt."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("position_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[int] = mapped_column(Integer, default=2)
    rules_version: Mapped[int] = mapped_column(Integer, default=1)
    moves: Mapped[list[str]] = mapped_column(JSON)
    seat: Mapped[int] = mapped_column(Integer)
    solution: Mapped[dict[str, Any]] = mapped_column(JSON)
    goal: Mapped[str] = mapped_column(String(10))  # win | gain
    plies: Mapped[int] = mapped_column(Integer)
    themes: Mapped[list[str]] = mapped_column(JSON, default=list)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    source: Mapped[str] = mapped_column(String(10))  # game | selfplay
    match_id: Mapped[str | None] = mapped_column(String(12), index=True)
    position_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PuzzleRating(Base):
    """A person's puzzle rating in one game (openskill, like the match ratings)."""

    __tablename__ = "puzzle_ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class PuzzleAttempt(Base):
    """A person's first finished attempt at a puzzle, the one that moved both ratings: unique
    per (puzzle, person), so a retry or a double submission rates nothing twice."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (UniqueConstraint("puzzle_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    correct: Mapped[bool] = mapped_column(Boolean)
    moves: Mapped[list[str]] = mapped_column(JSON)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PuzzleMinedMatch(Base):
    """A finished match the miner has searched (``found``: the puzzles it gave), so each match
    is searched once."""

    __tablename__ = "puzzle_mined_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    found: Mapped[int] = mapped_column(Integer, default=0)
    mined_at: Mapped[datetime] = mapped_column(default=utcnow)
class Follow(Base):
    """``follower`` follows ``followee``: sees them online and in play, and (``notify``) is told
    when they start a game. A block either way removes the follows between the two
    (app/accounts/follows.py); two follows of each other make friends."""

    __tablename__ = "follows"
    __table_args__ = (UniqueConstraint("follower_id", "followee_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    follower_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    followee_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                             index=True)
    notify: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
FINISHED_ONLY = "finished_at IS NOT NULL"


class ArchiveEntry(Base):
    """One seat of a finished match, written in the transaction that finishes it
    (app/match/archive_index.py): the archive search's index. A person's games newest first,
    by game, by result and by opponent are index range scans here, where the same questions
    over ``matches`` and ``match_players`` sort every game the person ever played. What can
    change after a match ends (``sealed``) stays on ``matches`` and is read from there."""

    __tablename__ = "archive_entries"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    rated: Mapped[bool] = mapped_column(Boolean)
    outcome: Mapped[str] = mapped_column(String(4))  # win | loss | draw, for this seat
    finished_at: Mapped[datetime] = mapped_column()

    __table_args__ = (
        Index("ix_archive_entries_user_finished", "user_id", "finished_at", "match_id"),
        Index("ix_archive_entries_user_game", "user_id", "game", "finished_at", "match_id"),
        Index("ix_archive_entries_user_outcome", "user_id", "outcome", "finished_at", "match_id"),
    )


Index("ix_matches_finished", Match.finished_at, Match.id,
      postgresql_where=text("status = 'finished'"), sqlite_where=text("status = 'finished'"))
class DailyDeal(Base):
    """One day's duplicate deal of a game for one player count: everyone who plays it that UTC
    day gets the same cards. ``seed`` is drawn from ``secrets`` and never leaves the server
    before ``revealed_at`` (app/daily/service.py); the unique key makes two requests racing to
    open the day share one deal."""

    __tablename__ = "daily_deals"
    __table_args__ = (UniqueConstraint("game", "day", "players"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    day: Mapped[str] = mapped_column(String(10))  # the UTC day, ISO (2026-11-26)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(SeedText)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revealed_at: Mapped[datetime | None] = mapped_column(index=True)


class DailyEntry(Base):
    """One person's attempt at a daily deal: one per person per deal (the unique key), their
    seat and match, and their score once the match ends (``counted``: it ended that day)."""

    __tablename__ = "daily_entries"
    __table_args__ = (UniqueConstraint("deal_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("daily_deals.id", ondelete="CASCADE"),
                                         index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          unique=True)
    seat: Mapped[int] = mapped_column(Integer)
    score: Mapped[int | None] = mapped_column(Integer)
    counted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]


class MatchLuck(Base):
    """What luck did in one finished game (app/luck/): per seat, what a bot that sees every
    secret scored from that seat's cards beside what the seat scored. One row per match, claimed
    by the job that computes it (``status`` running -> done | failed)."""

    __tablename__ = "match_luck"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
