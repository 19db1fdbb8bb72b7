"""The lobby socket's messages (WS /api/v1/lobby/ws): the open seeks for everyone, and a user's
own challenges and matches starting (their channel also feeds the account event stream)."""

from __future__ import annotations

from typing import Literal

from app.match import SeekOut
from app.realtime.messages import Message


class SeeksMessage(Message):
    """The open seeks you may see (challenges only when they involve you), on every change."""

    type: Literal["seeks"]
    seeks: list[SeekOut]


class LobbyChallengeMessage(Message):
    """Someone challenged you."""

    type: Literal["challenge"]
    seek: SeekOut


class MatchStartedMessage(Message):
    """A seek you are in became a match: go there."""

    type: Literal["match_started"]
    match_id: str
    seek_id: str


class ChallengeDeclinedMessage(Message):
    """The player you challenged said no."""

    type: Literal["challenge_declined"]
    seek: SeekOut


class ChallengeCanceledMessage(Message):
    """The player who challenged you withdrew the challenge (or it expired)."""

    type: Literal["challenge_canceled"]
    seek: SeekOut


PersonalMessage = (LobbyChallengeMessage | MatchStartedMessage | ChallengeDeclinedMessage
                   | ChallengeCanceledMessage)
"""What a user's own channel carries."""
