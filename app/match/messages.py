"""The match socket's messages (WS /api/v1/matches/{id}/ws) and the Watch list's: what the
match package builds for its connections. Published with the rest at ``GET /api/v1/schemas``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from app.match.schemas import MatchOut, RatingOut, ResultOut, SeatOut, UserOut
from app.realtime.messages import Message


class _StateType(Message):
    type: Literal["state"]


class StateMessage(MatchOut, _StateType):
    """The whole match for your seat: on connect, after every change, and in answer to `sync`."""

    model_config = ConfigDict(extra="allow")


class ClockMessage(Message):
    """Remaining time per seat as of `as_of`; `ticking` is the seat whose clock runs."""

    type: Literal["clock"]
    ply: int = Field(ge=0)
    remaining_ms: list[int]
    ticking: int | None
    running: bool
    first_move_ms: int | None = Field(description="Left before an unstarted match aborts.")
    as_of: str
    kind: Literal["realtime", "correspondence"]
    paused: bool = Field(default=False, description=(
        "The seat to move is on vacation: its correspondence clock stands still."))


class OfferMessage(Message):
    """Pending offers changed: kind -> seats that agreed (`rematch_match` once a rematch exists)."""

    type: Literal["offer"]
    ply: int = Field(ge=0)
    offers: dict[str, Any]


class ResultMessage(Message):
    """The match ended (finished with a result, or aborted with none)."""

    type: Literal["result"]
    status: Literal["finished", "aborted"]
    result: ResultOut | None


class AckMessage(Message):
    """Your socket move was played; `ply` is the match's new ply (a `state` follows)."""

    type: Literal["ack"]
    id: str | int | None = None
    ply: int = Field(ge=0)
    version: int | None = Field(default=None, description="The match's new version.")


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


class _LiveType(Message):
    type: Literal["match"]


class RatedUserOut(UserOut):
    rating: RatingOut | None = Field(default=None, description="Accounts and bots only.")


class RatedSeatOut(SeatOut):
    user: RatedUserOut | None


class LiveMatchOut(MatchOut):
    """A match in play: its public (spectator) view, the players' ratings and how many watch
    it (`GET /api/v1/live`)."""

    seats: list[RatedSeatOut]  # type: ignore[assignment]  # the same seats, with ratings
    spectators: int = Field(ge=0)


class LiveMatchMessage(LiveMatchOut, _LiveType):
    """A match in play changed: its public (spectator) view, the players' ratings and how many
    watch it."""

    model_config = ConfigDict(extra="allow")
