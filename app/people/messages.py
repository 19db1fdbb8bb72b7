"""What the people package puts on the event bus (never sent to a client as it is)."""

from __future__ import annotations

from typing import Literal

from app.realtime.messages import Message


class FollowsChangedMessage(Message):
    """On a user's own channel: whom they follow changed; their account streams, on every
    instance, read their follows again."""

    type: Literal["follows_changed"]
