"""`yourTurn` and `offer` events for the account event stream: what the in-page notices and the
header's "my games" count need.

Pure: fed the user's match records as they change (the stream's tracker calls ``events_for``),
it says once per ply that a match waits for the user's move, and once per offer that another
player offers a draw, a takeback, an agreed end or a rematch.
"""

from __future__ import annotations

from typing import Any

from app.match import Known, MatchHeader, to_move_of
from app.protocol import AccountOfferEvent, YourTurnEvent
from app.realtime.messages import Message

OFFER_KINDS = ("draw", "takeback", "end", "rematch")


def game_brief(record: MatchHeader, user_id: int) -> dict[str, Any]:
    """Enough to write a notice: the game, the opponents' names, the link (nothing secret)."""
    return {
        "id": record.id, "game": record.game, "status": record.status, "ply": record.ply,
        "your_seat": record.seat_of(user_id),
        "opponents": [s.name for s in record.seats if s.user_id not in (None, user_id)],
        "time_control": record.time_control, "last_move": record.last_move,
        "url": f"/m/{record.id}",
    }


class TurnNotices:
    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.turns: dict[str, int] = {}  # match id -> ply already announced
        self.offers: dict[str, set[str]] = {}  # match id -> offers already announced

    def events_for(self, record: Known) -> list[Message]:
        seat = record.seat_of(self.user_id)
        if seat is None:
            return []
        events: list[Message] = []
        if record.status == "active" and to_move_of(record) == seat:
            if self.turns.get(record.id) != record.ply:
                self.turns[record.id] = record.ply
                events.append(YourTurnEvent.model_validate(
                    {"type": "yourTurn", "game": game_brief(record, self.user_id)}))
        else:
            self.turns.pop(record.id, None)
        offers = record.offers or {}
        pending = {kind for kind in OFFER_KINDS
                   if isinstance(offers.get(kind), list) and offers[kind]
                   and seat not in offers[kind]}
        for kind in sorted(pending - self.offers.get(record.id, set())):
            events.append(AccountOfferEvent.model_validate(
                {"type": "offer", "kind": kind, "game": game_brief(record, self.user_id)}))
        self.offers[record.id] = pending
        return events
