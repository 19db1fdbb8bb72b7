"""Guests and bearer tokens: play needs no sign-up, but every request knows who is asking."""

from __future__ import annotations

import secrets

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.accounts.reserved_names import refuse_reserved
from app.db.models import ApiToken, User, utcnow
from app.http.credentials import secret_hash
from app.kernel.errors import Invalid
from app.kernel.identity import MAX_NAME_LENGTH, Identity


def identity_of(user: User) -> Identity:
    return Identity(id=user.id, name=user.name, kind=user.kind)


def clean_display_name(name: str) -> str:
    """Collapse whitespace, strip control characters, and insist on 1–24 visible characters
    that do not pass for the site or a built-in bot (403 ``reserved_name``)."""
    cleaned = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not cleaned:
        raise Invalid("Please choose a display name.", code="invalid_name")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise Invalid(f"A display name has at most {MAX_NAME_LENGTH} characters.",
                      code="invalid_name")
    refuse_reserved(cleaned)
    return cleaned


hash_token = secret_hash


def create_guest(session: Session, name: str) -> tuple[Identity, str]:
    """A new guest user and a fresh bearer token for it (the token is shown once, stored hashed)."""
    user = User(name=clean_display_name(name), kind="guest")
    session.add(user)
    session.flush()
    token = issue_token(session, user, label="guest")
    session.commit()
    return identity_of(user), token


def issue_token(session: Session, user: User, label: str = "") -> str:
    token = "sw_" + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, token_hash=hash_token(token), label=label))
    return token


def user_for_token(session: Session, token: str) -> Identity | None:
    """One query, no write: ``last_used_at`` is kept by ``touch_token`` (at most once a minute)."""
    row = session.execute(select(User.id, User.name, User.kind, ApiToken.scopes, ApiToken.expires_at)
                          .join(ApiToken, ApiToken.user_id == User.id)
                          .where(ApiToken.token_hash == hash_token(token),
                                 User.closed_at.is_(None))).first()
    if row is None or (row.expires_at is not None and row.expires_at <= utcnow()):
        return None
    scopes = None if row.scopes is None else frozenset(row.scopes.split())
    return Identity(id=row.id, name=row.name, kind=row.kind, scopes=scopes,
                    expires_at=row.expires_at)


def touch_token(session: Session, token_hash: str) -> None:
    session.execute(update(ApiToken).where(ApiToken.token_hash == token_hash)
                    .values(last_used_at=utcnow()))
    session.commit()


def user_by_id(session: Session, user_id: int) -> Identity | None:
    user = session.get(User, user_id)
    return None if user is None else identity_of(user)


def rename(session: Session, user_id: int, name: str) -> Identity:
    user = session.get(User, user_id)
    assert user is not None
    user.name = clean_display_name(name)
    session.commit()
    return identity_of(user)
