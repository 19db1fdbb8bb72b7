"""Plain-data snapshots of a match, safe to pass between threads, processes and the event bus.

A record holds secrets (the engine snapshot); it never leaves the server as is: clients get
``match_payload(record, viewer)`` from app/match/payloads.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from functools import cached_property
from typing import Any, Self, TypedDict

from app.db.json_shapes import StoredClock, StoredTimeControl
from app.db.models import Match
from app.kernel.json_types import JSONObject
from games import State, registry


class MatchValues(TypedDict, total=False):
    """The columns one change writes to a match (``store.commit``; it adds ``version`` and
    ``updated_at`` itself)."""

    status: str
    ply: int
    snapshot: JSONObject  # the game's ``State.to_json()``
    result: JSONObject | None  # the game's ``Result.to_json()``
    clock: StoredClock | None
    offers: JSONObject | None  # kind -> seats that agreed; ``rematch_match`` once there is one
    deadline_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime
    eliminated: list[int]
    version: int


class MoveValues(TypedDict):
    """One move row as ``store.commit`` appends it."""

    match_id: str
    ply: int
    seat: int
    move: str
    time_spent_ms: int | None
    created_at: datetime


class LastMove(TypedDict):
    """The latest move of a match, as records, payloads and streams carry it."""

    ply: int
    seat: int
    move: str


class CommitOptions(TypedDict, total=False):
    """``store.commit``'s keyword options: a takeback's rows to drop and the last move it leaves,
    and the engine state the new snapshot was made from."""

    delete_after_ply: int | None
    last_move_after: LastMove | None
    state: State | None


@dataclass(slots=True)
class PlayerRow:
    """One taken seat as ``read`` found it; ``user`` is itself, so code written for the ORM's
    ``player.user.name`` reads it unchanged."""

    seat: int
    user_id: int
    name: str
    kind: str
    username: str | None
    builtin_bot: str | None  # a built-in bot's level

    @property
    def user(self) -> PlayerRow:
        return self


@dataclass(slots=True)
class MatchRow:
    """A match row and its seats, as ``store.read`` reads them without the ORM (why: that
    module's docstring). Mutable, like the ORM object it stands for, but never flushed: changes
    go through ``store.commit``."""

    id: str
    game: str
    options: JSONObject
    seed: int
    num_seats: int
    status: str
    rated: bool
    time_control: StoredTimeControl | None
    clock: StoredClock | None
    deadline_at: datetime | None
    offers: JSONObject | None
    eliminated: list[Any]
    version: int
    rematch_of: str | None
    sealed: bool
    tournament_id: str | None
    rules_version: int
    ply: int
    snapshot: JSONObject
    result: JSONObject | None
    created_by: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime
    players: list[PlayerRow]


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str | None
    kind: str | None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    found = _FIELD_NAMES.get(kind)
    if found is None:
        found = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    return found


@dataclass(frozen=True, kw_only=True)
class MatchHeader:
    """Everything about a match that any viewer's server may know: who sits where, status,
    clocks, offers, result. No position: that is the snapshot, kept in :class:`MatchRecord`."""

    id: str
    game: str
    options: JSONObject
    num_seats: int
    status: str
    ply: int
    result: JSONObject | None
    seats: list[SeatRecord]
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    last_move: LastMove | None = field(default=None)
    rated: bool = False
    time_control: StoredTimeControl | None = None
    clock: StoredClock | None = None
    offers: JSONObject | None = None
    eliminated: list[int] = field(default_factory=list)
    rematch_of: str | None = None
    version: int = 0
    tournament: str | None = None
    sealed: bool = False  # only its seated players may see it (app/match/sealing.py)

    @cached_property
    def built_messages(self) -> dict[Any, Any]:
        """What connections built from this version of the match, by seat (``payloads.
        seat_message``): it lives exactly as long as the record or change it came from, which
        the process shares between its connections and drops with the last one."""
        return {}

    def seat_of(self, user_id: int | None) -> int | None:
        """The first seat this user holds (a user may hold several only in a self-play test)."""
        if user_id is None:
            return None
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def to_json(self) -> JSONObject:
        """A shallow dict (the seats as dicts): ``asdict`` deep-copied the whole snapshot, twice
        a move once the bus carried two forms of it (profiled: 8 % of the server's CPU); the
        field names are read once per class and the seats written field by field (``asdict``
        on a seat cost more than the rest of the record)."""
        data = {name: getattr(self, name) for name in _field_names(type(self))}
        data["seats"] = [{"seat": s.seat, "user_id": s.user_id, "name": s.name, "kind": s.kind}
                         for s in self.seats]
        return data

    @classmethod
    def from_json(cls, data: JSONObject) -> Self:
        seats = [SeatRecord(**seat) for seat in data["seats"]]
        return cls(**{**data, "seats": seats})


@dataclass(frozen=True, kw_only=True)
class MatchRecord(MatchHeader):
    """A match with its engine snapshot: the server's own copy, secrets included."""

    snapshot: JSONObject

    @cached_property
    def state(self) -> State:
        """The engine state of the snapshot, rebuilt once per record: the publisher, the REST
        answer and every seat's view of one move all read it (states are immutable)."""
        return registry.get(self.game).from_json(self.snapshot)

    def prime_state(self, state: State) -> None:
        """Give the record the state its snapshot was made from (``state.to_json()`` is
        ``self.snapshot``), so :attr:`state` is not rebuilt by parsing it back."""
        self.__dict__["state"] = state


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def record_of(match: Match | MatchRow, last_move: LastMove | None = None) -> MatchRecord:
    return MatchRecord(**record_fields(match, last_move))


def record_fields(match: Match | MatchRow, last_move: LastMove | None = None) -> dict[str, Any]:
    """The fields of ``record_of(match, last_move)``: a caller that changes some of them (a
    commit) builds its record once, from these and its changes."""
    taken = {p.seat: p for p in match.players}
    seats = []
    for seat in range(match.num_seats):
        player = taken.get(seat)
        seats.append(
            SeatRecord(seat, player.user_id, player.user.name, player.user.kind)
            if player
            else SeatRecord(seat, None, None, None)
        )
    return dict(
        id=match.id,
        game=match.game,
        options=dict(match.options),
        num_seats=match.num_seats,
        status=match.status,
        ply=match.ply,
        snapshot=match.snapshot,
        result=match.result,
        seats=seats,
        created_at=iso(match.created_at) or "",
        started_at=iso(match.started_at),
        finished_at=iso(match.finished_at),
        last_move=last_move,
        rated=bool(match.rated),
        time_control=match.time_control,
        clock=match.clock,
        offers=match.offers,
        eliminated=list(match.eliminated or []),
        rematch_of=match.rematch_of,
        version=match.version or 0,
        tournament=match.tournament_id,
        sealed=bool(match.sealed),
    )
