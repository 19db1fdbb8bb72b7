"""The shapes of the JSON columns the server itself fixes (a match's and a seek's time control, a
match's clock), so the tables, the match records and the clocks agree on one type. Columns whose
shape a game decides (options, snapshot, result details) stay ``JSONObject``."""

from __future__ import annotations

from typing import Literal, NotRequired, Required, TypedDict


class StoredTimeControl(TypedDict, total=False):
    """A time control as stored (``clocks.parse_time_control``): what was asked, plus the
    milliseconds the clocks run on — ``initial_ms`` + ``increment_ms`` (real time) or
    ``per_move_ms`` (correspondence)."""

    kind: Required[Literal["realtime", "correspondence"]]
    minutes: float
    increment: int
    initial_ms: int
    increment_ms: int
    days: int
    per_move_ms: int


class StoredClock(TypedDict):
    """A match's clock as stored: each seat's remaining time when the current turn started."""

    remaining_ms: list[int]
    turn_started_at: str  # ISO time
    running: bool  # False until every seat has moved once
    moved: list[int]  # the seats that have moved
    berserk: NotRequired[list[int]]  # arena seats that halved their time
    away: NotRequired[list[int]]  # correspondence seats on vacation
    paused_ms: NotRequired[int]  # what the seat to move had left when its clock paused
