"""Match chat: the players' and the spectators' rooms, quick phrases, reports and the moderators'
page. Mutes and blocks belong to accounts; chat reads them.

Other packages use only the names in ``__all__``: the routers, and what a match socket or stream
needs to follow a viewer's rooms (``chat_channel``, ``subscribed_rooms``, ``visible_line``).
"""

from app.chat.feed import subscribed_rooms, visible_line
from app.chat.messages import ChatLineMessage, ChatUser
from app.chat.pages import router as moderation_router
from app.chat.routes import router as chat_router
from app.chat.service import FloodLimit, chat_channel

__all__ = [
    "ChatLineMessage",
    "ChatUser",
    "FloodLimit",
    "chat_channel",
    "chat_router",
    "moderation_router",
    "subscribed_rooms",
    "visible_line",
]
