"""The chat line as the match socket and the match stream carry it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from app.realtime.messages import Message


class ChatUser(BaseModel):
    id: int
    name: str
    kind: str


class ChatLineMessage(Message):
    """A chat line in a room you may read (players: seated players; spectators: everyone else,
    and the players once the game is over). Plain text: never render it as markup. `phrase` is a
    quick-phrase code (`text` then holds its English words: translate the code)."""

    type: Literal["chatLine"]
    id: int
    match_id: str
    room: Literal["players", "spectators"]
    user: ChatUser
    text: str
    phrase: str | None = None
    created_at: str


class ChatHiddenMessage(Message):
    """A moderator hid a line of a room you read: remove it (its `id`) from what you show."""

    type: Literal["chatHidden"]
    id: int
    match_id: str
    room: Literal["players", "spectators"]
