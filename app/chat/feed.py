"""Live chat lines for a match socket or stream: which rooms a viewer's connection follows, and
which lines it shows.

Each room has its own bus channel (``chat_channel``); a spectator's connection subscribes to the
spectators' room only, so a players' line is never even delivered to it. A seated player also
subscribes to the spectators' room, whose lines are forwarded only once the game is over. The
subscriptions themselves are made by :class:`app.notices.match_feed.MatchFeed`. A room's channel
also carries ``chatHidden`` (a moderator hid a line), forwarded to whoever reads the room.
"""

from __future__ import annotations

from app.chat.messages import ChatHiddenMessage, ChatLineMessage
from app.chat.service import HIDDEN_FOR, PLAYERS, SPECTATORS, readable_rooms
from app.kernel.json_types import JSONObject
from app.match import MatchHeader
from app.realtime.messages import Wire, forwarded


def subscribed_rooms(record: MatchHeader, viewer_id: int | None) -> list[str]:
    """The channels a connection listens to: a player's two rooms, everyone else's one."""
    if viewer_id is not None and record.seat_of(viewer_id) is not None:
        return [PLAYERS, SPECTATORS]
    return [SPECTATORS]


CHAT_KINDS = ("chatLine", "chatHidden")
"""The message types of a room's channel (what :func:`visible_line` reads)."""


def visible_line(message: JSONObject, record: MatchHeader,
                 viewer_id: int | None) -> Wire | None:
    """The line (or the hiding of one) as this viewer gets it (encoded once for every viewer
    who may read it), or None (a room they may not read now, or a muted or blocked author)."""
    if message.get("room") not in readable_rooms(record, viewer_id):
        return None
    if message.get("type") == "chatHidden":
        return forwarded(message, ChatHiddenMessage)
    if viewer_id is not None and viewer_id in message.get(HIDDEN_FOR, ()):
        return None
    return forwarded(message, ChatLineMessage, drop=(HIDDEN_FOR,))
