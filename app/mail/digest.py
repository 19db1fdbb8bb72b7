"""The correspondence digest: at most one mail a day to a person who opted in, listing the
correspondence games waiting for their move (no mail when none waits).

``digest_sent_at`` is moved by a conditional update before the mail is queued, so two passes
(two leaders in a hand-over) never queue two digests for one day."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match, MatchPlayer, User, utcnow
from app.kernel import i18n
from app.kernel.settings import Settings
from app.mail.compose import language
from app.mail.models import EmailSettings
from app.mail.outbox import queue_mail
from games import registry

log = logging.getLogger(__name__)
DIGEST_EVERY = timedelta(days=1)
MAX_GAMES = 20


def waiting_games(session: Session, user_id: int, lang: str) -> list[dict[str, Any]]:
    """The person's correspondence games in play where it is their move (nothing secret: the
    game's title, the opponents' names, the match id)."""
    rows = session.execute(select(Match, MatchPlayer.seat).join(MatchPlayer)
                           .where(MatchPlayer.user_id == user_id, Match.status == "active")
                           .order_by(Match.updated_at)).all()
    games = []
    for match, seat in rows:
        if match.time_control is None or match.time_control.get("kind") != "correspondence":
            continue
        try:
            game = registry.get(match.game)
        except registry.UnknownGame:
            continue
        if game.from_json(match.snapshot).to_move != seat:
            continue
        with language(lang):
            title = i18n.gettext(game.title)
        opponents = [p.user.name for p in match.players if p.user_id != user_id]
        games.append({"id": match.id, "title": title, "opponents": opponents})
        if len(games) >= MAX_GAMES:
            break
    return games


def queue_due_digests(session: Session, now: datetime | None = None) -> int:
    """Queue today's digest for everyone due one with a game waiting; how many were queued."""
    now = now or utcnow()
    due = session.execute(
        select(EmailSettings.user_id, EmailSettings.digest_sent_at, EmailSettings.language,
               User.email)
        .join(User, User.id == EmailSettings.user_id)
        .where(EmailSettings.digest.is_(True), EmailSettings.confirmed_at.is_not(None),
               User.email.is_not(None), User.kind == "account")).all()
    session.commit()
    queued = 0
    for user_id, sent_at, lang, address in due:
        if sent_at is not None and now - sent_at < DIGEST_EVERY:
            continue
        games = waiting_games(session, user_id, lang)
        if not games:
            session.commit()
            continue
        last = (EmailSettings.digest_sent_at.is_(None) if sent_at is None
                else EmailSettings.digest_sent_at == sent_at)
        moved = session.execute(update(EmailSettings.__table__)
                                .where(EmailSettings.user_id == user_id, last)
                                .values(digest_sent_at=now))
        if getattr(moved, "rowcount", 0) != 1:
            session.rollback()
            continue
        queue_mail(session, user_id, "digest", str(address), lang, {"games": games})
        session.commit()
        queued += 1
    return queued


async def queue_digests(session_factory: sessionmaker[Session], settings: Settings) -> None:
    """The leader job: look whose digest is due every ``mail_digest_check_seconds``."""
    while True:
        try:
            def one_pass() -> int:
                with session_factory() as session:
                    return queue_due_digests(session)
            await asyncio.to_thread(one_pass)
        except Exception:
            log.exception("digest pass failed")
        await asyncio.sleep(settings.mail_digest_check_seconds)
