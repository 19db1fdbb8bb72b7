"""Accounts: register (a guest may upgrade in place and keep its games), log in, hash passwords.

Passwords are hashed with argon2 (argon2-cffi); only the hash is stored.
"""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.accounts.identity import clean_display_name, identity_of, issue_token
from app.accounts.reserved_names import refuse_reserved, skeleton
from app.db.models import User, utcnow
from app.kernel.errors import Conflict, Invalid, Unauthenticated
from app.kernel.identity import Identity

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
MIN_PASSWORD_LENGTH = 8
HASHER = PasswordHasher()


def _check_username(username: str) -> str:
    """A valid username, or why not: reserved names first, in whatever form they are written."""
    username = username.strip()
    refuse_reserved(username)
    if not USERNAME_PATTERN.match(username):
        raise Invalid("A username has 3–20 letters, digits, '-' or '_'.", code="invalid_username")
    return username


def find_by_username(session: Session, username: str) -> User | None:
    return session.scalar(select(User).where(func.lower(User.username) == username.lower()))


def register(session: Session, username: str, password: str, display_name: str | None = None,
             upgrade: Identity | None = None) -> tuple[Identity, str]:
    """A new account (or the calling guest turned into one) and a fresh API token."""
    username = _check_username(username)
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Invalid(f"A password has at least {MIN_PASSWORD_LENGTH} characters.",
                      code="weak_password")
    display = clean_display_name(display_name or username)
    password_hash = HASHER.hash(password)  # slow on purpose: before the transaction, not in it
    key = skeleton(username)
    taken = Conflict("That username is taken.", code="username_taken")
    if session.scalar(select(User.id).where(or_(func.lower(User.username) == username.lower(),
                                                User.username_key == key))) is not None:
        raise taken  # the same name, or one that looks the same
    user = session.get(User, upgrade.id) if upgrade and upgrade.kind == "guest" else None
    if user is None:
        user = User(kind="account")
        session.add(user)
    user.kind = "account"
    user.username = username
    user.username_key = key
    user.name = display
    user.password_hash = password_hash
    try:
        session.flush()
    except IntegrityError:  # a look-alike registered in the meantime
        session.rollback()
        raise taken from None
    token = issue_token(session, user, label="account")
    session.commit()
    return identity_of(user), token


def authenticate(session: Session, username: str, password: str) -> tuple[Identity, str]:
    """The account for these credentials and a fresh API token; one vague error for any failure."""
    user = find_by_username(session, username.strip())
    # End the read before the deliberately slow hash: on SQLite every transaction holds the write
    # lock, and parallel logins must not queue behind each other's argon2 work.
    session.commit()
    failure = Unauthenticated("Wrong username or password.", code="bad_credentials")
    if user is None or not user.password_hash:
        HASHER.hash(password)  # spend the same time whether or not the user exists
        raise failure
    try:
        HASHER.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise failure from None
    if HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = HASHER.hash(password)
    user.last_seen_at = utcnow()
    token = issue_token(session, user, label="login")
    session.commit()
    return identity_of(user), token


def confirm_password(session: Session, user_id: int, password: str) -> None:
    """Re-check the signed-in user's password before a final step (becoming a bot)."""
    user = session.get(User, user_id)
    session.commit()  # end the read before the slow hash, as ``authenticate`` does
    failure = Unauthenticated("Wrong password.", code="bad_credentials")
    if user is None or not user.password_hash:
        raise failure
    try:
        HASHER.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise failure from None
