"""The mail outbox: a mail is a row written in the transaction of the request that asked for it,
so it survives a restart, and the worker sends it (app/mail/delivery.py), never the request."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.db.models import utcnow
from app.mail.models import MailOutbox

KINDS = ("confirm", "reset", "digest", "reminder")


def queue_mail(session: Session, user_id: int, kind: str, address: str, language: str,
               params: dict[str, Any] | None = None) -> MailOutbox:
    """Add a mail to the outbox (the caller commits). ``params`` must hold no secret: the
    worker draws a link's secret as it sends."""
    if kind not in KINDS:
        raise ValueError(f"unknown mail kind {kind!r}")
    row = MailOutbox(user_id=user_id, kind=kind, address=address, language=language,
                     params=params or {}, attempts=0, next_attempt_at=utcnow())
    session.add(row)
    return row
