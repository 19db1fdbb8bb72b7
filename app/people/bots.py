"""Bot accounts: an account that has never played may become a bot, for good.

A bot is a user of kind ``bot``: every payload that names a user carries its kind, so clients can
mark it BOT. The built-in bots (app/match/bots.py) are bots too, told apart by
``users.builtin_bot`` (never by their names, which nobody else may take). Bots play rated games
like accounts, accept challenges, and use quick play (rated) like accounts.
"""

from __future__ import annotations

from typing import TypedDict

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.accounts import identity_of, refuse_reserved
from app.db.models import Match, MatchPlayer, Rating, User
from app.kernel.errors import Conflict, Forbidden, NotFound
from app.kernel.identity import Identity
from app.match import BOT_LEVELS, BOT_NAMES, COPY_MARK, RatingJSON, bot_username, rating_json

BOT_KIND = "bot"
RATED_KINDS = ("account", BOT_KIND)
"""Kinds of user that play rated games and have ratings."""


def is_bot(kind: str | None) -> bool:
    return kind == BOT_KIND


def can_play_rated(kind: str | None) -> bool:
    return kind in RATED_KINDS


def upgrade_to_bot(session: Session, caller: Identity) -> Identity:
    """Turn the caller's account into a bot account. Final; only for an account with no games."""
    user = session.get(User, caller.id)
    if user is None:
        raise NotFound("There is no such user.", code="no_user")
    if user.kind == BOT_KIND:
        raise Conflict("This account is already a bot.", code="already_bot")
    if user.kind != "account" or not user.username:
        raise Forbidden("Only an account can become a bot: sign up first.",
                        code="bot_needs_account")
    refuse_reserved(user.username)  # an old account holding a name reserved since
    played = session.scalar(select(func.count()).select_from(MatchPlayer)
                            .where(MatchPlayer.user_id == user.id)) or 0
    if played:
        raise Conflict("Only an account that has never played may become a bot.",
                       code="account_has_games")
    user.kind = BOT_KIND
    session.commit()
    return identity_of(user)


class BotJSON(TypedDict):
    """A bot in the list: a built-in one not created yet has no id."""

    id: int | None
    name: str
    username: str | None
    kind: str
    builtin_level: str | None
    ratings: dict[str, RatingJSON]  # by game
    games_played: int


def list_bots(session: Session) -> list[BotJSON]:
    """Every bot, built-in ones first: name, ratings per game and games played."""
    bots = [bot for bot in session.scalars(select(User).where(User.kind == BOT_KIND)
                                            .order_by(User.id))
            if COPY_MARK not in (bot.builtin_bot or "")]  # a level's copies: tournaments only
    ids = [bot.id for bot in bots]
    ratings: dict[int, dict[str, RatingJSON]] = {bot_id: {} for bot_id in ids}
    for rating in session.scalars(select(Rating).where(Rating.user_id.in_(ids))):
        ratings[rating.user_id][rating.game] = rating_json(rating)
    played = dict(session.execute(
        select(MatchPlayer.user_id, func.count(func.distinct(MatchPlayer.match_id)))
        .join(Match).where(MatchPlayer.user_id.in_(ids), Match.status == "finished")
        .group_by(MatchPlayer.user_id)).all())
    rows: list[BotJSON] = [{"id": bot.id, "name": bot.name, "username": bot.username, "kind": bot.kind,
             "builtin_level": bot.builtin_bot, "ratings": ratings[bot.id],
             "games_played": int(played.get(bot.id, 0))} for bot in bots]
    present = {row["builtin_level"] for row in rows}
    rows += [{"id": None, "name": BOT_NAMES[level], "username": bot_username(level),
              "kind": BOT_KIND, "builtin_level": level, "ratings": {}, "games_played": 0}
             for level in BOT_LEVELS if level not in present]  # created on their first game
    order: dict[str | None, int] = {level: index for index, level in enumerate(BOT_LEVELS)}
    rows.sort(key=lambda row: (row["builtin_level"] is None,
                               order.get(row["builtin_level"], 0), row["id"] or 0))
    return rows
