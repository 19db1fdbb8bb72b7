"""What one viewer may see of a match: the single place where a record becomes a client payload.

Players get their seat's view and, when it is their turn, the legal moves; everyone else gets the
spectator view. The engine snapshot (which may hold secrets) never leaves through here.
"""

from __future__ import annotations

from typing import Any

from app.services import clocks
from app.services.offers import offer_kinds
from app.services.records import MatchRecord
from app.timesource import now
from games import State, registry


def state_of(record: MatchRecord) -> State:
    return registry.get(record.game).from_json(record.snapshot)


def match_payload(record: MatchRecord, viewer_id: int | None) -> dict[str, Any]:
    state = state_of(record)
    seat = record.seat_of(viewer_id)
    to_move = state.to_move if record.status == "active" else None
    legal = state.legal_moves() if seat is not None and to_move == seat else []
    return {
        "id": record.id,
        "game": record.game,
        "options": record.options,
        "status": record.status,
        "seats": [
            {
                "seat": s.seat,
                "user": None if s.user_id is None
                else {"id": s.user_id, "name": s.name, "kind": s.kind},
            }
            for s in record.seats
        ],
        "ply": record.ply,
        "version": record.version,
        "to_move": to_move,
        "your_seat": seat,
        "view": state.view(seat),
        "legal_moves": legal,
        "last_move": record.last_move,
        "result": record.result,
        "rated": record.rated,
        "time_control": record.time_control,
        "clock": clocks.public_clock(record.time_control, record.clock, to_move, now()),
        "offers": record.offers or {},
        "eliminated": record.eliminated,
        "rematch_of": record.rematch_of,
        "offer_kinds": offer_kinds(registry.get(record.game), state, record.rated),
        "created_at": record.created_at,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
    }
