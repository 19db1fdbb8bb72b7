"""Match use cases: create, join, play a move, resign, read the record and the move log.

Each call is one transaction. A move is appended together with the new snapshot, guarded by the
expected ply (optimistic concurrency), so a stale or duplicate submission changes nothing.
After a commit the change is published on the event bus for websocket subscribers.
"""

from __future__ import annotations

import random
import secrets
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypedDict, Unpack

from pydantic import ValidationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.json_shapes import StoredClock, StoredTimeControl
from app.db.models import Match, MatchPlayer, Move
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.kernel.metrics import MOVE_COMMIT_SECONDS
from app.kernel.timesource import now
from app.match import clocks, conditionals, playban, results, sealing, store, why
from app.match.records import (
    CommitOptions,
    LastMove,
    MatchRecord,
    MatchRow,
    MatchValues,
    MoveValues,
    record_of,
)
from app.match.store import Publish
from app.match.warm import WarmMatches, after_commit
from games import Game, IllegalMove, Result, State, registry
from games.chance import SEED_BITS

MATCH_ID_ALPHABET = string.ascii_letters + string.digits
MATCH_ID_LENGTH = 8

def _new_match_id() -> str:
    return "".join(secrets.choice(MATCH_ID_ALPHABET) for _ in range(MATCH_ID_LENGTH))


def new_seed() -> int:
    """A secret seed for a new deal, from the OS generator: the game expands it into every card
    (``games.chance``), so it must be unguessable, and it stays server-side until the game
    record may show it (``app/match/game_records.py``)."""
    return secrets.randbits(SEED_BITS)


def _validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "options"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class MoveRecord(TypedDict):
    """A move of the log as the API lists it."""

    ply: int
    seat: int
    move: str
    time_spent_ms: int | None
    at: str


class ReplayStep(TypedDict):
    """The spectators' view after one ply (ply 0: the start)."""

    ply: int
    move: str | None
    seat: int | None
    view: JSONObject  # the game's view


@dataclass(frozen=True)
class MatchSetup:
    """A game with validated options and a seat count: everything a new match needs."""

    game: Game
    options: JSONObject  # the game's, validated
    num_seats: int


def validate_setup(game_id: str, options: JSONObject | None,
                   players: int | None = None) -> MatchSetup:
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(f"There is no game {game_id!r}.", code="no_game") from None
    num_seats = players or game.min_players
    try:
        game.check_players(num_seats)
        parsed = game.parse_options(options)
    except ValidationError as error:
        raise Invalid(_validation_message(error), code="invalid_options") from None
    except ValueError as error:
        raise Invalid(str(error), code="invalid_options") from None
    return MatchSetup(game, parsed.model_dump(mode="json"), num_seats)


class _Cold(Exception):
    """A warm copy cannot decide this move (its deadline passed): read the match afresh."""


def _read_only(record: MatchRecord) -> None:
    """The publisher of a service built only to read: a committed change that nobody would
    announce is a bug (players and spectators would never hear of it), so it fails loudly."""
    raise RuntimeError(f"match {record.id} changed through a read-only MatchService: build it "
                       "with the app's publisher (app.match.deps.match_service)")


class MatchService:
    """The match use cases over one database session; ``publish`` announces committed changes.
    ``warm``: this process's warm matches (app/match/warm.py), for moves to skip their read.

    There is no default publisher: a request gets its service from ``Matches`` (app/match/deps.py,
    built with the app's publisher), a job passes the publisher it was given, and a caller that
    only reads says so with :meth:`read_only`."""

    def __init__(self, session: Session, publish: Publish,
                 warm: WarmMatches | None = None) -> None:
        self.session = session
        self.publish = publish
        self.warm = warm

    @classmethod
    def read_only(cls, session: Session) -> MatchService:
        """A service for reads: a change committed through it raises instead of going unheard."""
        return cls(session, _read_only)

    # -- reading ---------------------------------------------------------------------------

    def get(self, match_id: str) -> MatchRecord:
        """The record, whoever asks: for the server's own use (jobs, seated players' moves).
        A viewer's read goes through :meth:`get_for`."""
        return store.record(self.session, store.read(self.session, match_id))

    def get_for(self, match_id: str, viewer_id: int | None) -> MatchRecord:
        """The record if ``viewer_id`` (None: anonymous) may see it: 403 ``match_sealed`` for
        anyone not seated at a sealed match."""
        match = store.read(self.session, match_id)
        sealing.require_visible(match, viewer_id)
        return store.record(self.session, match)

    def moves(self, match_id: str) -> list[MoveRecord]:
        store.read(self.session, match_id)
        rows = self.session.scalars(
            select(Move).where(Move.match_id == match_id).order_by(Move.ply)
        )
        return [
            {
                "ply": row.ply,
                "seat": row.seat,
                "move": row.move,
                "time_spent_ms": row.time_spent_ms,
                "at": row.created_at.isoformat() + "Z",
            }
            for row in rows
        ]

    QUIET_AFTER = timedelta(minutes=10)
    """A match with no change for this long is live only while one of its players is there."""

    def live(self, limit: int = 60, attended: Callable[[str], bool] | None = None
             ) -> list[MatchRecord]:
        """Matches in play, most recently active first (for the Watch page); never a sealed
        one (a duplicate round's tables stay off the list until the round ends). With
        ``attended`` (match id -> a player has it open), a match quiet for ``QUIET_AFTER``
        whose players have all gone is left off: an abandoned game is not live."""
        matches = list(self.session.scalars(
            select(Match).where(Match.status == "active", Match.sealed.is_(False))
            .order_by(Match.updated_at.desc()).limit(limit)))
        if attended is not None:
            horizon = now() - self.QUIET_AFTER
            matches = [m for m in matches if m.updated_at >= horizon or attended(m.id)]
        started = [m for m in matches if m.ply > 0]
        last_moves: dict[str, LastMove] = {}
        if started:  # one query whatever the number of matches
            rows = self.session.scalars(select(Move).join(
                Match, (Match.id == Move.match_id) & (Match.ply == Move.ply))
                .where(Move.match_id.in_([m.id for m in started])))
            last_moves = {row.match_id: {"ply": row.ply, "seat": row.seat, "move": row.move}
                          for row in rows}
        return [record_of(match, last_moves.get(match.id)) for match in matches]

    def replayed_states(self, match: store.AnyMatch, upto_ply: int | None = None
                        ) -> Iterator[tuple[MoveRecord | None, State]]:
        """(move record, state after it) from the seed through the move log; first (None, start)."""
        game = registry.get(match.game)
        state = game.replay_start(match.rules_version or 1, players=match.num_seats,
                                  options=match.options, seed=match.seed)
        yield None, state
        for entry in self.moves(match.id):
            if upto_ply is not None and entry["ply"] > upto_ply:
                return
            state = state.play(entry["move"])
            yield entry, state

    def replay(self, match_id: str) -> list[ReplayStep]:
        """The public (spectator) view after every ply, from the seed and the move log."""
        return [{"ply": 0 if entry is None else entry["ply"],
                 "move": None if entry is None else entry["move"],
                 "seat": None if entry is None else entry["seat"], "view": state.view(None)}
                for entry, state in self.replayed_states(store.read(self.session, match_id))]

    # -- creating and joining ----------------------------------------------------------------

    @staticmethod
    def _new_state(setup: MatchSetup, seed: int) -> State:
        try:
            return setup.game.new_state(players=setup.num_seats, options=setup.options, seed=seed)
        except (ValueError, IllegalMove) as error:
            raise Invalid(str(error), code="invalid_options") from None

    def _new_match(self, setup: MatchSetup, creator_id: int | None, rated: bool = False,
                   time_control: StoredTimeControl | None = None, seed: int | None = None,
                   **extra: Any) -> Match:
        seed = new_seed() if seed is None else seed
        state = self._new_state(setup, seed)
        match = Match(id=_new_match_id(), game=setup.game.id, options=setup.options, seed=seed,
                      num_seats=setup.num_seats, status="waiting", ply=0,
                      snapshot=state.to_json(), created_by=creator_id, rated=rated,
                      time_control=time_control, version=0, eliminated=[], **extra)
        self.session.add(match)
        return match

    def create(
        self,
        creator: Identity,
        game_id: str,
        options: JSONObject | None = None,
        seat: int | str | None = None,
        players: int | None = None,
        time_control: clocks.TimeControl | JSONObject | None = None,
    ) -> MatchRecord:
        """A new private match with the creator seated; it starts once every seat is taken.
        Core statements (the match, the seat and its user) and a record built from them, as a
        join's: the ORM's flush and the seat's lazy user load cost about twice the CPU."""
        setup = validate_setup(game_id, options, players)
        control = clocks.parse_time_control(time_control)
        seed = new_seed()
        state = self._new_state(setup, seed)
        chosen_seat = self._choose_seat(seat, set(), setup.num_seats)
        moment = now()
        snapshot = state.to_json()
        match = MatchRow(
            id=_new_match_id(), game=setup.game.id, options=setup.options, seed=seed,
            num_seats=setup.num_seats, status="waiting", rated=False, time_control=control,
            clock=None, deadline_at=None, offers=None, eliminated=[], version=0,
            rematch_of=None, sealed=False, tournament_id=None,
            rules_version=int(snapshot.get("rules_version", 1)), ply=0, snapshot=snapshot,
            result=None, created_by=creator.id, created_at=moment, started_at=None,
            finished_at=None, updated_at=moment, players=[])
        store.insert_match(self.session, match)
        store.seat_player(self.session, match, chosen_seat, creator.id)
        for key, value in store.start_values(match).items():
            setattr(match, key, value)
        if match.status != "waiting":  # every seat is taken already: written as started
            self.session.connection().execute(
                update(Match.__table__).where(Match.__table__.c.id == match.id),
                {k: getattr(match, k) for k in ("status", "started_at", "updated_at", "clock",
                                                "deadline_at")})
        self.session.commit()
        record = record_of(match)
        self.publish(record)
        return record

    def create_started(self, setup: MatchSetup, seated: list[int], rated: bool = False,
                       time_control: StoredTimeControl | None = None,
                       creator_id: int | None = None, tournament_id: str | None = None,
                       sealed: bool = False, seed: int | None = None) -> Match:
        """A match with every seat already taken (``seated[seat]`` = user id), not committed:
        the lobby commits it together with the seek it fulfils. ``sealed``: readable by its
        seated players only until opened (app/match/sealing.py). ``seed``: a secret seed drawn
        earlier that several matches share (a daily deal); by default a new one."""
        match = self._new_match(setup, creator_id, rated, time_control, seed,
                                tournament_id=tournament_id, sealed=sealed)
        for seat, user_id in enumerate(seated):
            match.players.append(MatchPlayer(seat=seat, user_id=user_id))
        store.start_if_full(match)
        return match

    def announce(self, match: Match) -> MatchRecord:
        """Publish a match committed outside ``store.commit`` (created, joined, rematched)."""
        record = store.record(self.session, match)
        self.publish(record)
        return record

    def commit(self, match: store.AnyMatch, values: MatchValues,
               moves: list[MoveValues] | None = None, *, blame: dict[int, str] | None = None,
               **options: Unpack[CommitOptions]) -> MatchRecord:
        """Apply a change to a match read in this session (``store.commit``: the version read
        must still be current, else 409 ``stale_ply`` and nothing changes) and publish it.
        The one way offers, clocks and moves change a match. ``blame``: seats that abandoned
        the game by this change (seat -> playban outcome); a rated real-time game's outcomes
        are recorded after the commit (app/match/playban.py)."""
        if values.get("status") in ("finished", "aborted") \
                or options.get("delete_after_ply") is not None:
            conditionals.clear(self.session, match)  # in the change's transaction
        record = store.commit(self.session, match, values, moves, **options)
        if self.warm is not None:
            state = options.get("state")
            if isinstance(match, MatchRow) and state is not None:
                self.warm.keep(after_commit(match, values | {"version": record.version}, state))
            else:
                self.warm.forget(match.id)
        self.publish(record)
        finished = values.get("status") == "finished"
        if match.rated and (blame or finished):
            playban.judge(self.session, match, blame or {}, finished)
        return record

    @staticmethod
    def _choose_seat(seat: int | str | None, taken: set[int], num_seats: int) -> int:
        free = [s for s in range(num_seats) if s not in taken]
        if not free:
            raise Conflict("Every seat of this match is taken.", code="match_full")
        if seat is None:
            return free[0]
        if seat == "random":
            return random.choice(free)
        if not isinstance(seat, int) or not 0 <= seat < num_seats:
            raise Invalid(f"Seat must be 0–{num_seats - 1} or 'random'.", code="invalid_seat")
        if seat in taken:
            raise Conflict(f"Seat {seat} is taken.", code="seat_taken")
        return seat

    def join(self, match_id: str, user: Identity, seat: int | str | None = None) -> MatchRecord:
        """Take a seat. The row lock (PostgreSQL) or the immediate transaction (SQLite) makes the
        check and the claim one step, so a full match always starts and nobody sits twice.
        Core statements (lock, read, the seat's row, its user, the guarded update), and the
        record is built from them as a move's is: the ORM's load and flush cost several times
        as much CPU."""
        match = store.read(self.session, match_id, lock=True)
        if any(p.user_id == user.id for p in match.players):
            raise Conflict("You already play in this match.", code="already_joined")
        if match.status != "waiting":
            raise Conflict("This match has already started.", code="match_full")
        chosen = self._choose_seat(seat, {p.seat for p in match.players}, match.num_seats)
        try:
            store.seat_player(self.session, match, chosen, user.id)
        except IntegrityError:
            self.session.rollback()
            raise Conflict("Someone took that seat first.", code="seat_taken") from None
        return self.commit(match, store.start_values(match))

    # -- playing ------------------------------------------------------------------------------

    def _progress(self, match: store.AnyMatch, state: State, played: list[tuple[int, str]],
                  moment: datetime, eliminated: list[int],
                  follow: conditionals.Plan | None = None
                  ) -> tuple[MatchValues, list[MoveValues], State]:
        """Values and move rows after ``played`` moves: automatic moves (forced, or for seats
        that left, or a seat's conditional reply from ``follow``), clocks, the next deadline,
        and the result when the game (or the field) ends."""
        clock = match.clock
        rows: list[MoveValues] = []
        ply = match.ply
        rng = _PublicChoices(f"{match.id}:{ply}")  # not the seed: moves made here are public
        active = [s for s in range(match.num_seats) if s not in eliminated]
        queue = list(played)
        while True:
            if queue:
                seat, move = queue.pop(0)
            else:  # a forced move, or a seat that left: the server moves for it
                automatic = _automatic_move(state, eliminated, len(active), rng)
                if automatic is None and follow is not None:
                    automatic = follow.follow(state, [row["move"] for row in rows])
                if automatic is None:
                    break
                seat, move = automatic
                state = state.play(move)
            clock, spent = clocks.after_move(match.time_control, clock, seat, state.to_move,
                                             match.num_seats, moment)
            ply += 1
            rows.append(store.move_row(match, ply, seat, move, spent, moment))
        values: MatchValues = {"ply": ply, "snapshot": state.to_json(), "clock": clock,
                               "eliminated": eliminated, "updated_at": moment,
                               "offers": _without(match.offers, "draw", "end", "takeback")}
        result = None
        if len(active) <= 1:
            result = _standings_result(active, eliminated, state.result, results.LAST_STANDING)
        elif state.is_over:
            assert state.result is not None
            result = _standings_result(active, eliminated, state.result, state.result.reason)
        if result is not None:
            values |= {"status": "finished", "finished_at": moment, "result": result,
                       "deadline_at": None}
        else:
            values["deadline_at"] = clocks.deadline(match.time_control, clock, state.to_move)
        return values, rows, state

    def play(self, match_id: str, user: Identity, move: str, expected_ply: int,
             seat: int | None = None) -> MatchRecord:
        """Validate and append one move, or change nothing and raise. ``seat`` picks one of
        several seats the same user holds (a bot filling several seats of one match).

        On PostgreSQL a move is read and written with single statements, outside a transaction
        (``store.begin_single_statements``: two round trips instead of five); the rare move that
        needs a transaction (the end of a rated game) is played again in one."""
        with MOVE_COMMIT_SECONDS.time():
            if store.begin_single_statements(self.session):
                try:
                    return self._play(match_id, user, move, expected_ply, seat)
                except store.NeedsTransaction:
                    pass  # nothing was written: played below, in a transaction
                finally:  # whatever comes next on this session is in a transaction again
                    store.end_single_statements(self.session)
            return self._play(match_id, user, move, expected_ply, seat)

    def _play(self, match_id: str, user: Identity, move: str, expected_ply: int,
              seat: int | None) -> MatchRecord:
        """The move on this process's warm copy of the match when it has one at that ply (no
        read); on the database's if that copy was out of date or the move is refused, so every
        refusal is decided on what the database holds (app/match/warm.py)."""
        warm = self.warm.take(match_id, expected_ply) if self.warm is not None else None
        if warm is not None:
            try:
                return self._move(warm.row, warm.state, user, move, expected_ply, seat)
            except (ServiceError, _Cold):
                pass  # nothing was written: decided again below, on a fresh read
        return self._move(store.read(self.session, match_id), None, user, move, expected_ply,
                          seat)

    def _move(self, match: MatchRow, warm_state: State | None, user: Identity, move: str,
              expected_ply: int, seat: int | None) -> MatchRecord:
        """Validate and commit one move on ``match``; ``warm_state``: its engine state when
        ``match`` is a warm copy (which never flags a clock: that needs the database's word)."""
        seat = store.seat_of(match, user) if seat is None else store.check_seat(match, user, seat)
        store.require_active(match)
        if expected_ply != match.ply:
            raise Conflict(
                f"The match is at ply {match.ply}, not {expected_ply}: refresh and try again.",
                code="stale_ply")
        moment = now()
        if match.deadline_at is not None and moment >= match.deadline_at:
            if warm_state is not None:
                raise _Cold
            self.flag(match.id)
            raise Conflict("Your time ran out before this move arrived.", code="time_out")
        state = warm_state if warm_state is not None else store.state_of(match)
        if state.to_move != seat:
            raise Forbidden("It is not your turn.", code="not_your_turn")
        try:
            canonical = state.parse_move(move)
            following = state.play(canonical)
        except IllegalMove as error:
            raise why.illegal_move_error(state.game_id, error) from None
        plan = conditionals.plan(self.session, match)
        values, rows, after = self._progress(match, following, [(seat, canonical)],
                                             moment, list(match.eliminated or []), plan)
        if plan is not None:
            plan.settle(self.session, [row["move"] for row in rows],
                        values.get("status") == "finished")
        return self.commit(match, values, rows, state=after)

    def resign(self, match_id: str, user: Identity) -> MatchRecord:
        """Two players: the other wins. More: the resigning seat is ranked last and its remaining
        choices are made automatically so the others can finish."""
        match = store.read(self.session, match_id)
        seat = store.seat_of(match, user)
        store.require_active(match)
        if seat in (match.eliminated or []):
            raise Conflict("You have already left this match.", code="already_out")
        return self._eliminate(match, seat, results.RESIGNED, now())

    def _eliminate(self, match: store.AnyMatch, seat: int, reason: str, moment: datetime,
                   clock: StoredClock | None = None, blame: dict[int, str] | None = None
                   ) -> MatchRecord:
        eliminated = [*(match.eliminated or []), seat]
        if clock is not None:
            match.clock = clock  # the flagged clock, written with the other values below
        values, rows, after = self._progress(match, store.state_of(match), [], moment,
                                             eliminated)
        if values.get("status") == "finished":
            result = values["result"]
            assert result is not None  # a finished match has one
            result["reason"] = reason
            result["details"] = {**result.get("details", {}), "out": eliminated}
        return self.commit(match, values, rows, blame=blame, state=after)

    def berserk(self, match_id: str, user: Identity) -> MatchRecord:
        """The user's seat halves its clock and plays without increment (an arena's berserk):
        only in a real-time game in play, before the seat's first move, once."""
        match = store.read(self.session, match_id)
        seat = store.seat_of(match, user)
        store.require_active(match)
        clock = clocks.berserked(match.time_control, match.clock, seat)
        if clock is None:
            raise Conflict("Berserk is for a real-time game, once, before your first move.",
                           code="cannot_berserk")
        return self.commit(match, {"clock": clock})

    def flag(self, match_id: str) -> MatchRecord | None:
        """The player to move has run out of time (at the stored deadline, even if found late).
        Before clocks start, a missed first move aborts the match instead."""
        match = store.read(self.session, match_id)
        if match.status != "active" or match.deadline_at is None or now() < match.deadline_at:
            return None
        state = store.state_of(match)
        moment = match.deadline_at
        if match.clock is None or not match.clock.get("running", False):
            missed = {} if state.to_move is None else {state.to_move: playban.NO_START}
            return self.commit(match, {"status": "aborted", "deadline_at": None,
                                        "finished_at": moment, "updated_at": moment},
                               blame=missed)
        assert state.to_move is not None
        outcome = playban.flag_outcome(match.time_control, match.clock, moment)
        clock: StoredClock = {**match.clock, "remaining_ms": [
            0 if s == state.to_move else ms for s, ms in enumerate(match.clock["remaining_ms"])]}
        return self._eliminate(match, state.to_move, results.TIME_OUT, moment, clock,
                               blame={} if outcome == playban.GOOD else {state.to_move: outcome})

    def claim_victory(self, match_id: str, user: Identity, away_seconds: dict[int, float],
                      threshold_seconds: float) -> MatchRecord:
        """In a real-time game, win when every other player still in has been gone too long."""
        match = store.read(self.session, match_id)
        seat = store.seat_of(match, user)
        store.require_active(match)
        if match.time_control is None or match.time_control.get("kind") != "realtime":
            raise Conflict("Only real-time games can be claimed.", code="cannot_claim")
        others = [s for s in range(match.num_seats) if s != seat and s not in (match.eliminated or [])]
        waiting = [s for s in others if away_seconds.get(s, 0.0) < threshold_seconds]
        if waiting:
            left = min(threshold_seconds - away_seconds.get(s, 0.0) for s in waiting)
            raise Conflict(f"Your opponent may still come back: try again in {left:.0f} s.",
                           code="cannot_claim")
        eliminated = [*(match.eliminated or []), *others]
        values, rows, after = self._progress(match, store.state_of(match), [], now(), eliminated)
        result = values["result"]  # every other seat left: the game is over
        assert result is not None
        result["reason"] = results.OPPONENT_LEFT
        return self.commit(match, values, rows, state=after,
                           blame={s: playban.RAGE_QUIT for s in others})

    def abort(self, match_id: str, user: Identity) -> MatchRecord:
        """Call a match off before every seat has moved: no result, no rating."""
        match = store.read(self.session, match_id)
        seat = store.seat_of(match, user)
        if match.status not in ("waiting", "active"):
            raise Conflict(f"The match is {match.status}.", code="match_not_active")
        movers = set(self.session.scalars(select(Move.seat).where(Move.match_id == match.id)))
        if match.status == "active" and len(movers) >= match.num_seats:
            raise Conflict("Everyone has moved: resign instead of aborting.", code="cannot_abort")
        moment = now()
        # Calling off a game an opponent has already moved in abandons it (a playban outcome).
        blame = {seat: playban.ABORT} if movers - {seat} else {}
        return self.commit(match, {"status": "aborted", "deadline_at": None,
                                    "finished_at": moment, "updated_at": moment}, blame=blame)


class _PublicChoices:
    """The choices the server makes for a seat that left, from a public seed: the generator is
    seeded on the first choice (seeding hashes the seed string, and most moves make none)."""

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def choice(self, moves: list[str]) -> str:
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng.choice(moves)


def _automatic_move(state: State, eliminated: list[int], active_count: int,
                    rng: _PublicChoices) -> tuple[int, str] | None:
    """The move the server makes itself: a forced move (the game declares it, e.g. a pass that
    is the only legal move), or any choice of a seat that resigned or timed out while others
    play on."""
    if state.is_over or state.to_move is None:
        return None
    forced = state.forced_move()
    if forced is not None:
        return state.to_move, forced
    if state.to_move in eliminated and active_count > 1:
        return state.to_move, rng.choice(state.legal_moves())
    return None


def _without(offers: dict[str, Any] | None, *kinds: str) -> dict[str, Any]:
    return {k: v for k, v in (offers or {}).items() if k not in kinds}


def _standings_result(active: list[int], eliminated: list[int], engine_result: Result | None,
                      reason: str) -> dict[str, Any]:
    """The engine's ranking among the seats still in, then the eliminated seats, the first to
    leave ranked last. Without eliminations this is exactly the engine's result."""
    if engine_result is not None and len(active) > 1:
        groups = [[s for s in group if s in active] for group in engine_result.ranking]
        groups = [group for group in groups if group]
        winners = [s for s in engine_result.winners if s in active]
        scores, details = engine_result.scores, engine_result.details
    else:
        groups = [active] if active else []
        winners = list(active)
        scores = engine_result.scores if engine_result else None
        details = {}
    return {"winners": winners, "ranking": groups + [[seat] for seat in reversed(eliminated)],
            "scores": None if scores is None else list(scores), "reason": reason,
            "details": details}
