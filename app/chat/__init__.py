"""Match chat: the players' and the spectators' rooms, quick phrases, reports and their queue, and
the moderators' tools on chat (hiding a line, the mute a person serves). Mutes and blocks between
people belong to accounts; chat reads them.

Other packages use only the names in ``__all__``: the router, what a match socket or stream
needs to follow a viewer's rooms (``chat_channel``, ``subscribed_rooms``, ``visible_line``,
``CHAT_KINDS``), and what the moderators' domain acts through (``ChatService``, the queue).
"""

from app.chat.feed import CHAT_KINDS, subscribed_rooms, visible_line
from app.chat.messages import ChatHiddenMessage, ChatLineMessage, ChatUser
from app.chat.reports import (
    DISMISSED,
    HIDDEN,
    OPEN,
    RESOLVED,
    ContextLine,
    ReportCase,
    ReportedMatch,
    ReportedPerson,
    open_report,
    report_queue,
    resolve_reports,
)
from app.chat.routes import ChatLineOut
from app.chat.routes import router as chat_router
from app.chat.service import ChatLine, ChatService, FloodLimit, chat_channel, line_json

__all__ = [
    "CHAT_KINDS",
    "DISMISSED",
    "HIDDEN",
    "OPEN",
    "RESOLVED",
    "ChatHiddenMessage",
    "ChatLine",
    "ChatLineMessage",
    "ChatLineOut",
    "ChatService",
    "ChatUser",
    "ContextLine",
    "FloodLimit",
    "ReportCase",
    "ReportedMatch",
    "ReportedPerson",
    "chat_channel",
    "chat_router",
    "line_json",
    "open_report",
    "report_queue",
    "resolve_reports",
    "subscribed_rooms",
    "visible_line",
]
