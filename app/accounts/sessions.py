"""Browser sessions kept on the server: the signed cookie holds only a random key (``sid``).

Logging out deletes the key's row, so a copy of the cookie taken earlier stops working; logging
out everywhere deletes every row of the user. Only the key's SHA-256 is stored.
"""

from __future__ import annotations

import secrets

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.accounts.identity import identity_of
from app.db.models import BrowserSession, User
from app.http.credentials import SESSION_COOKIE_KEY, secret_hash
from app.kernel.identity import Identity

COOKIE_KEY = SESSION_COOKIE_KEY
hash_key = secret_hash


def start(session: Session, user_id: int) -> str:
    """A new browser session for ``user_id``; returns the key the cookie will carry."""
    key = secrets.token_urlsafe(32)
    session.add(BrowserSession(user_id=user_id, key_hash=hash_key(key)))
    session.commit()
    return key


def user_for_key(session: Session, key: str) -> Identity | None:
    user = session.execute(select(User).join(BrowserSession, BrowserSession.user_id == User.id)
                           .where(BrowserSession.key_hash == hash_key(key),
                                  User.closed_at.is_(None))).scalar_one_or_none()
    return None if user is None else identity_of(user)


def end(session: Session, key: str) -> str:
    """Delete one browser session; returns its hash (for the caches of every instance)."""
    key_hash = hash_key(key)
    session.execute(delete(BrowserSession).where(BrowserSession.key_hash == key_hash))
    session.commit()
    return key_hash


def end_all(session: Session, user_id: int) -> int:
    """Delete every browser session of ``user_id`` (log out everywhere); how many there were."""
    ended = session.execute(delete(BrowserSession).where(BrowserSession.user_id == user_id))
    session.commit()
    return int(getattr(ended, "rowcount", 0) or 0)


def count(session: Session, user_id: int) -> int:
    return len(session.scalars(select(BrowserSession.id)
                               .where(BrowserSession.user_id == user_id)).all())

