"""The people API's answers: found users, profiles and recent games."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.kernel.json_types import JSONObject
from app.match import RatingOut


class FoundUserOut(BaseModel):
    id: int
    name: str
    username: str | None
    kind: str
    builtin_bot: bool = Field(description="One of the server's own bots.")


class RecentGameOut(BaseModel):
    id: str
    game: str
    status: Literal["waiting", "active", "finished", "aborted"]
    rated: bool
    seat: int = Field(ge=0)
    outcome: Literal["win", "loss", "draw"] | None = Field(description="Once finished.")
    opponents: list[str | None] = Field(description="Their names; null for a free seat.")
    finished_at: str | None
    started_at: str | None


class ProfileUserOut(BaseModel):
    id: int
    name: str
    kind: str
    username: str | None
    member_since: str
    builtin_bot: bool


class ProfileOut(BaseModel):
    """A user's profile as you may see it."""

    user: ProfileUserOut
    ratings: dict[str, RatingOut] = Field(description="By game id.")
    games_played: int = Field(ge=0)
    recent: list[RecentGameOut]


class GameInPlayOut(BaseModel):
    """One of your matches waiting or in play."""

    id: str
    game: str
    status: Literal["waiting", "active"]
    your_turn: bool
    opponents: list[str]
    updated_at: str = Field(description="When the match last changed (ISO 8601).")


class RatingPointOut(BaseModel):
    """Where one rated match left the person's rating."""

    match_id: str
    at: str = Field(description="When the match finished (ISO 8601, UTC).")
    rating: float = Field(description="The rating (mu) as pages show it, to a tenth.")
    delta: float = Field(description="The change of the shown rating in this match.")
    mu: float
    sigma: float | None = Field(description=(
        "Null on steps rebuilt from results stored before the history was kept."))


class HistoryOpponentOut(BaseModel):
    id: int
    name: str
    username: str | None


class StandoutOut(BaseModel):
    """A rated result: the opponent and their rating before the match."""

    match_id: str
    at: str
    opponent: HistoryOpponentOut
    opponent_rating: float


class GameHistoryOut(BaseModel):
    """A person's rating history in one game, oldest first."""

    game: str
    points: list[RatingPointOut]
    best_win: StandoutOut | None = Field(description="The highest-rated opponent beaten.")
    worst_loss: StandoutOut | None = Field(description="The lowest-rated opponent lost to.")


class ScoreOut(BaseModel):
    wins: int = Field(ge=0)
    draws: int = Field(ge=0)
    losses: int = Field(ge=0)


class GameTogetherOut(BaseModel):
    id: str
    game: str
    rated: bool
    outcome: Literal["win", "loss", "draw"] = Field(description="The first person's.")
    finished_at: str | None


class HeadToHeadOut(BaseModel):
    """How the first person fared against the second: wins, draws and losses per game and in
    all, and their last games together (newest first)."""

    user: HistoryOpponentOut
    other: HistoryOpponentOut
    total: ScoreOut
    games: dict[str, ScoreOut] = Field(description="By game id.")
    last: list[GameTogetherOut]


class FollowIn(BaseModel):
    notify: bool = Field(description="Tell me when they start a game.")


class LiveGameBriefOut(BaseModel):
    """A live game of a person you follow: watch it at `url`."""

    id: str
    game: str
    opponents: list[str]
    rated: bool
    url: str


class PersonLinkOut(BaseModel):
    """A person in one of your follow lists, with their presence and live games."""

    id: int
    name: str
    username: str | None
    kind: str
    since: str = Field(description="When the follow began (ISO 8601).")
    friend: bool = Field(description="You follow each other.")
    notify: bool = Field(description="You hear when they start a game (your follows only).")
    online: bool = Field(description="A page or program of theirs is connected now.")
    playing: list[LiveGameBriefOut] = Field(description="Their live games (3 at most).")


class ArchiveSeatOut(BaseModel):
    seat: int
    user_id: int
    name: str
    kind: str


class ArchiveGameOut(BaseModel):
    """A finished game an archive search found."""

    id: str
    game: str
    rated: bool
    finished_at: str = Field(description="When the game ended (ISO 8601, UTC).")
    players: list[ArchiveSeatOut]
    winners: list[int] = Field(description="The winning seats; empty: a draw.")
    reason: str | None = Field(description="The end reason's code (`GET /api/v1/games` lists "
                                           "each game's).")
    outcome: Literal["win", "loss", "draw"] | None = Field(
        description="The searched player's result (null without `player`).")
    options: JSONObject = Field(description="The options anyone may see.")
    replay_url: str = Field(description="The game's page, which replays it.")
