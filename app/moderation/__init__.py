"""Moderation: what moderators do — hide a chat line for everyone, mute a person from chat for a
time, close an account, work the queue of chat reports — each act logged (who, what, why, when)
and told to the person concerned; and the page where a person reads those acts.

Moderators are granted from a shell (``python -m app.accounts.moderators grant <username>``);
every door here needs the gate's ``moderate`` scope and moderator role (app/http/doors.py).
Other packages use only the names in ``__all__``.
"""

from app.moderation.messages import ModerationNoticeMessage, ModerationNoticeOut
from app.moderation.pages import person_router as moderation_notice_page_router
from app.moderation.pages import router as moderation_page_router
from app.moderation.routes import router as moderation_router

__all__ = [
    "ModerationNoticeMessage",
    "ModerationNoticeOut",
    "moderation_notice_page_router",
    "moderation_page_router",
    "moderation_router",
]
