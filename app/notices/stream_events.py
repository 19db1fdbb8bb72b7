"""What the account event stream and the match stream say, from what the event bus carries.

Pure translation, no I/O: the transports (app/notices/streams.py) feed bus messages in and
write the returned events out. Match payloads come from ``match_payload`` — the one place where
a record becomes what a viewer may see — so a stream never shows more than the socket.
"""

from __future__ import annotations

from typing import Any

from app.match import Known, MatchHeader, MatchRecord, once, view_of
from app.notices.turn_notices import TurnNotices
from app.protocol import (
    ChallengeCanceledEvent,
    ChallengeDeclinedEvent,
    ChallengeEvent,
    GameFinishEvent,
    GameFullEvent,
    GameStartEvent,
    GameStateEvent,
    OpponentGoneEvent,
    StreamFinishEvent,
    StreamOfferEvent,
)
from app.realtime.messages import Message, Wire

OVER = ("finished", "aborted")


def game_summary(record: MatchHeader, user_id: int) -> dict[str, Any]:
    """What ``gameStart`` / ``gameFinish`` say about a match (no position, so nothing secret)."""
    return {
        "id": record.id, "game": record.game, "status": record.status,
        "seats": [{"seat": s.seat, "user": None if s.user_id is None
                   else {"id": s.user_id, "name": s.name, "kind": s.kind}}
                  for s in record.seats],
        "your_seat": record.seat_of(user_id), "rated": record.rated,
        "time_control": record.time_control,
        "result": record.result if record.status == "finished" else None,
        "url": f"/m/{record.id}",
        "tournament": record.tournament,  # stored with the match
    }


class AccountGames:
    """Turns match changes into one ``gameStart`` and one ``gameFinish`` per match of one user.

    ``since`` (ISO time) is when the stream opened: a match that finished before it is not
    announced again when a later change (a rematch offer) passes by.
    """

    def __init__(self, user_id: int, since: str) -> None:
        self.user_id = user_id
        self.since = since
        self.started: set[str] = set()
        self.finished: set[str] = set()
        self.notices = TurnNotices(user_id)

    def events_for(self, record: Known) -> list[Message]:
        return self._lifecycle(record) + self.notices.events_for(record)  # yourTurn notices

    def _lifecycle(self, record: Known) -> list[Message]:
        if record.seat_of(self.user_id) is None:
            return []
        if record.status == "active" and record.id not in self.started:
            self.started.add(record.id)
            return [GameStartEvent.model_validate(
                {"type": "gameStart", "game": game_summary(record, self.user_id)})]
        if record.status in OVER and record.id not in self.finished:
            fresh = record.id in self.started or (record.finished_at or "") >= self.since
            if fresh:
                self.finished.add(record.id)
                return [GameFinishEvent.model_validate(
                    {"type": "gameFinish", "game": game_summary(record, self.user_id)})]
        return []


PERSONAL_EVENTS: dict[str, tuple[type[Message], str]] = {
    "challenge": (ChallengeEvent, "challenge"),
    "challenge_declined": (ChallengeDeclinedEvent, "challengeDeclined"),
    "challenge_canceled": (ChallengeCanceledEvent, "challengeCanceled")}
"""Lobby messages on a user's channel -> event stream events (``match_started`` is left out:
``gameStart`` says the same for every way a match can start)."""


def personal_event(message: dict[str, Any]) -> Message | None:
    found = PERSONAL_EVENTS.get(str(message.get("type")))
    if found is None or not isinstance(message.get("seek"), dict):
        return None
    model, kind = found
    return model.model_validate({"type": kind, "challenge": message["seek"]})


class MatchFollower:
    """One viewer's view of one match as stream events: ``gameFull`` first, then changes.

    Events carry the viewer's payload exactly as the socket's ``state`` does (``view_of``: a seat's
view from the full record, a spectator's from the public change).
    """

    def __init__(self, record: MatchRecord, viewer_id: int | None, protocol: int) -> None:
        self.latest: Known = record
        self.viewer_id = viewer_id
        self.protocol = protocol
        self.gone: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.latest.status in OVER

    def first_events(self) -> list[Message | Wire]:
        payload = self._payload(self.latest)
        events: list[Message | Wire] = [GameFullEvent.model_construct(
            type="gameFull", protocol=self.protocol, **payload)]
        if self.over:
            events.append(self._finish())
        return events

    def _finish(self) -> Wire:
        latest = self.latest
        return once(latest, "gameFinish", lambda: StreamFinishEvent.model_validate(
            {"type": "gameFinish", "status": latest.status, "result": latest.result}))

    def _payload(self, known: Known) -> dict[str, Any]:
        return view_of(known, known.seat_of(self.viewer_id))

    def events_for(self, record: Known) -> list[Message | Wire]:
        """Events after a committed change; older versions overtaken by newer ones are dropped.
        Each is encoded once per version (and seat) for every stream showing it."""
        if record.version < self.latest.version or self.over:
            return []
        previous, self.latest = self.latest, record
        seat = record.seat_of(self.viewer_id)
        events: list[Message | Wire] = [once(record, ("gameState", seat), lambda: (
            GameStateEvent.model_construct(type="gameState", **view_of(record, seat))))]
        offers = record.offers or {}
        if (previous.offers or {}) != offers:
            events.append(once(record, "streamOffer", lambda: StreamOfferEvent(
                type="offer", ply=record.ply, offers=offers)))
        if self.over:
            events.append(self._finish())
        return events

    def opponents(self) -> list[int]:
        """Seats of the other players still in the game."""
        mine = self.latest.seat_of(self.viewer_id)
        return [s.seat for s in self.latest.seats
                if s.user_id is not None and s.seat != mine and s.seat not in self.latest.eliminated]

    def presence_events(self, away_seconds: dict[int, float], claim_after: float,
                        online_seats: list[int]) -> list[Message]:
        """``opponentGone`` when the set of absent opponents changes (real-time games, players
        only): with the seconds left until a win may be claimed, or ``gone: false`` on return."""
        realtime = (self.latest.time_control or {}).get("kind") == "realtime"
        if self.over or not realtime or self.latest.seat_of(self.viewer_id) is None:
            return []
        gone = tuple(seat for seat in self.opponents() if seat not in online_seats
                     and self.latest.seats[seat].kind != "bot")
        if gone == self.gone:
            return []
        self.gone = gone
        if not gone:
            return [OpponentGoneEvent(type="opponentGone", gone=False, seats=[],
                                      claim_win_in_seconds=None)]
        left = max(claim_after - min(away_seconds.get(seat, 0.0) for seat in gone), 0.0)
        return [OpponentGoneEvent(type="opponentGone", gone=True, seats=list(gone),
                                  claim_win_in_seconds=int(left + 0.999))]
