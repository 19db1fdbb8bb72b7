"""What travels to clients over sockets and streams: every message is a pydantic model (its
published schema), encoded once into a :class:`Wire` that every connection showing it sends as
it is.

The models live with the domain that builds them (``app/<domain>/messages.py``); this module holds
the base class, the encoding, the one way to send, and the transport's own messages. The catalog
served at ``GET /api/v1/schemas`` (``app/protocol``) gathers them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict
from starlette.websockets import WebSocket

from app.realtime.bus import LOCAL_WIRE


class Message(BaseModel):
    """Unknown fields are allowed so that adding a field never breaks a client's validation."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True, slots=True)
class Wire:
    """One message as clients receive it (compact JSON text), made only by :func:`encode`: a
    connection that forwards a message many sockets show sends the same text, encoded once."""

    text: str

    def line(self) -> bytes:
        """The message as one NDJSON line."""
        return (self.text + "\n").encode()


def _fields(value: object) -> dict[str, Any]:
    """A model's fields as the encoder writes them: those given (declared ones in order, then
    extras), so a message carries exactly what its builder put in it."""
    if isinstance(value, BaseModel):
        fields = value.__dict__
        given = value.__pydantic_fields_set__
        if len(given) < len(fields):
            fields = {k: v for k, v in fields.items() if k in given}
        extra = value.__pydantic_extra__
        return {**fields, **extra} if extra else fields
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def encode(message: Message) -> Wire:
    """The message's JSON: what ``model_dump_json(exclude_unset=True)`` gives (protocol models
    have no aliases or custom serialisers: a test holds the two equal), written by orjson, which
    is quicker and also writes a model built with ``model_construct`` from data already checked
    (the match views on the move path) without a validation pass."""
    return Wire(orjson.dumps(message, default=_fields).decode())


async def send(websocket: WebSocket, message: Message | Wire) -> None:
    """The one way a message reaches a socket."""
    wire = message if isinstance(message, Wire) else encode(message)
    await websocket.send_text(wire.text)


def bus_form(message: Message) -> dict[str, Any]:
    """A message as the event bus carries it to the connections that forward it (plain JSON
    data: it may cross Redis to other instances), with the fields its builder gave, as
    :func:`encode` writes them."""
    return message.model_dump(mode="json", exclude_unset=True)


def forwarded(message: dict[str, Any], model: type[Message], drop: tuple[str, ...] = (), *,
              variant: str = "", content: Callable[[], Message] | None = None) -> Wire:
    """A bus message that connections forward (presence, chat lines, lobby events…), read by
    its model and encoded once per process: the bus hands the same dict to every local
    subscriber, so the first one to send it keeps the text on it for the others. ``drop``:
    routing fields that are not sent; ``variant`` and ``content``: another message derived from
    this one and shared as well (the seeks everyone may see)."""
    kept = message.get(LOCAL_WIRE)
    if not isinstance(kept, dict):
        kept = message[LOCAL_WIRE] = {}
    found = kept.get(variant)
    if found is None:
        skip = (LOCAL_WIRE, *drop)
        found = kept[variant] = encode(content() if content is not None else model.model_validate(
            {k: v for k, v in message.items() if k not in skip}))
    assert isinstance(found, Wire)
    return found


class PongMessage(Message):
    """The answer to `ping`."""

    type: Literal["pong"]


PONG = encode(PongMessage(type="pong"))


class PresenceMessage(Message):
    """How many watch, and which seats have a socket open (at most every 250 ms)."""

    type: Literal["presence"]
    spectators: int
    online_seats: list[int]
