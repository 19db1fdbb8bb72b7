"""Offers between players: draw (games that can draw), agree to end and score the position
(games with ``Game.can_score_early``), takeback (casual, perfect-information games) and
rematch (seats rotated). An offer waits in ``match.offers`` until another player accepts or
declines it; making an offer the other side already made accepts it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db.json_shapes import StoredClock
from app.db.models import Move
from app.kernel.errors import Conflict, Invalid
from app.kernel.identity import Identity
from app.kernel.timesource import now
from app.match import clocks, playban, results, store
from app.match.option_privacy import without_fixed_deal
from app.match.records import MatchRecord
from app.match.service import MatchService, validate_setup
from games import Game, Result, State, registry

KINDS = ("draw", "end", "takeback", "rematch")


def offer_kinds(game: Game, state: State, rated: bool) -> list[str]:
    """The offers a game in play allows (rematch is offered after the game)."""
    kinds = []
    if game.can_draw:
        kinds.append("draw")
    if game.can_score_early:
        kinds.append("end")
    if not rated and not game.hidden_information and not game.has_chance:
        kinds.append("takeback")
    return kinds


class OfferService:
    """Offers take the match's row lock: two players offering the same at once then meet (the
    second accepts the first) instead of one offer losing to the version guard."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.session = matches.session

    def allowed(self, match: store.AnyMatch, kind: str) -> str | None:
        """Why ``kind`` cannot be offered now, or None when it can."""
        game = registry.get(match.game)
        if kind == "rematch":
            if match.tournament_id is not None:  # the tournament pairs; a duplicate deal stays
                return "Tournament games have no rematch: the tournament pairs the next game."
            if (match.offers or {}).get("rematch_match"):
                return "This game already has a rematch."
            return None if match.status in ("finished", "aborted") else "Rematches come after the game."
        if match.status != "active":
            return "The match is not in play."
        if kind in offer_kinds(game, store.state_of(match), match.rated):
            return None
        return {
            "draw": f"{game.title} has no draws.",
            "end": f"{game.title} cannot be scored early.",
            "takeback": "Takebacks are for casual games."
            if match.rated else "Takebacks would reveal hidden cards in this game.",
        }.get(kind, f"Unknown offer {kind!r}.")

    def offer(self, match_id: str, user: Identity, kind: str) -> MatchRecord:
        match = store.read(self.session, match_id, lock=True)
        seat = store.seat_of(match, user)
        if kind not in KINDS:
            raise Invalid(f"Offers are {', '.join(KINDS)}.", code="invalid_offer")
        reason = self.allowed(match, kind)
        if reason:
            raise Conflict(reason, code="offer_not_allowed")
        if kind == "rematch" and match.rated:  # a rated rematch is a rated game starting
            playban.refuse_playban(self.session, user.id, [p.user_id for p in match.players])
        offers = dict(match.offers or {})
        if kind == "takeback" and kind not in offers and not self._last_move_of(match, seat):
            raise Conflict("You have no move to take back.", code="offer_not_allowed")
        agreed = set(offers.get(kind, [])) | {seat}
        if self._everyone_agrees(match, kind, agreed):
            return self._carry_out(match, kind, seat)
        offers[kind] = sorted(agreed)
        return self.matches.commit(match, {"offers": offers})

    def accept(self, match_id: str, user: Identity, kind: str) -> MatchRecord:
        match = store.read(self.session, match_id, lock=True)
        seat = store.seat_of(match, user)
        pending = (match.offers or {}).get(kind)
        if not pending or pending == [seat]:
            raise Conflict(f"There is no {kind} offer to accept.", code="no_offer")
        return self.offer(match_id, user, kind)

    def decline(self, match_id: str, user: Identity, kind: str) -> MatchRecord:
        """Decline someone's offer, or withdraw your own."""
        match = store.read(self.session, match_id, lock=True)
        store.seat_of(match, user)
        offers = dict(match.offers or {})
        if kind not in offers:
            raise Conflict(f"There is no {kind} offer.", code="no_offer")
        del offers[kind]
        return self.matches.commit(match, {"offers": offers})

    @staticmethod
    def _everyone_agrees(match: store.AnyMatch, kind: str, agreed: set[int]) -> bool:
        """Offers in play need the seats still in; a rematch needs every seated player, one who
        resigned or timed out included (they would sit in the new game). A built-in bot, the
        server itself, always agrees to a rematch."""
        if kind == "rematch":
            needed = {p.seat for p in match.players if p.user.builtin_bot is None}
        else:
            needed = {s for s in range(match.num_seats) if s not in (match.eliminated or [])}
        return needed <= agreed

    def _last_move_of(self, match: store.AnyMatch, seat: int) -> Move | None:
        return self.session.scalar(select(Move).where(Move.match_id == match.id, Move.seat == seat)
                                   .order_by(Move.ply.desc()).limit(1))

    def _carry_out(self, match: store.AnyMatch, kind: str, seat: int) -> MatchRecord:
        moment = now()
        offers = {k: v for k, v in (match.offers or {}).items() if k != kind}
        if kind in ("draw", "end"):
            if kind == "draw":
                seats = tuple(range(match.num_seats))
                result = Result((), (seats,), None, results.DRAW_AGREED).to_json()
            else:
                scored = store.state_of(match).score_now()
                assert scored is not None  # "end" is only offered in games that score early
                result = scored.to_json()
                result["details"] = {**result.get("details", {}), "scored_by": result["reason"]}
                result["reason"] = results.AGREED_END
            return self.matches.commit(match, {"status": "finished", "result": result,
                                                "finished_at": moment, "deadline_at": None,
                                                "offers": offers})
        if kind == "takeback":
            return self._take_back(match, offers)
        return self._rematch(match, offers)

    def _take_back(self, match: store.AnyMatch, offers: dict[str, Any]) -> MatchRecord:
        """Undo back to before the requester's last move (their reply too, if any)."""
        requester = sorted((match.offers or {}).get("takeback", []))
        requester_seat = requester[0] if requester else None
        last = self._last_move_of(match, requester_seat) if requester_seat is not None else None
        if last is None:
            raise Conflict("There is no move to take back.", code="no_offer")
        keep = last.ply - 1
        *_, (_, state) = self.matches.replayed_states(match, upto_ply=keep)
        clock: StoredClock | None = None
        if match.clock:
            stopped: StoredClock = {**match.clock, "turn_started_at": now().isoformat()}
            stopped.pop("paused_ms", None)  # paused again below if the seat now to move is away
            clock = clocks.with_away(match.time_control, stopped, state.to_move,
                                     stopped.get("away", []), now())
        previous = self.session.scalar(select(Move).where(Move.match_id == match.id,
                                                          Move.ply == keep)) if keep else None
        return self.matches.commit(
            match, {"ply": keep, "snapshot": state.to_json(), "offers": offers, "clock": clock,
                    "deadline_at": clocks.deadline(match.time_control, clock, state.to_move)},
            delete_after_ply=keep,
            last_move_after=None if previous is None else {
                "ply": previous.ply, "seat": previous.seat, "move": previous.move})

    def _rematch(self, match: store.AnyMatch, offers: dict[str, Any]) -> MatchRecord:
        """A new match between the same players with the seats rotated (colours swapped).

        One per game: ``matches.rematch_of`` is unique, so two acceptances racing each other
        cannot both create one (the loser's whole transaction rolls back)."""
        users = [user_id for _seat, user_id in sorted((p.seat, p.user_id) for p in match.players)]
        rotated = users[1:] + users[:1]
        # A fixed deal is played once: its creator knows it, so the rematch is dealt afresh.
        setup = validate_setup(match.game, without_fixed_deal(match.game, match.options),
                               match.num_seats)
        fresh = self.matches.create_started(setup, rotated, match.rated, match.time_control,
                                            creator_id=match.created_by)
        fresh.rematch_of = match.id
        try:
            self.session.flush()
        except IntegrityError:
            self.session.rollback()
            raise Conflict("This game already has a rematch.", code="rematch_exists") from None
        offers["rematch_match"] = fresh.id
        record = self.matches.commit(match, {"offers": offers})
        self.matches.announce(fresh)
        return record


