"""Bot accounts: upgrade an account to a bot, list the bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import confirm_password, identities
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import BotMaker, PublicDoor, principal_of
from app.http.ratelimit import login_guard
from app.kernel.errors import Forbidden
from app.match import UserOut
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
    everywhere (`kind: "bot"`), play rated games, accept challenges, and cannot join quick
    play. Guests get 403 `bot_needs_account`; an account with games gets 409
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


@router.get("/bots", response_model=list[BotOut], dependencies=[PublicDoor])
def list_bots(session: SessionDep) -> list[dict[str, Any]]:
    """Every bot: the built-in ones first, then bot accounts, with ratings and games played."""
    return bot_accounts.list_bots(session)
