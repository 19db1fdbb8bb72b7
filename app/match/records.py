"""Plain-data snapshots of a match, safe to pass between threads, processes and the event bus.

A record holds secrets (the engine snapshot); it never leaves the server as is: clients get
``match_payload(record, viewer)`` from app/match/payloads.py.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self, TypedDict

from app.db.models import Match
from games import State, registry

if TYPE_CHECKING:
    from app.match.store import MatchRow


class LastMove(TypedDict):
    """The latest move of a match, as records, payloads and streams carry it."""

    ply: int
    seat: int
    move: str


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str | None
    kind: str | None


@dataclass(frozen=True, kw_only=True)
class MatchHeader:
    """Everything about a match that any viewer's server may know: who sits where, status,
    clocks, offers, result. No position: that is the snapshot, kept in :class:`MatchRecord`."""

    id: str
    game: str
    options: dict[str, Any]
    num_seats: int
    status: str
    ply: int
    result: dict[str, Any] | None
    seats: list[SeatRecord]
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    last_move: LastMove | None = field(default=None)
    rated: bool = False
    time_control: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    offers: dict[str, Any] | None = None
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

    def to_json(self) -> dict[str, Any]:
        """A shallow dict (the seats as dicts): ``asdict`` deep-copied the whole snapshot, twice
        a move once the bus carried two forms of it (profiled: 8 % of the server's CPU)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["seats"] = [asdict(seat) for seat in self.seats]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        seats = [SeatRecord(**seat) for seat in data["seats"]]
        return cls(**{**data, "seats": seats})


@dataclass(frozen=True, kw_only=True)
class MatchRecord(MatchHeader):
    """A match with its engine snapshot: the server's own copy, secrets included."""

    snapshot: dict[str, Any]

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
    taken = {p.seat: p for p in match.players}
    seats = []
    for seat in range(match.num_seats):
        player = taken.get(seat)
        seats.append(
            SeatRecord(seat, player.user_id, player.user.name, player.user.kind)
            if player
            else SeatRecord(seat, None, None, None)
        )
    return MatchRecord(
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
