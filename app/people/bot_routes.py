"""Bot accounts: upgrade an account to a bot, list the bots."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import confirm_password, identities
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import BotMaker, PublicDoor, principal_of
from app.http.paging import PAGED, Key, PageRequest, link_next, page_of, paging
from app.http.ratelimit import login_guard
from app.kernel.errors import Forbidden
from app.match import BOT_LEVELS, UserOut
from app.people import bots as bot_accounts

router = APIRouter(route_class=OneHopRoute, tags=["bots"])


class BotOut(BaseModel):
    id: int | None = Field(description="Null for a built-in bot that has not played yet.")
    name: str
    username: str | None
    kind: str = Field(description="Always `bot`.")
    builtin_level: str | None = Field(description="`easy`, `medium`, `hard` for built-in bots.")
    ratings: dict[str, dict[str, Any]]
    games_played: int


class BotUpgradeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str | None = Field(default=None, max_length=200, description=(
        "Your password: required when the call is made with a browser session (a token "
        "with the `bot` scope, or a full-access login token, needs none)."))


@router.post("/bot/upgrade", response_model=UserOut)
def upgrade_to_bot(user: BotMaker, session: SessionDep, request: Request,
                   body: BotUpgradeIn | None = None) -> dict[str, Any]:
    """Turn your account into a bot account: final, and only for an account that has never
    played. Needs a token with the `bot` scope, a full-access token, or a browser session with
    the password re-entered (`password`, else 403 `password_required`). Bots are marked BOT
    everywhere (`kind: "bot"`), play rated games, accept challenges and use quick play.
    Guests get 403 `bot_needs_account`; an account with games gets 409
    `account_has_games`."""
    if principal_of(request).credential == "session":
        if body is None or not body.password:
            raise Forbidden("Re-enter your password to turn this account into a bot.",
                            code="password_required")
        with login_guard(request, f"user:{user.id}"):
            confirm_password(session, user.id, body.password)
    upgraded = bot_accounts.upgrade_to_bot(session, user)
    identities(request).forget_user(upgraded.id)
    return upgraded.public()


@router.get("/bots", response_model=list[BotOut], dependencies=[PublicDoor], responses=PAGED)
def list_bots(session: SessionDep, request: Request, response: Response,
              page: Annotated[PageRequest, Depends(paging())]) -> list[bot_accounts.BotJSON]:
    """Every bot: the built-in ones first, then bot accounts, with ratings and games played, a
    page at a time (`Link` to the next)."""
    bots, following = page_of(bot_accounts.list_bots(session), _bot_key, page)
    link_next(request, response, following)
    return bots


def _bot_key(bot: bot_accounts.BotJSON) -> Key:
    """A bot's place in ``list_bots``'s order: built-in levels in order, then by id."""
    level = bot["builtin_level"]
    return int(level is None), BOT_LEVELS.index(level) if level in BOT_LEVELS else 0, bot["id"] or 0
