"""Accounts: register (a guest may upgrade in place and keep its games), log in, hash passwords,
and close an account (a moderator's decision: app/moderation/).

Passwords are hashed with argon2 (argon2-cffi); only the hash is stored.
"""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.accounts.identity import clean_display_name, identity_of, issue_token
from app.accounts.reserved_names import refuse_reserved, skeleton
from app.db.models import (
    ApiToken,
    BrowserSession,
    ModerationAction,
    OAuthCode,
    PushSubscription,
    User,
    utcnow,
)
from app.db.session import rows_matched
from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden, Invalid, Unauthenticated
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


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise Invalid(f"A password has at least {MIN_PASSWORD_LENGTH} characters.",
                      code="weak_password")


def register(session: Session, username: str, password: str, display_name: str | None = None,
             upgrade: Identity | None = None) -> tuple[Identity, str]:
    """A new account (or the calling guest turned into one) and a fresh API token."""
    username = _check_username(username)
    check_password(password)
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
    if user.closed_at is not None:  # told only to whoever knows the password
        raise closed_error(session, user.id)
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


def hash_password(password: str) -> str:
    """The stored form of a new password (checked first; slow on purpose: call it before the
    transaction that stores it)."""
    check_password(password)
    return HASHER.hash(password)


def replace_password(session: Session, user_id: int, password_hash: str) -> tuple[Identity, str]:
    """Store a new password (hashed by :func:`hash_password`) and end every credential the
    account had — browser sessions, login and personal tokens — in the same transaction; returns
    the account and one fresh login token. The caller commits, and then tells the identity
    caches (``IdentityCache.end_user``) so live connections end on every instance."""
    user = session.get(User, user_id)
    if user is None or user.kind != "account":
        raise Unauthenticated("That account no longer exists.", code="no_account")
    user.password_hash = password_hash
    session.execute(delete(BrowserSession).where(BrowserSession.user_id == user_id))
    session.execute(delete(ApiToken).where(ApiToken.user_id == user_id))
    token = issue_token(session, user, label="login")
    return identity_of(user), token


CLOSED_MESSAGE = i18n.N_("This account was closed by the moderators: {reason}")


def closed_error(session: Session, user_id: int) -> Forbidden:
    """403 ``account_closed``, with the moderators' reason, in the caller's language."""
    reason = session.scalar(select(ModerationAction.reason).where(
        ModerationAction.target_id == user_id, ModerationAction.action == "close")
        .order_by(ModerationAction.id.desc()).limit(1)) or ""
    return Forbidden(i18n.gettext(CLOSED_MESSAGE).format(reason=reason), code="account_closed")


def close_account(session: Session, user_id: int) -> None:
    """Close an account: no credential of it works any more — browser sessions, tokens (login,
    personal, OAuth), unused OAuth codes and push devices are deleted — and it never signs in
    again. The row stays: its rated games and ratings, its name, and so its username, which
    nobody else can take. The caller commits, then tells the identity caches
    (``IdentityCache.end_user``) so every instance ends its open sockets and streams."""
    closed = session.execute(update(User).where(User.id == user_id, User.closed_at.is_(None))
                             .values(closed_at=utcnow()).execution_options(
                                 synchronize_session=False))
    if rows_matched(closed) != 1:  # closed meanwhile (two moderators at once), or no such user
        session.rollback()
        raise Conflict("That account is closed already.", code="already_closed")
    for table in (BrowserSession, ApiToken, OAuthCode, PushSubscription):
        session.execute(delete(table).where(table.user_id == user_id))
