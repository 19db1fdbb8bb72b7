"""Password reset by email: asked for by address (the answer never says whether it is known),
a link with a single-use token valid for an hour (only its SHA-256 stored), and the new password
set with it — every other session and token of the account ending at once."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from app.accounts import replace_password
from app.db.models import User, utcnow
from app.kernel import i18n
from app.kernel.errors import Invalid
from app.kernel.identity import Identity
from app.mail import signing
from app.mail.addresses import confirmed_accounts
from app.mail.models import EmailSettings, MailOutbox, PasswordReset
from app.mail.outbox import queue_mail

TOKEN_LIFETIME = timedelta(hours=1)


def request_reset(session: Session, address: str) -> int:
    """Queue a reset mail to every account that confirmed ``address`` (none for an unknown or
    unconfirmed one); how many were queued, which the caller must not tell anyone."""
    found = confirmed_accounts(session, address)
    for user_id, stored, language in found:
        queue_mail(session, user_id, "reset", stored, language)
    session.commit()
    return len(found)


def mint_reset(session: Session, outbox: MailOutbox) -> str | None:
    """For the worker, as it sends a reset mail: a fresh token, stored hashed, valid for an hour.
    None when the mail is moot (the address changed or is no longer confirmed)."""
    user = session.get(User, outbox.user_id)
    row = session.get(EmailSettings, outbox.user_id)
    if user is None or row is None or user.email != outbox.address or row.confirmed_at is None:
        return None
    token = secrets.token_urlsafe(32)
    session.add(PasswordReset(user_id=user.id, token_hash=signing.sha256(token),
                              expires_at=utcnow() + TOKEN_LIFETIME))
    session.commit()
    return token


REFUSED = i18n.N_("This reset link is out of date or was used already: ask for a new one.")


def require_live_token(session: Session, token: str) -> None:
    """Refuse a token that cannot be spent, before the slow password hash is paid for it."""
    if not token_is_live(session, token):
        raise Invalid(REFUSED, code="invalid_reset_token")


def confirm_reset(session: Session, token: str, password_hash: str) -> tuple[Identity, str]:
    """Spend a reset token (once: a conditional update, so two uses at the same moment cannot
    both pass) and set the password; every reset token of the account ends with it. Returns the
    account and a fresh login token; the caller ends the old credentials in the caches."""
    refused = Invalid(REFUSED, code="invalid_reset_token")
    now = utcnow()
    row = session.query(PasswordReset).filter_by(token_hash=signing.sha256(token)).one_or_none()
    if row is None or row.used_at is not None or row.expires_at <= now:
        session.rollback()
        raise refused
    spent = session.execute(update(PasswordReset.__table__)
                            .where(PasswordReset.id == row.id, PasswordReset.used_at.is_(None))
                            .values(used_at=now))
    if getattr(spent, "rowcount", 0) != 1:
        session.rollback()
        raise refused
    user, login_token = replace_password(session, row.user_id, password_hash)
    session.execute(delete(PasswordReset.__table__).where(PasswordReset.user_id == row.user_id,
                                                          PasswordReset.id != row.id))
    session.commit()
    return user, login_token


def token_is_live(session: Session, token: str) -> bool:
    """Whether a reset token may still be spent (the form is shown only for one that may)."""
    row = session.query(PasswordReset).filter_by(token_hash=signing.sha256(token)).one_or_none()
    live = row is not None and row.used_at is None and row.expires_at > utcnow()
    session.commit()
    return live
