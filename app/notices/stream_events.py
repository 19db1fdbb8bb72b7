"""What the account event stream and the match stream say, from what the event bus carries.

Pure translation, no I/O: the transports (app/notices/streams.py) feed bus messages in and
write the returned events out. Match payloads come from ``match_payload`` — the one place where
a record becomes what a viewer may see — so a stream never shows more than the socket.
"""

from __future__ import annotations

from typing import Any

from app.http.paging import moment
from app.match import Known, MatchHeader, MatchPayload, MatchRecord, once, unvalidated, view_of
from app.notices.turn_notices import TurnNotices
from app.protocol import (
    ChallengeCanceledEvent,
    ChallengeDeclinedEvent,
    ChallengeEvent,
    FollowedGameEvent,
    GameFinishEvent,
    GameFullEvent,
    GameStartEvent,
    GameStateEvent,
    ModerationNoticeMessage,
    OpponentGoneEvent,
    StreamFinishEvent,
    StreamOfferEvent,
)
from app.realtime.messages import Message, Wire, forwarded

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


def followed_starters(record: MatchHeader, followees: set[int], user_id: int) -> list[int]:
    """The followed people seated in a match that just became active, unless ``user_id`` plays
    in it too (they heard ``gameStart``) or it is sealed (a duplicate round's table)."""
    if record.status != "active" or record.sealed or record.seat_of(user_id) is not None:
        return []
    return [s.user_id for s in record.seats if s.user_id in followees]


class FollowedGames:
    """Turns match changes into one ``followedGame`` per match a followed person starts.

    ``followees`` are the people the user follows with ``notify`` on, as last read; each
    candidate is checked again against the database (``confirm``: the follow still there, no
    block) before it is said. ``since`` (ISO time): games started before the stream opened
    are not announced.
    """

    def __init__(self, user_id: int, since: str, followees: set[int]) -> None:
        self.user_id = user_id
        self.since = moment(since)
        self.followees = followees
        self.announced: set[str] = set()

    def candidates(self, record: MatchHeader) -> list[int]:
        if record.id in self.announced or moment(record.started_at) < self.since:
            return []
        return followed_starters(record, self.followees, self.user_id)

    def event(self, record: MatchHeader, followee_id: int) -> FollowedGameEvent | None:
        """The event, once per match."""
        if record.id in self.announced:
            return None
        self.announced.add(record.id)
        name = next((s.name or "?" for s in record.seats if s.user_id == followee_id), "?")
        return FollowedGameEvent.model_validate({
            "type": "followedGame", "user": {"id": followee_id, "name": name},
            "game": game_summary(record, self.user_id)})


PERSONAL_EVENTS: dict[str, tuple[type[Message], str]] = {
    "challenge": (ChallengeEvent, "challenge"),
    "challenge_declined": (ChallengeDeclinedEvent, "challengeDeclined"),
    "challenge_canceled": (ChallengeCanceledEvent, "challengeCanceled")}
"""Lobby messages on a user's channel -> event stream events (``match_started`` is left out:
``gameStart`` says the same for every way a match can start)."""


def personal_event(message: dict[str, Any], user_id: int) -> Message | Wire | None:
    """The event stream's event for a message on ``user_id``'s channel (``direction``: whether
    they sent the challenge or are invited to it)."""
    if message.get("type") == "moderation":  # already the event itself
        return forwarded(message, ModerationNoticeMessage)
    found = PERSONAL_EVENTS.get(str(message.get("type")))
    seek = message.get("seek")
    if found is None or not isinstance(seek, dict):
        return None
    model, kind = found
    mine = (seek.get("creator") or {}).get("id") == user_id
    return model.model_validate({"type": kind, "challenge": seek,
                                 "direction": "out" if mine else "in"})


class MatchFollower:
    """One viewer's view of one match as stream events: ``gameFull`` first, then changes.

    Events carry the viewer's payload exactly as the socket's ``state`` does (``view_of``: a seat's
view from the full record, a spectator's from the public change).
    """

    def __init__(self, record: MatchRecord, viewer_id: int | None, protocol: int,
                 moves: list[str] | None = None) -> None:
        self.latest: Known = record
        self.viewer_id = viewer_id
        self.protocol = protocol
        self.gone: tuple[int, ...] = ()
        self.moves: list[str] = list(moves or [])[:record.ply]
        """Every move so far, as ``gameFull`` and ``gameState`` carry them."""

    def follow_moves(self, record: Known) -> bool:
        """Bring :attr:`moves` to ``record`` from its last move; False when that cannot tell
        them (versions were missed, or one change made several moves): then the caller sets
        :attr:`moves` from the move log."""
        if record.version <= self.latest.version:
            return True  # an older version: events_for ignores it
        if record.version != self.latest.version + 1:
            return False
        if record.ply <= len(self.moves):
            del self.moves[record.ply:]  # no move (an offer, a clock), or a takeback
            return True
        last = record.last_move
        if record.ply == len(self.moves) + 1 and last is not None and last["ply"] == record.ply:
            self.moves.append(last["move"])
            return True
        return False

    @property
    def over(self) -> bool:
        return self.latest.status in OVER

    def first_events(self) -> list[Message | Wire]:
        payload = self._payload(self.latest)
        events: list[Message | Wire] = [GameFullEvent.model_construct(
            type="gameFull", protocol=self.protocol, **unvalidated(payload),
            moves=list(self.moves))]
        if self.over:
            events.append(self._finish())
        return events

    def _finish(self) -> Wire:
        latest = self.latest
        return once(latest, "gameFinish", lambda: StreamFinishEvent.model_validate(
            {"type": "gameFinish", "status": latest.status, "result": latest.result}))

    def _payload(self, known: Known) -> MatchPayload:
        return view_of(known, known.seat_of(self.viewer_id))

    def events_for(self, record: Known) -> list[Message | Wire]:
        """Events after a committed change; older versions overtaken by newer ones are dropped.
        Each is encoded once per version (and seat) for every stream showing it."""
        if record.version < self.latest.version or self.over:
            return []
        previous, self.latest = self.latest, record
        seat = record.seat_of(self.viewer_id)
        moves = list(self.moves)
        events: list[Message | Wire] = [once(record, ("gameState", seat), lambda: (
            GameStateEvent.model_construct(type="gameState", **unvalidated(view_of(record, seat)),
                                           moves=moves)))]
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
        control = self.latest.time_control
        realtime = control is not None and control.get("kind") == "realtime"
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
