"""Personal API tokens: create (the token is shown once), list without secrets, revoke."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import tokens as api_tokens
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import AccountOwner
from app.http.schemas import RowId

router = APIRouter(route_class=OneHopRoute, tags=["tokens"])

Scope = Literal["read", "play", "challenge", "bot"]


class TokenCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=60, examples=["my bot"],
                             pattern=r"^[^\x00-\x1f\x7f]+$")  # shown on a page; no control characters
    scopes: list[Scope] = Field(min_length=1, examples=[["read", "play", "challenge"]], description=(
        "`read`: everything that reads as you (match views, your games, the streams and "
        "sockets); `play`: moves (REST and socket), offers, resign, abort, claim, chat, hints; "
        "`challenge`: create and join matches, seeks, challenges, quick play, tournaments; "
        "`bot`: turn the account into a bot account (final). Tokens, relations and the "
        "account itself are never managed with a scoped token."))
    expires_in: int | None = Field(default=None, ge=60, le=api_tokens.MAX_EXPIRY_SECONDS,
                                   description="Seconds until it stops working; omitted: never.")


class TokenOut(BaseModel):
    id: int
    description: str
    scopes: list[Scope]
    created_at: str | None
    expires_at: str | None
    last_used_at: str | None
    app: str | None = Field(description="The app it was granted to through OAuth (its "
                                        "`client_id`); null: made by hand.")


class TokenCreated(api_tokens.TokenListing):
    token: str


class TokenCreatedOut(TokenOut):
    token: str = Field(description="The bearer token. Shown only now: store it.")


@router.post("/tokens", response_model=TokenCreatedOut, status_code=201)
def create_token(body: TokenCreate, user: AccountOwner, session: SessionDep) -> TokenCreated:
    """A personal API token for a program (accounts only). It is stored hashed and shown once.
    A call outside its scopes gets 403 `missing_scope`. Managing tokens needs a full-access
    token (your session, or the token from `POST /api/v1/login`)."""
    listing, token = api_tokens.create_personal_token(session, user, body.description,
                                                      list(body.scopes), body.expires_in)
    return {**listing, "token": token}


@router.get("/tokens", response_model=list[TokenOut])
def list_tokens(user: AccountOwner, session: SessionDep) -> list[api_tokens.TokenListing]:
    """Your personal API tokens, without their secrets."""
    return api_tokens.list_personal_tokens(session, user)


@router.delete("/tokens/{token_id}", status_code=204)
def revoke_token(token_id: RowId, request: Request, user: AccountOwner, session: SessionDep) -> None:
    """Revoke a token: it stops working at once, on every server instance."""
    token_hash = api_tokens.revoke_personal_token(session, user, token_id)
    forget_revoked(request, token_hash)


def forget_revoked(request: Request, token_hash: str) -> None:
    """Drop the token from the identity cache here and, through the bus, on every instance."""
    identities = getattr(request.app.state, "identities", None)
    if identities is not None:
        identities.forget_token(token_hash)
