"""Every message the sockets and the NDJSON streams carry, as pydantic models: the protocol.

Each model lives with the code that builds it (``app/<package>/messages.py``; the account and
match streams' own events are here, beside the streams' package) and is gathered here, with the
unions per channel. Published at ``GET /api/v1/schemas`` (and so in the OpenAPI components) with
an example each. ``PROTOCOL_VERSION`` grows only when a message changes incompatibly; new
optional fields and new message types do not change it, so clients must ignore fields and types
they do not know.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from app.analysis import AnalysisMessage
from app.chat import ChatHiddenMessage, ChatLineMessage, ChatUser
from app.http.messages import ERROR_CODES, ErrorMessage
from app.lobby import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
    SeeksMessage,
)
from app.match import (
    AckMessage,
    ClockMessage,
    LiveMatchMessage,
    MatchOut,
    MoveRequest,
    OfferMessage,
    PingRequest,
    RatedSeatOut,
    RatedUserOut,
    ResultMessage,
    ResultOut,
    SeatOut,
    SeekOut,
    StateMessage,
    SyncRequest,
)
from app.moderation import ModerationNoticeMessage, ModerationNoticeOut
from app.realtime.messages import Message, PongMessage, PresenceMessage

PROTOCOL_VERSION = 1

__all__ = [
    "ERROR_CODES", "PROTOCOL_VERSION", "AckMessage", "AnalysisMessage", "ChallengeCanceledMessage",
    "ChallengeDeclinedMessage", "ChatHiddenMessage", "ChatLineMessage", "ChatUser", "ClockMessage",
    "ErrorMessage", "LiveMatchMessage", "LobbyChallengeMessage", "MatchStartedMessage", "Message",
    "ModerationNoticeMessage", "ModerationNoticeOut", "MoveRequest",
    "OfferMessage", "PingRequest", "PongMessage", "PresenceMessage", "RatedSeatOut",
    "RatedUserOut", "ResultMessage", "SeeksMessage", "StateMessage", "SyncRequest",
]


# -- account event stream: GET /api/v1/stream/event (NDJSON) and WS /api/v1/stream/event/ws --------

class GameSummary(BaseModel):
    """Enough about a match to decide whether to open its stream."""

    id: str
    game: str
    status: Literal["waiting", "active", "finished", "aborted"]
    seats: list[SeatOut]
    your_seat: int | None
    rated: bool
    time_control: dict[str, Any] | None
    result: ResultOut | None = None
    url: str = Field(description="The match page, relative to the site.")
    tournament: str | None = Field(None, description="The tournament this game is part of.")


Direction = Annotated[Literal["in", "out"], Field(description=(
    "`in`: you are invited to it; `out`: you sent it."))]


class ChallengeEvent(Message):
    """A challenge to you (or by you) was created; on connect, one per open challenge to you
    that you have not accepted yet."""

    type: Literal["challenge"]
    challenge: SeekOut
    direction: Direction = "in"


class ChallengeCanceledEvent(Message):
    """The challenger withdrew a challenge you are in (or it expired)."""

    type: Literal["challengeCanceled"]
    challenge: SeekOut
    direction: Direction = "in"


class ChallengeDeclinedEvent(Message):
    """A challenge you are in was declined by an invited player: it is over for everyone.
    `challenge.decline_reason` says why, `challenge.declined_by` who."""

    type: Literal["challengeDeclined"]
    challenge: SeekOut
    direction: Direction = "in"


class GameStartEvent(Message):
    """A match of yours started (seek, quick play, challenge, private link, rematch, bots)."""

    type: Literal["gameStart"]
    game: GameSummary


class GameFinishEvent(Message):
    """A match of yours ended (finished or aborted)."""

    type: Literal["gameFinish"]
    game: GameSummary


# -- match stream: GET /api/v1/matches/{id}/stream (NDJSON) --------------------------------------------

class _GameFullType(Message):
    type: Literal["gameFull"]
    protocol: int = Field(default=PROTOCOL_VERSION, description="The protocol version.")


MOVES_DESCRIPTION = ("Every move so far in the game's notation, in order: `moves[i]` is ply "
                     "i + 1. One seat may have several moves in a row.")


class GameFullEvent(MatchOut, _GameFullType):
    """First line: the whole match for the token's seat (or the spectator view), with every
    move so far."""

    model_config = ConfigDict(extra="allow")
    moves: list[str] = Field(default_factory=list, description=MOVES_DESCRIPTION)


class _GameStateType(Message):
    type: Literal["gameState"]


class GameStateEvent(MatchOut, _GameStateType):
    """After every change: the whole match for your seat (what the socket's `state` has), with
    every move so far."""

    model_config = ConfigDict(extra="allow")
    moves: list[str] = Field(default_factory=list, description=MOVES_DESCRIPTION)


class StreamOfferEvent(Message):
    """Pending offers changed."""

    type: Literal["offer"]
    ply: int = Field(ge=0)
    offers: dict[str, Any]


class OpponentGoneEvent(Message):
    """Real-time games: opponents without a connection; `claim_win_in_seconds` is when
    `POST /claim-victory` succeeds (0 = now), null when they are back."""

    type: Literal["opponentGone"]
    gone: bool
    seats: list[int]
    claim_win_in_seconds: int | None


class StreamFinishEvent(Message):
    """The match ended; the stream closes after this line."""

    type: Literal["gameFinish"]
    status: Literal["finished", "aborted"]
    result: ResultOut | None


# -- notices on the account event stream ----------------------------------------------------------

class GameBrief(BaseModel):
    """A match of yours, for a notice: its game, ply, opponents and page."""

    id: str
    game: str
    status: str
    ply: int = Field(ge=0)
    your_seat: int | None
    opponents: list[str | None]
    time_control: dict[str, Any] | None
    last_move: dict[str, Any] | None = None
    url: str


class YourTurnEvent(Message):
    """A match of yours waits for your move (once per ply; on connect, one per such match)."""

    type: Literal["yourTurn"]
    game: GameBrief


class AccountOfferEvent(Message):
    """Another player of your match offers a draw, a takeback, an agreed end or a rematch."""

    type: Literal["offer"]
    kind: Literal["draw", "takeback", "end", "rematch"]
    game: GameBrief


class FollowedPerson(BaseModel):
    id: int
    name: str


class FollowedGameEvent(Message):
    """A person you follow, with `notify` on, started a game: watch it at `game.url` (once per
    game; never when you play in it, nor when one of you has blocked the other)."""

    type: Literal["followedGame"]
    user: FollowedPerson
    game: GameSummary


# -- tournament sockets: WS /api/v1/tournaments/ws and WS /api/v1/tournaments/{id}/ws ----------------

class TournamentMessage(Message):
    """A tournament changed (a player joined or left, a game ended, a round was paired, it
    started or finished): read it again with `GET /api/v1/tournaments/{id}`."""

    type: Literal["tournament"]
    id: str
    status: str = Field(examples=["upcoming", "running", "finished"])
    round: int
    version: int


MatchSocketMessage = Annotated[
    StateMessage | ClockMessage | OfferMessage | ResultMessage | PresenceMessage | AckMessage
    | ErrorMessage | PongMessage | ChatLineMessage | ChatHiddenMessage | AnalysisMessage,
    Field(discriminator="type")]
MatchSocketRequest = Annotated[MoveRequest | SyncRequest | PingRequest, Field(discriminator="type")]
LobbySocketMessage = Annotated[
    SeeksMessage | LobbyChallengeMessage | MatchStartedMessage | ChallengeDeclinedMessage
    | ChallengeCanceledMessage | ErrorMessage | PongMessage, Field(discriminator="type")]
EventStreamMessage = Annotated[
    ChallengeEvent | ChallengeCanceledEvent | ChallengeDeclinedEvent | GameStartEvent
    | GameFinishEvent | YourTurnEvent | AccountOfferEvent | ModerationNoticeMessage
    | FollowedGameEvent, Field(discriminator="type")]
TournamentSocketMessage = Annotated[TournamentMessage | PongMessage, Field(discriminator="type")]
MatchStreamMessage = Annotated[
    GameFullEvent | GameStateEvent | StreamOfferEvent | OpponentGoneEvent | StreamFinishEvent
    | ChatLineMessage | ChatHiddenMessage, Field(discriminator="type")]


class EventStreamLine(RootModel[EventStreamMessage]):
    """One line of `GET /api/v1/stream/event` (empty lines only keep the connection open);
    `type` tells which message it is. Ignore types you do not know."""


class MatchStreamLine(RootModel[MatchStreamMessage]):
    """One line of `GET /api/v1/matches/{id}/stream` (empty lines only keep the connection
    open); `type` tells which message it is. Ignore types you do not know."""
