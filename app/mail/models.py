"""Email tables: each account's mail settings, the password-reset tokens, and the outbox.

The address itself is ``users.email`` (set by its owner, confirmed or not). A secret a mail
carries (a confirmation nonce, a reset token) is drawn by the worker as it sends the mail and
only its SHA-256 is stored, so neither the outbox nor a reset row holds a usable link.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class EmailSettings(Base):
    """One account's mail state: whether ``users.email`` is confirmed, the hash of the latest
    confirmation link's nonce, the language its mails are written in, the digest opt-in."""

    __tablename__ = "email_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    confirmed_at: Mapped[datetime | None]
    confirm_hash: Mapped[str | None] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(String(5), default="en")
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest_sent_at: Mapped[datetime | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class PasswordReset(Base):
    """A reset link's token (its SHA-256 only): valid until ``expires_at``, used once."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class MailOutbox(Base):
    """A mail to send: queued in a request's transaction, sent by the worker, kept with when it
    went (or why it did not). ``params`` never holds a secret."""

    __tablename__ = "mail_outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(12))  # confirm | reset | digest
    address: Mapped[str] = mapped_column(String(254))
    language: Mapped[str] = mapped_column(String(5), default="en")
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # When the next send may be tried; NULL once the mail is done (sent, dropped or given up).
    next_attempt_at: Mapped[datetime | None] = mapped_column(index=True)
    sent_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(String(10))  # sent | dropped | failed
    last_error: Mapped[str | None] = mapped_column(String(200))
