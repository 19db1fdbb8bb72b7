"""Every message the sockets and the NDJSON streams carry, as pydantic models: the protocol.

Published at ``GET /api/v1/schemas`` (and so in the OpenAPI components) with an example each.
``PROTOCOL_VERSION`` grows only when a message changes incompatibly; new optional fields and new
message types do not change it, so clients must ignore fields and types they do not know.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.match import MatchOut, ResultOut, SeatOut, SeekOut

PROTOCOL_VERSION = 1

ERROR_CODES = ("stale_ply", "not_your_turn", "illegal_move", "time_out", "not_a_player",
               "match_not_active", "rate_limited", "invalid_token", "no_match", "invalid_request",
               "missing_scope", "credential_ended", "match_sealed")


class Message(BaseModel):
    """Unknown fields are allowed so that adding a field never breaks a client's validation."""

    model_config = ConfigDict(extra="allow")


# -- match socket: WS /api/v1/matches/{id}/ws ------------------------------------------------------

class StateMessage(MatchOut):
    """The whole match for your seat: on connect, after every change, and in answer to `sync`."""

    model_config = ConfigDict(extra="allow")
    type: Literal["state"]


class ClockMessage(Message):
    """Remaining time per seat as of `as_of`; `ticking` is the seat whose clock runs."""

    type: Literal["clock"]
    ply: int
    remaining_ms: list[int]
    ticking: int | None
    running: bool
    first_move_ms: int | None = Field(description="Left before an unstarted match aborts.")
    as_of: str
    kind: Literal["realtime", "correspondence"]


class OfferMessage(Message):
    """Pending offers changed: kind -> seats that agreed (`rematch_match` once a rematch exists)."""

    type: Literal["offer"]
    ply: int
    offers: dict[str, Any]


class ResultMessage(Message):
    """The match ended (finished with a result, or aborted with none)."""

    type: Literal["result"]
    status: Literal["finished", "aborted"]
    result: ResultOut | None


class PresenceMessage(Message):
    """How many watch, and which seats have a socket open (at most every 250 ms)."""

    type: Literal["presence"]
    spectators: int
    online_seats: list[int]


class AckMessage(Message):
    """Your socket move was played; `ply` is the match's new ply (a `state` follows)."""

    type: Literal["ack"]
    id: str | int | None = None
    ply: int
    version: int | None = Field(default=None, description="The match's new version.")


class ErrorMessage(Message):
    """A request on the socket failed (same codes as the REST API), or the socket is refused
    (`invalid_token`, `no_match`; the socket then closes with 4401 / 4404)."""

    type: Literal["error"]
    id: str | int | None = None
    code: str = Field(examples=list(ERROR_CODES))
    message: str


class PongMessage(Message):
    """The answer to `ping`."""

    type: Literal["pong"]


class MoveRequest(Message):
    """Client → server: play `move` at `ply`; answered by `ack` or `error` carrying your `id`."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=40)
    ply: int = Field(ge=0)
    id: str | int | None = Field(default=None, description="Your tag, echoed in the answer.")


class SyncRequest(Message):
    """Client → server: send me the current `state` again (after a gap in `ply`)."""

    type: Literal["sync"]


class PingRequest(Message):
    """Client → server: keep-alive; answered by `pong`."""

    type: Literal["ping"]


# -- lobby socket: WS /api/v1/lobby/ws -------------------------------------------------------------

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


# -- live socket: WS /api/v1/live/ws -----------------------------------------------------------------

class LiveMatchMessage(MatchOut):
    """A match in play changed: its public (spectator) view and how many watch it."""

    model_config = ConfigDict(extra="allow")
    type: Literal["match"]
    spectators: int


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


class ChallengeEvent(Message):
    """A challenge to you (or by you) was created."""

    type: Literal["challenge"]
    challenge: SeekOut


class ChallengeCanceledEvent(Message):
    """The challenger withdrew a challenge to you (or it expired)."""

    type: Literal["challengeCanceled"]
    challenge: SeekOut


class ChallengeDeclinedEvent(Message):
    """Your challenge was declined."""

    type: Literal["challengeDeclined"]
    challenge: SeekOut


class GameStartEvent(Message):
    """A match of yours started (seek, quick play, challenge, private link, rematch, bots)."""

    type: Literal["gameStart"]
    game: GameSummary


class GameFinishEvent(Message):
    """A match of yours ended (finished or aborted)."""

    type: Literal["gameFinish"]
    game: GameSummary


# -- match stream: GET /api/v1/matches/{id}/stream (NDJSON) --------------------------------------------

class GameFullEvent(MatchOut):
    """First line: the whole match for the token's seat (or the spectator view)."""

    model_config = ConfigDict(extra="allow")
    type: Literal["gameFull"]
    protocol: int = Field(default=PROTOCOL_VERSION, description="The protocol version.")


class GameStateEvent(MatchOut):
    """After every change: the whole match for your seat, exactly what the socket's `state` has."""

    model_config = ConfigDict(extra="allow")
    type: Literal["gameState"]


class StreamOfferEvent(Message):
    """Pending offers changed."""

    type: Literal["offer"]
    ply: int
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


# -- chat and notices -----------------------------------------------------------------------------

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


class GameBrief(BaseModel):
    """A match of yours, for a notice: its game, ply, opponents and page."""

    id: str
    game: str
    status: str
    ply: int
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


MatchSocketMessage = Annotated[
    StateMessage | ClockMessage | OfferMessage | ResultMessage | PresenceMessage | AckMessage
    | ErrorMessage | PongMessage | ChatLineMessage, Field(discriminator="type")]
MatchSocketRequest = Annotated[MoveRequest | SyncRequest | PingRequest, Field(discriminator="type")]
LobbySocketMessage = Annotated[
    SeeksMessage | LobbyChallengeMessage | MatchStartedMessage | ChallengeDeclinedMessage
    | ErrorMessage | PongMessage, Field(discriminator="type")]
EventStreamMessage = Annotated[
    ChallengeEvent | ChallengeCanceledEvent | ChallengeDeclinedEvent | GameStartEvent
    | GameFinishEvent | YourTurnEvent | AccountOfferEvent, Field(discriminator="type")]
MatchStreamMessage = Annotated[
    GameFullEvent | GameStateEvent | StreamOfferEvent | OpponentGoneEvent | StreamFinishEvent
    | ChatLineMessage, Field(discriminator="type")]
