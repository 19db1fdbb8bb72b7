"""An account's email address: set (a confirmation mail is queued), confirmed by its link,
removed; the digest opt-in; unsubscribing from a mail's link.

The address is its owner's secret: only they read it (``email_state``); no other payload of the
service carries it.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import NoticePreference, User, utcnow
from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden, Invalid
from app.mail import signing
from app.mail.models import EmailSettings, MailOutbox
from app.mail.outbox import queue_mail

ADDRESS_PATTERN = re.compile(r"^[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")
MAX_ADDRESS_LENGTH = 254
LANGUAGES = ("en", "ja")
MAILED_NOTICES = ("clockReminder",)
"""The notification kinds (app/notices/preferences.py) that go out by mail: an unsubscribe link
switches each off on the mail channel."""


def clean_address(address: str) -> str:
    """A plausible address, trimmed (the confirmation mail is the real check), else 422."""
    address = address.strip()
    if len(address) > MAX_ADDRESS_LENGTH or not ADDRESS_PATTERN.match(address):
        raise Invalid(i18n.N_("That does not look like an email address."), code="invalid_email")
    return address


def settings_of(session: Session, user_id: int) -> EmailSettings:
    row = session.get(EmailSettings, user_id)
    if row is None:
        row = EmailSettings(user_id=user_id, language="en", digest=False)
        session.add(row)
    return row


def require_account(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None or user.kind != "account":
        raise Forbidden(i18n.N_("An email address is for accounts: sign up first."),
                        code="email_needs_account")
    return user


def email_state(session: Session, user_id: int) -> dict[str, Any]:
    """What the owner sees of their mail settings (nobody else sees any of it)."""
    user = session.get(User, user_id)
    row = session.get(EmailSettings, user_id)
    confirmed = bool(user and user.email and row and row.confirmed_at)
    return {"email": user.email if user else None, "confirmed": confirmed,
            "digest": bool(row and row.digest and confirmed),
            "language": row.language if row else "en"}


def set_address(session: Session, user_id: int, address: str | None, language: str) -> dict[str, Any]:
    """Set (or, with None or "", remove) the account's address. A new address is unconfirmed
    and a confirmation mail to it is queued in the same transaction; the same address again
    queues another only while it is unconfirmed."""
    user = require_account(session, user_id)
    row = settings_of(session, user_id)
    row.language = language if language in LANGUAGES else "en"
    row.updated_at = utcnow()
    if not address or not address.strip():
        user.email = None
        row.confirmed_at = row.confirm_hash = None
        row.digest = False
        session.commit()
        return email_state(session, user_id)
    address = clean_address(address)
    if user.email == address and row.confirmed_at is not None:
        session.commit()
        return email_state(session, user_id)
    user.email = address
    row.confirmed_at = row.confirm_hash = None
    queue_mail(session, user_id, "confirm", address, row.language)
    session.commit()
    return email_state(session, user_id)


def set_language(session: Session, user_id: int, language: str) -> None:
    """The language the account's mails are written in (the one its pages were read in)."""
    row = session.get(EmailSettings, user_id)
    if row is not None and language in LANGUAGES and row.language != language:
        row.language = language
        session.commit()


def set_digest(session: Session, user_id: int, digest: bool, language: str) -> dict[str, Any]:
    """Opt in or out of the daily correspondence digest (in: a confirmed address first)."""
    require_account(session, user_id)
    state = email_state(session, user_id)
    if digest and not state["confirmed"]:
        raise Conflict(i18n.N_("Confirm your email address first."), code="email_unconfirmed")
    row = settings_of(session, user_id)
    row.digest = digest
    if language in LANGUAGES:
        row.language = language
    row.updated_at = utcnow()
    session.commit()
    return email_state(session, user_id)


def digest_enabled(session: Session, user_id: int) -> bool:
    """Whether the person gets the daily correspondence digest (opted in, address confirmed):
    the digest's notification switch, for the per-person preferences to read."""
    return bool(email_state(session, user_id)["digest"])


def mint_confirmation(session: Session, secret_key: str, outbox: MailOutbox) -> str | None:
    """For the worker, as it sends a confirmation mail: a fresh signed token naming the account,
    the address and a nonce whose hash replaces any earlier link's (one link works at a time).
    None when the mail is moot (the address changed or was confirmed meanwhile)."""
    user = session.get(User, outbox.user_id)
    row = session.get(EmailSettings, outbox.user_id)
    if user is None or row is None or user.email != outbox.address or row.confirmed_at is not None:
        return None
    nonce = secrets.token_urlsafe(32)
    row.confirm_hash = signing.sha256(nonce)
    session.commit()
    return signing.sign(secret_key, signing.CONFIRM_SALT,
                        {"u": outbox.user_id, "e": outbox.address, "n": nonce})


def confirm_address(session: Session, secret_key: str, token: str) -> int:
    """Confirm the address a link names, once; returns the account's id. A link that is forged,
    older than a week, used already, superseded by a newer one or for an address since replaced
    is refused alike (422 ``invalid_link``)."""
    payload = signing.unsign(secret_key, signing.CONFIRM_SALT, token,
                             max_age=signing.CONFIRM_MAX_AGE_SECONDS)
    refused = Invalid(i18n.N_("This confirmation link is out of date or was used already."),
                      code="invalid_link")
    if payload is None or not isinstance(payload.get("u"), int):
        raise refused
    user = session.get(User, payload["u"])
    row = session.get(EmailSettings, payload["u"])
    if (user is None or row is None or user.email != payload.get("e") or row.confirm_hash is None
            or row.confirm_hash != signing.sha256(str(payload.get("n")))):
        raise refused
    row.confirmed_at = utcnow()
    row.confirm_hash = None
    session.commit()
    return user.id


def unsubscribe_token(secret_key: str, user_id: int, address: str) -> str:
    return signing.sign(secret_key, signing.UNSUBSCRIBE_SALT, {"u": user_id, "e": address})


def unsubscribe(session: Session, secret_key: str, token: str) -> None:
    """A mail's unsubscribe link, no sign-in: no more digests or reminders to that address, and an address
    never confirmed is taken off the account (its mailbox's owner did not ask for it). A link
    for an address the account no longer has changes nothing; a forged one is refused."""
    payload = signing.unsign(secret_key, signing.UNSUBSCRIBE_SALT, token)
    if payload is None or not isinstance(payload.get("u"), int):
        raise Invalid(i18n.N_("This unsubscribe link is not one of ours."), code="invalid_link")
    user = session.get(User, payload["u"])
    if user is None or user.email != payload.get("e"):
        return
    row = settings_of(session, user.id)
    row.digest = False
    for kind in MAILED_NOTICES:
        session.merge(NoticePreference(user_id=user.id, kind=kind, channel="mail", enabled=False))
    if row.confirmed_at is None:
        user.email = None
        row.confirm_hash = None
    row.updated_at = utcnow()
    session.commit()


def confirmed_accounts(session: Session, address: str) -> list[tuple[int, str, str]]:
    """(user id, address as stored, language) of every account that confirmed this address."""
    rows = session.execute(
        select(User.id, User.email, EmailSettings.language)
        .join(EmailSettings, EmailSettings.user_id == User.id)
        .where(func.lower(User.email) == address.strip().lower(), User.kind == "account",
               EmailSettings.confirmed_at.is_not(None))).all()
    return [(row[0], str(row[1]), row[2]) for row in rows]
