"""What one viewer may see of a match: the single place where a record becomes a client payload.

Players get their seat's view and, when it is their turn, the legal moves; everyone else gets the
spectator view. The engine snapshot (which may hold secrets) never leaves through here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict, cast

from app.db.json_shapes import StoredTimeControl
from app.kernel.json_types import JSONObject
from app.kernel.timesource import now
from app.match import clocks, store
from app.match.clocks import PublicClock
from app.match.messages import ClockMessage, OfferMessage, ResultMessage, StateMessage
from app.match.offers import offer_kinds
from app.match.option_privacy import has_fixed_deal, public_options
from app.match.ratings import RatingJSON
from app.match.records import LastMove, MatchHeader, MatchRecord
from app.realtime.messages import Message, Wire, encode
from games import State, registry


class SeatUser(TypedDict):
    id: int
    name: str | None
    kind: str | None
    rating: NotRequired[RatingJSON]  # on the Watch list (``live_item``) only


class SeatJSON(TypedDict):
    seat: int
    user: SeatUser | None  # None: the seat is free
    vacation: bool  # a correspondence seat whose player is away


class PayloadHead(TypedDict):
    """The fields of a payload before the seat's own (``MatchOut`` documents them all)."""

    id: str
    game: str
    options: JSONObject  # the public ones
    fixed_deal: bool
    status: str
    seats: list[SeatJSON]
    ply: int
    version: int
    to_move: int | None


class PayloadTail(TypedDict):
    """The fields of a payload after the seat's own."""

    last_move: LastMove | None
    result: JSONObject | None
    rated: bool
    time_control: StoredTimeControl | None
    clock: PublicClock | None
    offers: JSONObject
    eliminated: list[int]
    rematch_of: str | None
    tournament: str | None
    sealed: bool
    offer_kinds: list[str]
    created_at: str
    started_at: str | None
    finished_at: str | None


class MatchPayload(PayloadHead, PayloadTail):
    """A match as one viewer may see it: the REST answer, the ``state`` message, a page's data."""

    your_seat: int | None
    view: JSONObject | None  # the game's view for the seat (None: a sealed match's change)
    legal_moves: list[str]


class LiveItem(MatchPayload):
    """One match of the Watch list."""

    spectators: int


def match_payload(record: MatchRecord, viewer_id: int | None) -> MatchPayload:
    return seat_payload(record, record.seat_of(viewer_id))


def move_answer(record: MatchRecord, mover_id: int) -> MatchPayload:
    """The answer to the move that made ``record``: the mover's payload from the parts every
    seat shares, which the publisher has just built for this version (its clock as of that
    publish, an instant before), instead of building them a second time."""
    return seat_payload(record, record.seat_of(mover_id), version_wide=True)


def seat_payload(record: MatchRecord, seat: int | None, *, version_wide: bool = False
                 ) -> MatchPayload:
    """The match as the holder of ``seat`` sees it (``None``: a spectator).

    ``version_wide``: take what every seat sees alike (players, options, clock, offers…) from
    the record's first payload instead of building it again: the publisher's spectator view
    and each seat's message after a move share it (the clock then shows its time as of the
    publish, with ``as_of`` saying when). Other REST answers build their own, as of now."""
    state = store.state_of(record)
    head, tail = _shared_parts(record, state) if version_wide else _parts(record, state)
    to_move = head["to_move"]
    legal = state.legal_moves() if seat is not None and to_move == seat else []
    return {**head, "your_seat": seat, "view": state.view(seat), "legal_moves": legal, **tail}


Parts = tuple[PayloadHead, PayloadTail]
_PARTS = "parts"


def _shared_parts(record: MatchRecord, state: State) -> Parts:
    built = record.built_messages
    found: Parts | None = built.get(_PARTS)
    if found is None:
        found = built[_PARTS] = _parts(record, state)
    return found


def _parts(record: MatchRecord, state: State) -> Parts:
    """What every seat sees alike, before and after the seat's own fields."""
    to_move = state.to_move if record.status == "active" else None
    away = (record.clock.get("away") if record.clock else None) or ()
    head: PayloadHead = {
        "id": record.id,
        "game": record.game,
        "options": public_options(record.game, record.options),
        "fixed_deal": has_fixed_deal(record.game, record.options, record.tournament),
        "status": record.status,
        "seats": [
            {
                "seat": s.seat,
                "user": None if s.user_id is None
                else {"id": s.user_id, "name": s.name, "kind": s.kind},
                "vacation": s.seat in away,
            }
            for s in record.seats
        ],
        "ply": record.ply,
        "version": record.version,
        "to_move": to_move,
    }
    tail: PayloadTail = {
        "last_move": record.last_move,
        "result": record.result,
        "rated": record.rated,
        "time_control": record.time_control,
        "clock": clocks.public_clock(record.time_control, record.clock, to_move, now()),
        "offers": record.offers or {},
        "eliminated": record.eliminated,
        "rematch_of": record.rematch_of,
        "tournament": record.tournament,
        "sealed": record.sealed,
        "offer_kinds": offer_kinds(registry.get(record.game), state, record.rated),
        "created_at": record.created_at,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
    }
    return head, tail


def unvalidated(payload: MatchPayload) -> JSONObject:
    """A payload as the keyword values of a message's ``model_construct``, which fills the
    message without validating: the nested parts stay the dicts they were built as, and are
    encoded as such (a test validates the result against the published schema)."""
    return cast(JSONObject, payload)


def view_of(known: Known, seat: int | None) -> MatchPayload:
    """The payload for ``seat`` from whichever form of the match a connection holds."""
    if isinstance(known, MatchRecord):
        return seat_payload(known, seat, version_wide=True)
    if seat is not None:
        raise ValueError("a seat's view is built from the full record, not from a change")
    return known.public


def to_move_of(known: Known) -> int | None:
    """Whose turn it is (``None`` unless the match is in play)."""
    if isinstance(known, MatchRecord):
        return store.state_of(known).to_move if known.status == "active" else None
    return known.to_move


def live_item(known: Known, seat_ratings: dict[int, RatingJSON], spectators: int) -> LiveItem:
    """One match of the Watch list — the same item over REST (``GET /api/v1/live``) and over the
    live socket: the public view, the players' ratings and the spectator count. The public
    view may be shared by many sockets: its seats are copied before the ratings go in."""
    public = view_of(known, None)
    seats: list[SeatJSON] = [{**s, "user": None if s["user"] is None else {**s["user"]}}
                             for s in public["seats"]]
    for seat, rating in seat_ratings.items():
        user = seats[seat]["user"]
        if user is not None:
            user["rating"] = rating
    return {**public, "seats": seats, "spectators": spectators}


@dataclass(frozen=True, kw_only=True)
class MatchChange(MatchHeader):
    """A committed change as the shared bus channels carry it: the header, whose seat
    is to move, and the spectators' payload built once by the publisher. No snapshot, so no
    secret, travels to a process that serves no player of the match; a sealed match's change
    carries neither its position nor its last move (the bot runner, the account streams and the
    tournament job need only its header; the Watch list skips it)."""

    to_move: int | None
    public: MatchPayload

    @classmethod
    def of(cls, record: MatchRecord, data: JSONObject | None = None) -> MatchChange:
        """``data``: ``record.to_json()`` when the caller has it already (the publisher does)."""
        return cls.from_json(cls.json_of(record, data or record.to_json()))

    @staticmethod
    def json_of(record: MatchRecord, data: JSONObject) -> JSONObject:
        """The change as the bus carries it (what ``of(record).to_json()`` gives), built
        directly from ``data`` = ``record.to_json()``: no dataclass in between to copy back."""
        public = seat_payload(record, None, version_wide=True)
        header = {k: v for k, v in data.items() if k != "snapshot"}
        header["options"] = public["options"]  # a fixed deal is a secret option
        if record.sealed:  # nobody outside the table may see it: no position, no last move
            header["last_move"] = None
            public = {**public, "view": None, "last_move": None, "legal_moves": []}
        return {**header, "to_move": public["to_move"], "public": public}


Known = MatchRecord | MatchChange
"""What a connection may hold as "the match now": a full record (it serves a seat) or a change."""


@dataclass(frozen=True, slots=True)
class SeatMessage:
    """A seat's encoded ``state`` message and the ``clock`` event that follows it (the same
    clock, as of the same instant). Only the encoded texts are kept: the message's dict, with
    the whole view inside, made hundreds of thousands of objects for the garbage collector to
    walk under load (the fan-out's p99 was its full collections)."""

    state: Wire
    clock: Wire | None


def seat_message(known: Known, seat: int | None) -> SeatMessage:
    """The ``state`` message for ``seat`` (``None``: spectators), built and encoded once per
    match version whatever the number of sockets showing it: the first socket of a seat pays,
    the others reuse the text. Kept on the shared record or change itself (see
    ``SharedMatches``), so it goes when no connection shows that version any more. A change
    gives the spectators' message only: a seat's view needs the full record. On the loop only.

    The view is built here from the record, so the model is filled without a validation pass
    (``model_construct``); a test validates what this builds against the published schema."""
    built = known.built_messages
    found = built.get(seat)
    if found is None:
        view = view_of(known, seat)
        clock = view.get("clock")
        found = built[seat] = SeatMessage(
            encode(StateMessage.model_construct(type="state", **unvalidated(view))),
            None if clock is None else encode(ClockMessage.model_validate(
                {"type": "clock", "ply": known.ply, **clock})))
    return found


def change_messages(previous: Known, current: Known) -> list[Wire]:
    """The typed events after a change's ``state`` message beside its ``clock``, for clients
    that only care about one thing: ``offer`` when the offers changed, ``result`` when the match
    ended. Encoded once per version (kept beside the seats' messages)."""
    events = []
    offers = current.offers or {}
    if (previous.offers or {}) != offers:
        events.append(once(current, "offer", lambda: OfferMessage(
            type="offer", ply=current.ply, offers=offers)))
    if current.status != previous.status and current.status in ("finished", "aborted"):
        events.append(once(current, "result", lambda: ResultMessage.model_validate(
            {"type": "result", "status": current.status, "result": current.result})))
    return events


def once(known: Known, key: object, build: Callable[[], Message]) -> Wire:
    """The message ``key`` of this match version, built and encoded by its first connection
    and kept beside the seats' messages for the others."""
    built = known.built_messages
    found = built.get(key)
    if found is None:
        found = built[key] = encode(build())
    assert isinstance(found, Wire)
    return found
