"""Request and response bodies of the public API (third-party clients depend on these names)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.kernel.identity import MAX_NAME_LENGTH
from app.match.clocks import TimeControl
from games import registry


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, examples=["Aiko"])


class UserOut(BaseModel):
    id: int
    name: str
    kind: str


class GuestOut(BaseModel):
    token: str = Field(description="Bearer token: send `Authorization: Bearer <token>`.")
    user: UserOut


class GameOut(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    can_draw: bool = Field(default=False, description="The game can end drawn; draws may be offered.")
    can_score_early: bool = Field(
        default=False, description="Players may agree to end early and score the position.")
    reasons: dict[str, str] = Field(
        default_factory=dict, description="The game's result reason codes and their English labels.")
    options: dict[str, Any] = Field(description="JSON schema of the game's options.")
    defaults: dict[str, Any]


STORED_TIME_CONTROL = ("The time control as sent (`clocks.TimeControl`), with the milliseconds the "
                       "clocks run on: `initial_ms` + `increment_ms` (real time) or `per_move_ms`.")

Seat = StrictInt | Literal["random"]
"""JSON booleans are not seat numbers (pydantic's lax mode would read ``true`` as 1)."""


class MatchCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    time_control: TimeControl | None = Field(default=None, examples=[
        {"kind": "realtime", "minutes": 5, "increment": 3}, {"kind": "correspondence", "days": 3}])
    game: str = Field(examples=registry.ids()[:1])
    options: dict[str, Any] = Field(default_factory=dict)
    seat: Seat | None = Field(default=None, description="Seat to take; omitted = first free.")
    players: StrictInt | None = Field(default=None, ge=1, le=8,
                                description="Number of seats (defaults to the minimum).")
    bot: Literal["easy", "medium", "hard"] | None = Field(
        default=None, description="Fill the other seats with a built-in bot of this level.")


class BotsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Literal["easy", "medium", "hard"] = "medium"


class MatchJoin(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Seat | None = None


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=40, examples=["a1-b2"])
    ply: StrictInt = Field(ge=0, description="The match's current ply (moves made so far).")


class SeatOut(BaseModel):
    seat: int
    user: UserOut | None


class ResultOut(BaseModel):
    winners: list[int]
    ranking: list[list[int]]
    scores: list[float] | None = None
    reason: str
    details: dict[str, Any] = Field(default_factory=dict)


class MoveRecordOut(BaseModel):
    ply: int
    seat: int
    move: str
    time_spent_ms: int | None
    at: str


class MatchOut(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    fixed_deal: bool = Field(default=False, description=(
        "A casual game whose creator fixed the deal (see `SeekOut.fixed_deal`); its rematch "
        "is dealt by the server."))
    status: Literal["waiting", "active", "finished", "aborted"]
    seats: list[SeatOut]
    ply: int
    version: int = Field(default=0, description=(
        "Bumped by every change (a takeback lowers `ply`; `version` only grows)."))
    to_move: int | None
    your_seat: int | None
    view: dict[str, Any] = Field(description="The game position as your seat may see it.")
    legal_moves: list[str] = Field(description="Non-empty only for the seat to move.")
    last_move: dict[str, Any] | None
    result: ResultOut | None
    rated: bool = False
    time_control: dict[str, Any] | None = Field(default=None, description=STORED_TIME_CONTROL)
    clock: dict[str, Any] | None = Field(default=None, description=(
        "remaining_ms per seat as of `as_of`, `ticking` seat (null before every seat moved), "
        "`first_move_ms` left before an unstarted match aborts."))
    offers: dict[str, Any] = Field(default_factory=dict, description=(
        "Pending offers: kind -> seats that agreed; `rematch_match` once a rematch exists."))
    eliminated: list[int] = Field(default_factory=list, description="Seats that left, in order.")
    rematch_of: str | None = None
    tournament: str | None = Field(default=None, description="The tournament it is played in.")
    sealed: bool = Field(default=False, description=(
        "A duplicate round's table while the round runs: only its seated players may read it "
        "(403 `match_sealed` for everyone else) until the round ends at every table."))
    offer_kinds: list[str] = Field(default_factory=list, description="Offers this game allows.")
    created_at: str
    started_at: str | None
    finished_at: str | None


class AccountIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=1, max_length=40, examples=["aiko"])
    password: str = Field(min_length=1, max_length=200)
    name: str | None = Field(default=None, max_length=MAX_NAME_LENGTH, description="Display name.")


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class SessionOut(BaseModel):
    token: str
    user: UserOut


class SeekIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt | None = Field(default=None, ge=1, le=8)
    rated: bool = False
    time_control: TimeControl | None = None
    seat: Seat = "random"


class ChallengeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user: str = Field(description="Username or user id of the challenged player.")
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    time_control: TimeControl | None = None
    seat: Seat = Field(default="random", description="Your seat (0 = first player) or random.")


class QuickPlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str


class SeekOut(BaseModel):
    id: str
    kind: Literal["open", "quick", "challenge"]
    game: str
    options: dict[str, Any]
    fixed_deal: bool = Field(default=False, description=(
        "Its creator fixed hidden information (Town's start cards or a deck order): they may "
        "know cards the others cannot see. The options themselves stay secret."))
    fixed_deal_note: str | None = Field(default=None, description="The same, in words.")
    seats: int
    rated: bool
    time_control: dict[str, Any] | None = Field(description=STORED_TIME_CONTROL)
    creator: dict[str, Any]
    target: dict[str, Any] | None
    joined: list[dict[str, Any]]
    status: str
    match_id: str | None
    created_at: str
