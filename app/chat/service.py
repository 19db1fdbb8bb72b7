"""Match chat in two rooms, as on Lichess: the players' room and the spectators' room.

- ``players``: the seated players only (every seat, whatever their number), for reading and writing.
- ``spectators``: everyone who is not seated; the players may read and write it once the game
  is over (while it is in play they could otherwise be coached from the audience).

A line is free text (trimmed, 1–140 characters, control characters removed, stored and sent as
plain text: clients must show it as text, never as markup) or a quick-phrase code, which each
reader sees in their own language. Guests may only send quick phrases in the spectators' room.
A reader never receives lines from users they muted or blocked; a player whom every other
player has blocked cannot write in the players' room. Writers are flood-limited per user. A
moderator may hide a line for everyone (``hide``: gone from the history, and a ``chatHidden``
goes to the room's readers) and mute a person from chat for a time (``users.chat_muted_until``,
read from the database at every line, so every instance refuses it at once).

Live lines go out on one bus channel per room (``chat_channel``), so the players' room is never
published where a spectator's socket listens.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import TypedDict

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.accounts import blockers_among, hidden_from
from app.chat.messages import ChatHiddenMessage, ChatLineMessage
from app.db.models import ChatMessage, User, UserRelation, utcnow
from app.db.session import rows_matched
from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.match import MatchHeader, MatchRecord
from app.realtime.messages import bus_form

PLAYERS = "players"
SPECTATORS = "spectators"
ROOMS = (PLAYERS, SPECTATORS)
MAX_LENGTH = 140
HISTORY_LIMIT = 200
OVER = ("finished", "aborted")



def N_(text: str) -> str:
    """Marks a msgid for extraction (translated where it is shown)."""
    return text


PHRASES: dict[str, str] = {
    "hello": N_("Hello"),
    "good_luck": N_("Good luck"),
    "good_game": N_("Good game"),
    "thanks": N_("Thanks"),
    "well_played": N_("Well played"),
    "sorry": N_("Sorry"),
    "oops": N_("Oops"),
}
"""Quick phrases: code -> English text (translated for each reader from the catalog)."""

Publish = Callable[[str, JSONObject], None]


class ChatUserJSON(TypedDict):
    id: int
    name: str
    kind: str


class ChatLine(TypedDict):
    """A chat line as clients get it (``ChatLineMessage`` documents it)."""

    id: int
    match_id: str
    room: str
    user: ChatUserJSON
    text: str | None  # English for a phrase
    phrase: str | None
    created_at: str


class ChatFlood(ServiceError):
    """Too many lines too fast: answered 429 ``rate_limited`` with ``Retry-After``."""

    code = "rate_limited"

    def __init__(self, retry_after: float) -> None:
        super().__init__("You are writing too fast: wait a moment.")
        self.retry_after = max(1, int(retry_after + 0.999))


class FloodLimit:
    """At most ``lines`` chat lines per ``seconds`` per user (sliding window, in memory).

    Per instance: a user spreading a flood over several instances gets a few more lines through,
    which is harmless for chat.
    """

    def __init__(self, lines: int = 5, seconds: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lines, self.seconds, self.clock = lines, seconds, clock
        self._sent: dict[int, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def take(self, user_id: int) -> None:
        """Count one line for ``user_id``, or raise ``ChatFlood`` if the window is full."""
        now = self.clock()
        with self._lock:
            sent = self._sent[user_id]
            while sent and now - sent[0] >= self.seconds:
                sent.popleft()
            if len(sent) >= self.lines:
                raise ChatFlood(self.seconds - (now - sent[0]))
            sent.append(now)


def chat_channel(match_id: str, room: str) -> str:
    """The bus channel of one room: a socket subscribes only to the rooms its viewer may read."""
    return f"chat:{match_id}:{room}"


def clean_text(text: str) -> str:
    """Control characters out, whitespace runs collapsed, trimmed; 1–140 characters."""
    cleaned = " ".join("".join(ch for ch in text if ch.isprintable() or ch.isspace()).split())
    if not cleaned:
        raise Invalid("Write something first.", code="empty_chat")
    if len(cleaned) > MAX_LENGTH:
        raise Invalid(f"A chat line has at most {MAX_LENGTH} characters.", code="chat_too_long")
    return cleaned


def is_over(record: MatchHeader) -> bool:
    return record.status in OVER


def seated_ids(record: MatchHeader) -> list[int]:
    return [s.user_id for s in record.seats if s.user_id is not None]


def readable_rooms(record: MatchHeader, viewer_id: int | None) -> list[str]:
    """The rooms this viewer may read: players their room (and the spectators' once it is
    over), everyone else the spectators' room."""
    if viewer_id is not None and viewer_id in seated_ids(record):
        return [PLAYERS, SPECTATORS] if is_over(record) else [PLAYERS]
    return [SPECTATORS]


def check_read(record: MatchRecord, viewer_id: int | None, room: str) -> None:
    if room in readable_rooms(record, viewer_id):
        return
    if room == PLAYERS:
        raise Forbidden("Only the players of this match read and write its players' room.",
                        code="not_a_player")
    raise Forbidden("Players read the spectators' room once the game is over.",
                    code="spectators_room_closed")


HIDDEN_FOR = "hidden_for"
"""Key of a published chat line naming who hides its author: routing only, never sent."""


def line_json(message: ChatMessage) -> ChatLine:
    """A chat line as clients get it; ``text`` is English for a phrase (clients translate the
    ``phrase`` code; REST answers translate ``text`` for the caller)."""
    user = message.user
    return {
        "id": message.id, "match_id": message.match_id, "room": message.room,
        "user": {"id": user.id, "name": user.name, "kind": user.kind},
        "text": PHRASES[message.phrase] if message.phrase else message.text,
        "phrase": message.phrase,
        "created_at": message.created_at.isoformat() + "Z",
    }


class ChatService:
    def __init__(self, session: Session, publish: Publish | None = None,
                 flood: FloodLimit | None = None) -> None:
        self.session = session
        self.publish = publish or (lambda channel, message: None)
        self.flood = flood or FloodLimit()

    def post(self, record: MatchRecord, user: Identity, room: str, text: str | None = None,
             phrase: str | None = None) -> ChatLine:
        """Store one line and publish it to its room's channel; returns the line."""
        if room not in ROOMS:
            raise Invalid(f"room must be one of {', '.join(ROOMS)}.", code="invalid_room")
        if (text is None) == (phrase is None):
            raise Invalid("Send either text or a quick phrase.", code="invalid_request")
        check_read(record, user.id, room)
        if phrase is not None and phrase not in PHRASES:
            raise Invalid(f"Unknown quick phrase {phrase!r}.", code="unknown_phrase")
        cleaned = clean_text(text) if text is not None else None
        if cleaned is not None and room == SPECTATORS and user.kind == "guest":
            raise Forbidden("Guests send quick phrases in the spectators' room: sign up to write "
                            "freely.", code="guests_quick_phrases_only")
        if room == PLAYERS:
            others = [uid for uid in seated_ids(record) if uid != user.id]
            if others and blockers_among(self.session, user.id, others) == set(others):
                raise Forbidden("That player has blocked you.", code="blocked")
        refuse_muted(self.session, user.id)
        self.flood.take(user.id)
        message = ChatMessage(match_id=record.id, room=room, user_id=user.id, text=cleaned,
                              phrase=phrase)
        self.session.add(message)
        self.session.commit()
        self.session.refresh(message)
        line = line_json(message)
        hidden_for = sorted(set(self.session.scalars(
            select(UserRelation.owner_id).where(UserRelation.target_id == user.id))))
        published = bus_form(ChatLineMessage.model_validate({"type": "chatLine", **line}))
        self.publish(chat_channel(record.id, room), {**published, HIDDEN_FOR: hidden_for})
        return line

    def lines(self, record: MatchRecord, viewer_id: int | None, room: str) -> list[ChatLine]:
        """The room's last lines, oldest first, without those of users the viewer hides."""
        if room not in ROOMS:
            raise Invalid(f"room must be one of {', '.join(ROOMS)}.", code="invalid_room")
        check_read(record, viewer_id, room)
        hidden = hidden_from(self.session, viewer_id)
        query = (select(ChatMessage).where(ChatMessage.match_id == record.id,
                                           ChatMessage.room == room,
                                           ChatMessage.hidden_at.is_(None))
                 .order_by(ChatMessage.id.desc()).limit(HISTORY_LIMIT))
        if hidden:
            query = query.where(ChatMessage.user_id.not_in(hidden))
        return [line_json(m) for m in reversed(self.session.scalars(query).all())]

    def message(self, message_id: int) -> ChatMessage:
        found = self.session.get(ChatMessage, message_id)
        if found is None:
            raise NotFound(f"There is no chat line {message_id}.", code="no_chat_line")
        return found

    def hide(self, message_id: int, moderator_id: int) -> ChatMessage:
        """Hide a line for everyone (a moderator's act; the caller logs it and commits): gone
        from every history, and once committed, ``announce_hidden`` tells its room's readers."""
        message = self.message(message_id)
        hidden = self.session.execute(
            update(ChatMessage).where(ChatMessage.id == message_id, ChatMessage.hidden_at.is_(None))
            .values(hidden_at=utcnow(), hidden_by=moderator_id)
            .execution_options(synchronize_session=False))
        if rows_matched(hidden) != 1:  # hidden already, or by another moderator meanwhile
            self.session.rollback()
            raise Conflict("That line is hidden already.", code="already_hidden")
        return message

    def announce_hidden(self, message: ChatMessage) -> None:
        """Tell every reader of the line's room (on every instance) to remove it."""
        self.publish(chat_channel(message.match_id, message.room), bus_form(
            ChatHiddenMessage.model_validate({"type": "chatHidden", "id": message.id,
                                              "match_id": message.match_id,
                                              "room": message.room})))


MUTED_MESSAGE = i18n.N_("A moderator muted you from chat until {until} UTC.")


def refuse_muted(session: Session, user_id: int) -> None:
    """403 ``chat_muted`` (with ``until``) while a moderator's mute lasts."""
    until = session.scalar(select(User.chat_muted_until).where(User.id == user_id))
    if until is not None and until > utcnow():
        raise Forbidden(i18n.gettext(MUTED_MESSAGE).format(until=until.strftime("%Y-%m-%d %H:%M")),
                        code="chat_muted", extra={"until": until.isoformat() + "Z"})
