"""The archive's index rows: one ``archive_entries`` row per seat of a match that finishes,
written by ``store.commit`` in the transaction that finishes it, so the index never disagrees
with ``matches`` (a match is finished exactly when its rows exist). The outcome is the seat's:
``win`` when it is among the winners, ``draw`` when nobody won, ``loss`` otherwise."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, insert

from app.db.models import ArchiveEntry

ENTRIES = ArchiveEntry.__table__
OUTCOMES = ("win", "loss", "draw")


class Seat(Protocol):
    seat: int
    user_id: int


def seat_outcome(result: Mapping[str, Any] | None, seat: int) -> str:
    """``win``, ``loss`` or ``draw`` for one seat of a finished match's result."""
    winners = (result or {}).get("winners") or []
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def entry_rows(match_id: str, game: str, rated: bool, result: Mapping[str, Any] | None,
               finished_at: datetime, seats: Iterable[Seat]) -> list[dict[str, Any]]:
    return [{"match_id": match_id, "seat": player.seat, "user_id": player.user_id,
             "game": game, "rated": bool(rated), "outcome": seat_outcome(result, player.seat),
             "finished_at": finished_at} for player in seats]


def record_finish(connection: Connection, match: Any, values: Mapping[str, Any]) -> None:
    """Index the seats of ``match`` (an ORM ``Match`` or a ``MatchRow``), finished by
    ``values`` (its ``result`` and ``finished_at``), in the caller's transaction."""
    rows = entry_rows(match.id, match.game, match.rated, values.get("result"),
                      values.get("finished_at") or values["updated_at"], match.players)
    if rows:
        connection.execute(insert(ENTRIES), rows)
