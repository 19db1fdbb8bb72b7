"""Request and response bodies of the public API (third-party clients depend on these names)."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from app.accounts import MIN_PASSWORD_LENGTH
from app.kernel.identity import MAX_NAME_LENGTH
from app.match.clocks import TimeControl
from app.match.openapi import GAME_RULES, GAME_VIEW
from games import registry


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, examples=["Aiko"])


class UserOut(BaseModel):
    id: int
    name: str
    kind: str


class PlaybanOut(BaseModel):
    """A wait before your next rated game, earned by abandoning rated games (docs/security.md,
    "Fair play")."""

    reason: Literal["sitting", "rage_quit", "no_start", "abort"] = Field(description=(
        "How the game that earned it was abandoned: `sitting` (let the clock run out), "
        "`rage_quit` (left without resigning), `no_start` (no first move), `abort`."))
    started_at: str
    until: str = Field(description="When rated games may start again (UTC).")
    minutes: int = Field(description="The wait's whole length.")
    minutes_left: int
    message: str = Field(description="Why and until when, in your language.")


class PlaybanStatusOut(BaseModel):
    playban: PlaybanOut | None = Field(description="The wait in effect; null: none.")


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
    model_config = ConfigDict(extra="forbid", json_schema_extra={GAME_RULES: True})

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
    vacation: bool = Field(default=False, description=(
        "The player is on vacation: their correspondence clock stands still on their turn."))


class RatingChangeOut(BaseModel):
    """One seat's rating across a rated game's end (mu, rounded as pages show it)."""

    seat: int
    before: float
    after: float
    delta: float


class ResultOut(BaseModel):
    winners: list[int]
    ranking: list[list[int]]
    scores: list[float] | None = None
    reason: str
    details: dict[str, Any] = Field(default_factory=dict)
    rating_changes: list[RatingChangeOut] | None = Field(default=None, description=(
        "A rated game's rating change per seat, written in the transaction that finished it."))


class MoveRecordOut(BaseModel):
    ply: int = Field(ge=1)
    seat: int = Field(ge=0)
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
    ply: int = Field(ge=0, description="Moves made so far (send it with your move).")
    version: int = Field(default=0, ge=0, description=(
        "Bumped by every change (a takeback lowers `ply`; `version` only grows)."))
    to_move: int | None = Field(ge=0, description=(
        "The seat to move next; null unless the match is active. Not always the next seat: "
        "one seat may move several times in a row (Scalas: a placement's forced cubes; Town "
        "of Stairs: every choice of a walk). Read it after every move."))
    your_seat: int | None
    view: dict[str, Any] = Field(json_schema_extra={GAME_VIEW: True}, description=(
        "The game's position as your seat may see it (its schema: the game's view)."))
    legal_moves: list[str] = Field(description="Non-empty only for the seat to move.")
    last_move: dict[str, Any] | None
    result: ResultOut | None
    rated: bool = False
    time_control: dict[str, Any] | None = Field(default=None, description=STORED_TIME_CONTROL)
    clock: dict[str, Any] | None = Field(default=None, description=(
        "remaining_ms per seat as of `as_of`, `ticking` seat (null before every seat moved), "
        "`first_move_ms` left before an unstarted match aborts, `paused` while the seat to "
        "move is on vacation (correspondence: the clock stands still)."))
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
    password: str = Field(min_length=1, max_length=200, json_schema_extra={
        "minLength": MIN_PASSWORD_LENGTH}, description=(
        f"At least {MIN_PASSWORD_LENGTH} characters (422 `weak_password` otherwise)."))
    name: str | None = Field(default=None, max_length=MAX_NAME_LENGTH, description="Display name.")
    email: str | None = Field(default=None, max_length=254, description=(
        "Optional: an address for password resets and the digest; a confirmation mail is sent "
        "to it. Only on a server that sends mail (else 404 `email_disabled`)."))


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class SessionOut(BaseModel):
    token: str
    user: UserOut


class SeekIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={GAME_RULES: True})

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt | None = Field(default=None, ge=1, le=8)
    rated: bool = False
    time_control: TimeControl | None = None
    seat: Seat = "random"


class ChallengeIn(BaseModel):
    """Name the challenged player with `user`, or several with `users` (one of the two)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={GAME_RULES: True})

    user: str | None = Field(default=None, description=(
        "Username or user id of the challenged player (a two-player match)."))
    users: list[str] | None = Field(default=None, min_length=1, max_length=7, description=(
        "The challenged players, one per other seat: two or three for a 3- or 4-player Town "
        "match. Each accepts or declines; the match starts when all accepted. A built-in bot "
        "(`bot-easy`, `bot-medium`, `bot-hard`) accepts at once and may be named several times."),
        examples=[["aiko", "bot-medium"]])
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    time_control: TimeControl | None = None
    seat: Seat = Field(default="random", description="Your seat (0 = first player) or random.")

    @model_validator(mode="after")
    def _one_way_to_name(self) -> ChallengeIn:
        if (self.user is None) == (self.users is None):
            raise ValueError("name the challenged player with `user`, or several with `users`")
        return self

    @property
    def invited(self) -> list[str]:
        return [self.user] if self.user is not None else list(self.users or [])


DeclineReason = Literal["generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual",
                        "standard", "variant", "noBot", "onlyBot"]
DECLINE_REASONS: tuple[str, ...] = get_args(DeclineReason)


class DeclineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: DeclineReason = Field(default="generic", description=(
        "Why (Lichess's codes): `generic` not now, `later` ask again later, `tooFast` / "
        "`tooSlow` / `timeControl` the clock, `rated` / `casual` send the other kind, "
        "`standard` the game's default options please, `variant` not this game or these "
        "options, `noBot` / `onlyBot` not with bots / only with bots."))


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
    target: dict[str, Any] | None = Field(description=(
        "A challenge's (first) invited player; null for other seeks."))
    targets: list[dict[str, Any]] = Field(default_factory=list, description=(
        "Every player a challenge invites, in order (empty for other seeks)."))
    joined: list[dict[str, Any]] = Field(description=(
        "Who is in so far, the creator first (a challenge: the creator and who accepted)."))
    status: Literal["open", "matched", "cancelled", "declined", "expired"]
    match_id: str | None
    created_at: str
    decline_reason: str | None = Field(default=None, description=(
        "A declined challenge: the reason code (`DeclineIn.reason`)."))
    declined_by: dict[str, Any] | None = Field(default=None, description=(
        "A declined challenge: who declined (`{id, name}`)."))


class RecordUserOut(BaseModel):
    id: int
    name: str
    kind: str
    bot: bool


class RecordPlayerOut(BaseModel):
    seat: int = Field(ge=0)
    user: RecordUserOut | None
    rating: float | None = Field(description="The player's displayed rating in this game, if rated.")


class RecordMoveOut(BaseModel):
    ply: int = Field(ge=1)
    seat: int = Field(ge=0)
    move: str
    time_spent_ms: int | None


class GameRecordOut(BaseModel):
    """A match as a game record (`GET /api/v1/matches/{id}/export`, `format=json`)."""

    format: str = Field(examples=["stepwell-record"])
    version: int
    match_id: str
    game: str
    title: str
    options: dict[str, Any] = Field(description="The options, secret ones left out.")
    seed: str | None = Field(description=(
        "The seed that fixes every shuffle, as a decimal string; null until it may be shown."))
    num_seats: int = Field(ge=1)
    rules_version: int = Field(ge=1)
    players: list[RecordPlayerOut]
    rated: bool
    time_control: dict[str, Any] | None = Field(description=STORED_TIME_CONTROL)
    status: Literal["waiting", "active", "finished", "aborted"]
    date: str = Field(examples=["2026.11.23"])
    created_at: str | None
    started_at: str | None
    finished_at: str | None
    result: ResultOut | None
    moves: list[RecordMoveOut]


class RatingOut(BaseModel):
    """A player's rating in one game (openskill's Plackett-Luce: `mu` and `sigma`)."""

    mu: float
    sigma: float
    games: int = Field(ge=0, description="Rated games played.")
    provisional: bool = Field(description="Fewer than 10 rated games.")
    display: float = Field(description="`mu`, rounded: what pages show.")


class LeaderUserOut(BaseModel):
    id: int
    name: str
    username: str | None
    kind: str


class LeaderRowOut(RatingOut):
    """One line of a game's leaderboard."""

    rank: int = Field(ge=1)
    user: LeaderUserOut


class ReplayStepOut(BaseModel):
    """The spectators' view after one ply (ply 0: the start)."""

    ply: int = Field(ge=0)
    move: str | None
    seat: int | None
    view: dict[str, Any] = Field(json_schema_extra={GAME_VIEW: True},
                                 description="The game's position (spectator view).")
