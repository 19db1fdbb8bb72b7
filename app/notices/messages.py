"""What a web push carries: the JSON the service worker turns into a notification.

One model for every kind, so the service worker reads the same fields whatever the kind; the
subject (``match``, ``tournament`` or ``challenge``) is present only where the kind has one.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

PushKind = Literal["yourTurn", "clockReminder", "gameOver", "challenge", "tournament",
                   "followedGame"]


class PushPayload(BaseModel):
    """A push's payload (encrypted for the device; the service worker shows ``title``/``body``
    and opens ``url`` on a tap)."""

    type: PushKind
    url: str
    title: str
    body: str
    match: str | None = None
    tournament: str | None = None
    challenge: str | None = None

    def wire(self) -> bytes:
        """The JSON sent, without the subjects the kind does not have."""
        return self.model_dump_json(exclude_none=True).encode()
