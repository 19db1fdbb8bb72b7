"""Built-in bot players: one bot user per level, seating bots in matches, and computing a bot's
move (a plain function so a worker process can run it off the server's event loop).

A level's bot user is found by ``users.builtin_bot``, never by name: an account that holds a
bot's username (taken before such names were reserved) is never seated or moved as the bot."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import MAX_ROW_ID, Match, MatchPlayer, User
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.match import store
from app.match.records import MatchRecord
from app.match.service import MatchService
from games import registry
from games.bots import choose_move

BOT_LEVELS = ("easy", "medium", "hard")
BOT_NAMES = {"easy": "Bot (easy)", "medium": "Bot (medium)", "hard": "Bot (hard)"}


def bot_username(level: str) -> str:
    return f"bot-{level}"


def level_of(username: str | None) -> str | None:
    """The level a ``bot-<level>`` name asks for (a challenge or profile by name); it says
    nothing about who holds that name: the bot user is ``builtin_bot_user(level)``."""
    name = (username or "").lower()
    if name.startswith("bot-") and name[4:] in BOT_LEVELS:
        return name[4:]
    return None


COPY_MARK = "#"
"""``users.builtin_bot`` of a level's further bots: ``easy#2`` (a tournament may enter several)."""


def level_of_key(key: str) -> str:
    """The level of a ``users.builtin_bot`` value (``easy``, or a copy's ``easy#2``)."""
    return key.split(COPY_MARK, 1)[0]


def builtin_bot_user(session: Session, level: str) -> User | None:
    return session.scalar(select(User).where(User.builtin_bot == level))


def ensure_bot_user(session: Session, level: str) -> User:
    """The level's bot user, created on its first game. Its username is ``bot-<level>`` unless
    an older account holds it; a second creation racing this one loses on the unique binding."""
    if level not in BOT_LEVELS:
        raise Invalid(f"Bot levels are {', '.join(BOT_LEVELS)}.", code="invalid_bot_level")
    user = builtin_bot_user(session, level)
    if user is not None:
        return user
    username: str | None = bot_username(level)
    if session.scalar(select(User.id).where(User.username == username)) is not None:
        username = None
    user = User(name=BOT_NAMES[level], kind="bot", username=username, builtin_bot=level)
    try:
        with session.begin_nested():
            session.add(user)
    except IntegrityError:
        user = builtin_bot_user(session, level)  # created meanwhile by another request
        assert user is not None
    return user


def ensure_bot_copy(session: Session, level: str, taken: set[int]) -> User:
    """A built-in bot of ``level`` whose id is not in ``taken``: the level's bot, else its first
    free copy (``Bot 2 (easy)``, …), created when every one is taken. Each copy is a player of
    its own (its own rating, its own tournament entry); all play at the level's strength."""
    first = ensure_bot_user(session, level)
    if first.id not in taken:
        return first
    copies = {user.builtin_bot: user for user in session.scalars(
        select(User).where(User.builtin_bot.like(f"{level}{COPY_MARK}%")))}
    number = 2
    while True:
        key = f"{level}{COPY_MARK}{number}"
        user = copies.get(key)
        if user is None:
            user = User(name=f"Bot {number} ({level})", kind="bot", builtin_bot=key)
            try:
                with session.begin_nested():
                    session.add(user)
            except IntegrityError:  # created meanwhile by another request
                user = session.scalar(select(User).where(User.builtin_bot == key))
                assert user is not None
        if user.id not in taken:
            return user
        number += 1


def bot_levels_by_user(session: Session) -> dict[int, str]:
    """Built-in bot user id -> level (a copy plays at its level's strength)."""
    rows = session.execute(select(User.id, User.builtin_bot).where(User.builtin_bot.is_not(None)))
    return {user_id: level_of_key(key) for user_id, key in rows if key is not None}


def seat_bots(matches: MatchService, match_id: str, user: Identity, level: str) -> MatchRecord:
    """Fill every empty seat of a waiting match with a bot (the match then starts)."""
    session = matches.session
    match = store.load(session, match_id, lock=True)
    store.seat_of(match, user)
    if match.status != "waiting":
        raise Conflict("Only a match that is waiting for players can take bots.", code="match_full")
    bot = ensure_bot_user(session, level)
    taken = {p.seat for p in match.players}
    for seat in range(match.num_seats):
        if seat not in taken:
            match.players.append(MatchPlayer(seat=seat, user_id=bot.id))
    store.start_if_full(match)
    match.version = match.version + 1
    session.commit()
    return matches.announce(match)


def bot_move(game_id: str, snapshot: JSONObject, seat: int, level: str, seed: int) -> str:
    """Runs in a worker process: the bot sees only what its seat may know (determinization)."""
    state = registry.get(game_id).from_json(snapshot)
    return choose_move(state, seat, level, seed)


def active_matches_with_bots(session: Session) -> list[tuple[str, int]]:
    """(id, ply) of every active match with a bot seated: one query, for the bot runner's scans."""
    bots = select(User.id).where(User.kind == "bot")
    rows = session.execute(
        select(Match.id, Match.ply).join(MatchPlayer).where(Match.status == "active",
                                                            MatchPlayer.user_id.in_(bots))
        .distinct())
    return [(match_id, ply) for match_id, ply in rows]


def find_user_id(session: Session, name: str) -> int:
    """A user id from a username (case-insensitive) or a numeric id; ``bot-<level>`` is always
    the built-in bot of that level, whoever else once took that username."""
    level = level_of(name)
    if level is not None and (bot := builtin_bot_user(session, level)) is not None:
        return bot.id
    if "\x00" in name:  # no username holds NUL, and PostgreSQL refuses it in a query
        raise NotFound(f"There is no user {name!r}.", code="no_user")
    if name.isascii() and name.isdigit() and 0 < int(name) <= MAX_ROW_ID and (
            session.get(User, int(name)) is not None):
        return int(name)
    user = session.scalar(select(User).where(func.lower(User.username) == name.lower()))
    if user is None:
        raise NotFound(f"There is no user {name!r}.", code="no_user")
    return user.id
