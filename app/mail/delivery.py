"""The worker's mail job: send what the outbox holds, once across instances, with retries.

It runs as a leader job (app/jobs/runner.py), so one process sends at a time; each mail is
also claimed by a conditional update of its ``attempts`` before it is sent, so even two senders
(a leadership hand-over) never send one mail twice. A claim holds the mail for ``LEASE``: a
sender that dies mid-send leaves it to be tried again then. A failed send waits
``mail_retry_seconds``, doubling each time, until ``mail_max_attempts``.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from email.message import EmailMessage

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import User, utcnow
from app.kernel.metrics import NOTIFICATIONS_SENT
from app.kernel.settings import Settings
from app.mail import addresses, resets, smtp
from app.mail.compose import compose
from app.mail.config import SmtpTarget, public_link
from app.mail.models import MailOutbox

log = logging.getLogger(__name__)
LEASE = timedelta(minutes=5)
BATCH = 20
MAX_BACKOFF_SECONDS = 6 * 3600.0


def backoff(settings: Settings, attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed send."""
    seconds = settings.mail_retry_seconds * 2 ** max(0, attempts - 1)
    return timedelta(seconds=min(seconds, MAX_BACKOFF_SECONDS))


def _claim(session: Session, row: MailOutbox) -> bool:
    """Take the mail for this sender (False: another took it first)."""
    now = utcnow()
    taken = session.execute(
        update(MailOutbox.__table__)
        .where(MailOutbox.id == row.id, MailOutbox.attempts == row.attempts,
               MailOutbox.next_attempt_at.is_not(None), MailOutbox.next_attempt_at <= now)
        .values(attempts=row.attempts + 1, next_attempt_at=now + LEASE))
    session.commit()
    return getattr(taken, "rowcount", 0) == 1


def _finish(session: Session, mail_id: int, outcome: str, error: str | None = None) -> None:
    session.execute(update(MailOutbox.__table__).where(MailOutbox.id == mail_id)
                    .values(next_attempt_at=None, outcome=outcome, last_error=error,
                            sent_at=utcnow() if outcome == "sent" else None))
    session.commit()
    NOTIFICATIONS_SENT.labels("email", outcome).inc()


def build(session: Session, settings: Settings, row: MailOutbox) -> EmailMessage | None:
    """The mail for an outbox row, its link's secret drawn now; None when it became moot."""
    user = session.get(User, row.user_id)
    if user is None:
        return None
    context: dict[str, object] = {}
    if row.kind == "confirm":
        token = addresses.mint_confirmation(session, settings.secret_key, row)
        if token is None:
            return None
        context["link"] = public_link(settings, f"/email/confirm?token={token}")
    elif row.kind == "reset":
        token = resets.mint_reset(session, row)
        if token is None:
            return None
        context["link"] = public_link(settings, f"/password-reset/confirm?token={token}")
        context["username"] = user.username
    else:
        context["games"] = [{**game, "url": public_link(settings, f"/m/{game['id']}")}
                            for game in row.params.get("games", [])]
        context["hours"] = row.params.get("hours", 0)
    return compose(settings, kind=row.kind, address=row.address, lang=row.language,
                   name=user.name, unsubscribe_token=addresses.unsubscribe_token(
                       settings.secret_key, row.user_id, row.address), **context)


def deliver_due(session_factory: sessionmaker[Session], settings: Settings,
                target: SmtpTarget) -> int:
    """Send every mail that is due; how many were tried. Blocking: run it in a thread."""
    tried = 0
    with session_factory() as session:
        due = session.scalars(select(MailOutbox)
                              .where(MailOutbox.next_attempt_at.is_not(None),
                                     MailOutbox.next_attempt_at <= utcnow())
                              .order_by(MailOutbox.id).limit(BATCH)).all()
        session.commit()
        for row in due:
            if not _claim(session, row):
                continue
            tried += 1
            attempts = row.attempts + 1
            session.refresh(row)
            try:
                message = build(session, settings, row)
            except Exception:
                log.exception("mail %s could not be written; given up", row.id)
                _finish(session, row.id, "failed", "could not be written")
                continue
            if message is None:
                _finish(session, row.id, "dropped")
                continue
            try:
                smtp.send(target, message, settings.smtp_ca_file)
            except smtp.SendFailed as error:
                _failed(session, settings, row.id, attempts, str(error))
                continue
            _finish(session, row.id, "sent")
    return tried


def _failed(session: Session, settings: Settings, mail_id: int, attempts: int, error: str) -> None:
    if attempts >= settings.mail_max_attempts:
        log.error("mail %s given up after %s attempts: %s", mail_id, attempts, error)
        _finish(session, mail_id, "failed", error[:200])
        return
    log.warning("mail %s not sent (attempt %s): %s", mail_id, attempts, error)
    session.execute(update(MailOutbox.__table__).where(MailOutbox.id == mail_id)
                    .values(next_attempt_at=utcnow() + backoff(settings, attempts),
                            last_error=error[:200]))
    session.commit()


async def deliver_mail(session_factory: sessionmaker[Session], settings: Settings) -> None:
    """The leader job: send the outbox's due mail every ``mail_poll_seconds``, forever."""
    assert settings.smtp_url is not None
    target = SmtpTarget.from_url(settings.smtp_url)
    while True:
        try:
            await asyncio.to_thread(deliver_due, session_factory, settings, target)
        except Exception:  # the database away: try again on the next round
            log.exception("mail delivery round failed")
        await asyncio.sleep(settings.mail_poll_seconds)
