"""A correspondence clock reminder by mail, for a person no device of whom took it by push.

The caller (the push job) has decided that the reminder is due, that the person wants it by
mail, and has claimed this turn's delivery; this module only finds the confirmed address and
queues the mail (nothing secret in it: the game's title, the opponents' names, the match id).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import User
from app.kernel import i18n
from app.kernel.settings import Settings
from app.mail.compose import language
from app.mail.config import mail_enabled
from app.mail.models import EmailSettings
from app.mail.outbox import queue_mail
from games import registry


def queue_reminder(session: Session, settings: Settings, user_id: int, match_id: str,
                   game: str, opponents: list[str], hours: int) -> bool:
    """Queue the reminder (the caller commits); False when no confirmed address is on file."""
    if not mail_enabled(settings):
        return False
    found = session.execute(
        select(User.email, EmailSettings.language).join(User, User.id == EmailSettings.user_id)
        .where(EmailSettings.user_id == user_id, EmailSettings.confirmed_at.is_not(None),
               User.email.is_not(None))).first()
    if found is None:
        return False
    address, lang = found
    with language(lang):
        try:
            title = i18n.gettext(registry.get(game).title)
        except registry.UnknownGame:
            title = game
    queue_mail(session, user_id, "reminder", str(address), lang,
               {"games": [{"id": match_id, "title": title, "opponents": opponents}],
                "hours": hours})
    return True
