"""Personal API tokens: made by an account for a program (or granted to an app through OAuth),
limited by scopes, optionally expiring, listed without their secret and revoked at once.

Like every token only its SHA-256 is stored, so the token itself is shown once, at creation.
Session, guest and login tokens have no scopes (``scopes`` is NULL): they keep full access.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts.identity import hash_token
from app.db.models import ApiToken, User
from app.http.scopes import TOKEN_SCOPES
from app.kernel.errors import Forbidden, Invalid, NotFound
from app.kernel.identity import Identity
from app.kernel.timesource import now

SCOPES = TOKEN_SCOPES
TOKEN_PREFIX = "swp_"
MAX_EXPIRY_SECONDS = 366 * 24 * 3600


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def clean_scopes(scopes: list[str]) -> list[str]:
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise Invalid(f"Scopes are some of {', '.join(SCOPES)}; not {', '.join(unknown) or 'none'}.",
                      code="invalid_scopes")
    return [scope for scope in SCOPES if scope in scopes]


class TokenListing(TypedDict):
    """A personal token as its owner may see it: everything but the secret."""

    id: int
    description: str
    scopes: list[str]
    created_at: str | None
    expires_at: str | None
    last_used_at: str | None
    app: str | None
    """The app it was granted to through OAuth (app/accounts/oauth.py); None: made by hand."""


def token_json(row: ApiToken) -> TokenListing:
    """A token as its owner may see it later: everything but the secret."""
    return {"id": row.id, "description": row.label, "scopes": (row.scopes or "").split(),
            "created_at": _iso(row.created_at), "expires_at": _iso(row.expires_at),
            "last_used_at": _iso(row.last_used_at), "app": row.app}


def create_personal_token(session: Session, owner: Identity, description: str, scopes: list[str],
                          expires_in: int | None = None) -> tuple[TokenListing, str]:
    """A new scoped token for an account or bot account: (its listing, the token, shown once)."""
    user = session.get(User, owner.id)
    if user is None or user.kind not in ("account", "bot"):
        raise Forbidden("Personal API tokens are for accounts: sign up first.",
                        code="tokens_need_account")
    description = " ".join(description.split())
    if not description:
        raise Invalid("Say what the token is for.", code="invalid_description")
    if expires_in is not None and not 60 <= expires_in <= MAX_EXPIRY_SECONDS:
        raise Invalid("expires_in is 60 s to 366 days.", code="invalid_expiry")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(user_id=user.id, token_hash=hash_token(token), label=description[:60],
                   scopes=" ".join(clean_scopes(scopes)),
                   expires_at=None if expires_in is None else now() + timedelta(seconds=expires_in))
    session.add(row)
    session.commit()
    session.refresh(row)
    return token_json(row), token


def list_personal_tokens(session: Session, owner: Identity) -> list[TokenListing]:
    rows = session.scalars(select(ApiToken).where(ApiToken.user_id == owner.id,
                                                  ApiToken.scopes.is_not(None))
                           .order_by(ApiToken.id))
    return [token_json(row) for row in rows]


def revoke_personal_token(session: Session, owner: Identity, token_id: int) -> str:
    """Delete one of the owner's personal tokens; returns its hash so caches can drop it."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != owner.id or row.scopes is None:
        raise NotFound(f"You have no API token {token_id}.", code="no_token")
    token_hash = row.token_hash
    session.delete(row)
    session.commit()
    return token_hash
