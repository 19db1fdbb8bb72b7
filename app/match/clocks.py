"""Time controls and chess-style clocks, as plain data stored on the match.

A time control is real-time (initial minutes + increment seconds per move), correspondence (days
per move) or none. The server is authoritative: the clock stores each seat's remaining time and
when the current turn started; ``deadline`` is the instant the player to move runs out, which a
background task (see app/match/timeouts.py) watches even when nobody is connected.

Clocks start once every seat has moved once; before that a generous first-move deadline applies,
and missing it aborts the match (no result, no rating) as on Lichess.

A correspondence clock also knows which seats are on vacation (``away``, app/match/vacation.py):
while the seat to move is away its clock stands still — ``paused_ms`` keeps what was left and
there is no deadline — and it runs on from there when the seat comes back.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, TypedDict, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.db.json_shapes import StoredClock, StoredTimeControl
from app.kernel.errors import Invalid
from app.kernel.json_types import JSONObject

DAY_MS = 24 * 3600 * 1000
FIRST_MOVE_MS = {"realtime": 60_000, "correspondence": DAY_MS}


class TimeControl(BaseModel):
    """The one time-control shape, and the API's field type: ``{"kind": "realtime", "minutes": 5,
    "increment": 3}``, ``{"kind": "correspondence", "days": 3}`` or ``{"kind": "none"}``."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["realtime", "correspondence", "none"]
    minutes: float | None = Field(default=None, gt=0, le=180)
    increment: int = Field(default=0, ge=0, le=180)
    days: int | None = Field(default=None, ge=1, le=14)

    @model_validator(mode="after")
    def _complete(self) -> TimeControl:
        if self.kind == "realtime" and self.minutes is None:
            raise ValueError("a real-time control needs minutes")
        if self.kind == "correspondence" and self.days is None:
            raise ValueError("a correspondence control needs days (1–14)")
        return self


def parse_time_control(data: TimeControl | JSONObject | None) -> StoredTimeControl | None:
    """The normalised stored form, or None for untimed games; raises Invalid on bad input."""
    if isinstance(data, TimeControl):
        data = data.model_dump(exclude_none=True)
    if not data or data.get("kind") in (None, "none"):
        return None
    try:
        control = TimeControl.model_validate(data)
    except ValidationError as error:
        message = "; ".join(e["msg"] for e in error.errors())
        raise Invalid(f"Invalid time control: {message}", code="invalid_time_control") from None
    if control.kind == "realtime":
        assert control.minutes is not None
        return {"kind": "realtime", "minutes": control.minutes, "increment": control.increment,
                "initial_ms": int(control.minutes * 60_000), "increment_ms": control.increment * 1000}
    assert control.days is not None
    return {"kind": "correspondence", "days": control.days, "per_move_ms": control.days * DAY_MS}


class PublicClock(TypedDict):
    """A clock as clients see it (``public_clock``): in every match payload and clock event."""

    remaining_ms: list[int]  # per seat, as of ``as_of``
    ticking: int | None  # the seat whose time runs, if any
    running: bool  # False until every seat has moved once
    first_move_ms: int | None  # before that: what is left of the first-move deadline
    as_of: str
    kind: str  # the time control's kind
    paused: bool  # the seat to move is on vacation: its clock stands still


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def _parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment)


def new_clock(control: StoredTimeControl | None, num_seats: int, now: datetime) -> StoredClock | None:
    if control is None:
        return None
    budget = control["initial_ms"] if control["kind"] == "realtime" else control["per_move_ms"]
    return {"remaining_ms": [budget] * num_seats, "turn_started_at": _iso(now),
            "running": False, "moved": []}


def deadline(control: StoredTimeControl | None, clock: StoredClock | None,
             to_move: int | None) -> datetime | None:
    """When the seat to move runs out (before clocks run: the first-move deadline)."""
    if control is None or clock is None or to_move is None or "paused_ms" in clock:
        return None
    started = _parse(clock["turn_started_at"])
    if not clock["running"]:
        return started + timedelta(milliseconds=FIRST_MOVE_MS[control["kind"]])
    return started + timedelta(milliseconds=clock["remaining_ms"][to_move])


def after_move(control: StoredTimeControl | None, clock: StoredClock | None, seat: int,
               next_to_move: int | None, num_seats: int, now: datetime
               ) -> tuple[StoredClock | None, int]:
    """(the clock after ``seat`` moved at ``now``, milliseconds the move took)."""
    if control is None or clock is None:
        return clock, 0
    spent = max(0, int((now - _parse(clock["turn_started_at"])).total_seconds() * 1000))
    remaining = list(clock["remaining_ms"])
    berserk = list(clock.get("berserk", []))
    if clock["running"] and control["kind"] == "realtime":
        increment = 0 if seat in berserk else control["increment_ms"]
        remaining[seat] = max(0, remaining[seat] - spent) + increment
    moved = sorted(set(clock["moved"]) | {seat})
    running = clock["running"] or len(moved) == num_seats
    if control["kind"] == "correspondence" and next_to_move is not None:
        remaining[next_to_move] = control["per_move_ms"]
    after: StoredClock = {"remaining_ms": remaining, "turn_started_at": _iso(now),
                          "running": running, "moved": moved}
    if berserk:
        after["berserk"] = berserk
    away = clock.get("away")
    if away:
        paused = with_away(control, after, next_to_move, away, now)
        assert paused is not None
        after = paused
    return after, spent


def _budget_ms(control: StoredTimeControl, clock: StoredClock, to_move: int) -> int:
    """The whole time of the turn of ``to_move``: its clock, or the first-move allowance."""
    if clock["running"]:
        return int(clock["remaining_ms"][to_move])
    return FIRST_MOVE_MS[control["kind"]]


def with_away(control: StoredTimeControl | None, clock: StoredClock | None,
              to_move: int | None, away: list[int], now: datetime) -> StoredClock | None:
    """The clock with ``away`` as the seats on vacation, at ``now``: paused if the seat to move
    is away (what was left is kept in ``paused_ms``), running on from where it stood if it was
    paused and the seat is back (the turn's start moves forward by the pause, so the deadline
    and the time the move took leave the vacation out). Only correspondence clocks pause."""
    if control is None or clock is None or control["kind"] != "correspondence":
        return clock
    after = cast(StoredClock, {k: v for k, v in clock.items() if k not in ("away", "paused_ms")})
    if away:
        after["away"] = sorted(set(away))
    paused = clock.get("paused_ms")
    if to_move is None:
        return after
    if to_move in away:
        if paused is not None:
            after["paused_ms"] = paused
        else:
            limit = deadline(control, clock, to_move)
            assert limit is not None
            after["paused_ms"] = max(0, int((limit - now).total_seconds() * 1000))
    elif paused is not None:
        budget = _budget_ms(control, after, to_move)
        after["turn_started_at"] = _iso(now - timedelta(milliseconds=budget - int(paused)))
    return after


def berserked(control: StoredTimeControl | None, clock: StoredClock | None,
              seat: int) -> StoredClock | None:
    """The clock after ``seat`` goes berserk (arena, before its first move): half its time, and
    no increment from then on. None when it cannot: no real-time clock, the seat has moved or
    already went berserk."""
    if control is None or clock is None or control["kind"] != "realtime":
        return None
    if seat in clock["moved"] or seat in clock.get("berserk", []):
        return None
    remaining = list(clock["remaining_ms"])
    remaining[seat] //= 2
    return {**clock, "remaining_ms": remaining,
            "berserk": sorted({*clock.get("berserk", []), seat})}


def public_clock(control: StoredTimeControl | None, clock: StoredClock | None,
                 to_move: int | None, now: datetime) -> PublicClock | None:
    """What clients see: remaining time per seat as of ``now`` and which clock is ticking."""
    if control is None or clock is None:
        return None
    remaining = list(clock["remaining_ms"])
    paused = clock.get("paused_ms")
    if paused is not None and to_move is not None:
        if clock["running"]:
            remaining[to_move] = int(paused)
        return {"remaining_ms": remaining, "ticking": None, "running": clock["running"],
                "first_move_ms": None if clock["running"] else int(paused),
                "as_of": now.isoformat() + "Z", "kind": control["kind"], "paused": True}
    ticking = to_move if clock["running"] else None
    if ticking is not None:
        elapsed = int((now - _parse(clock["turn_started_at"])).total_seconds() * 1000)
        remaining[ticking] = max(0, remaining[ticking] - elapsed)
    first_move_deadline = None
    if not clock["running"] and to_move is not None:
        limit = deadline(control, clock, to_move)
        assert limit is not None
        first_move_deadline = max(0, int((limit - now).total_seconds() * 1000))
    return {"remaining_ms": remaining, "ticking": ticking, "running": clock["running"],
            "first_move_ms": first_move_deadline, "as_of": now.isoformat() + "Z",
            "kind": control["kind"], "paused": False}
