"""What the background job does for tournaments, one guarded transaction at a time:
start at the start time, record finished games, pair the next round when every game of the
round has ended (arena: pair whoever waits, at once), finish at the end.

Every step first bumps the tournament's ``version`` with a conditional update; a second
scheduler (a restart, a concurrent leader) that read the same version changes nothing, and the
unique (tournament, user, slot) seat row refuses a second pairing of anyone in a round. All state
is in SQL, so a restarted scheduler simply carries on from what is stored.

Rules (also in docs/tournaments.md): a finished two-player game scores 1 / ½ / 0 (Swiss) or
Lichess arena points; an aborted game (nobody's win) scores 0 for every seat, except in an
arena, where it counts for nobody (as on Lichess: no points, no game, a streak goes on through
it); a bye scores 1. Arena games still running when the arena ends do not count either. An
arena pairs only players who are there: one whose game was aborted because they never made
their first move is paused, as is one who pressed pause, until they join again. Duplicate
tables: rank points (pairing.rank_points).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match, Move, User
from app.db.session import rows_matched
from app.kernel.timesource import now
from app.match import (
    MatchService,
    MatchSetup,
    Publish,
    clock_deadline,
    load_match,
    new_seed,
    playbanned_among,
    state_of,
    unseal,
    validate_setup,
)
from app.tournaments import pairing
from app.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentGame,
    TournamentRound,
    TournamentSeat,
)
from app.tournaments.service import announce, swiss_records
from games import registry

log = logging.getLogger(__name__)
PublishEvent = Callable[[str, dict[str, Any]], None]
OVER = ("finished", "aborted")


def due_tournaments(session: Session) -> list[str]:
    moment = now()
    return list(session.scalars(select(Tournament.id).where(
        (Tournament.status == "running")
        | ((Tournament.status == "upcoming") & (Tournament.starts_at <= moment)))))


def advance_all(session_factory: sessionmaker[Session], publish_record: Publish,
                publish: PublishEvent) -> int:
    """One pass over every tournament that is due or running; returns how many changed."""
    with session_factory() as session:
        ids = due_tournaments(session)
    changed = 0
    for tournament_id in ids:
        try:
            with session_factory() as session:
                changed += Scheduler(session, publish_record, publish).advance(tournament_id)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s could not advance", tournament_id)
    return changed


class Scheduler:
    def __init__(self, session: Session, publish_record: Publish, publish: PublishEvent) -> None:
        self.session = session
        self.matches = MatchService(session, publish_record)
        self.publish = publish
        self.created: list[Match] = []
        self.opened: list[str] = []  # sealed tables opened by this step, announced after commit

    # -- the guard --------------------------------------------------------------------------------

    def _claim(self, tournament: Tournament, **values: Any) -> bool:
        """Bump the version (and set ``values``) only if nobody else did since we read it."""
        done = self.session.execute(
            update(Tournament).where(Tournament.id == tournament.id,
                                     Tournament.version == tournament.version)
            .values(version=tournament.version + 1, **values)
            .execution_options(synchronize_session=False))
        if rows_matched(done) != 1:
            self.session.rollback()
            return False
        tournament.version += 1
        for key, value in values.items():
            setattr(tournament, key, value)
        return True

    def _commit(self, tournament: Tournament) -> bool:
        try:
            self.session.commit()
        except IntegrityError:  # someone paired one of these players in this slot already
            self.session.rollback()
            self.created.clear()
            self.opened.clear()
            return False
        for match in self.created:
            self.matches.announce(match)
        self.created.clear()
        if self.opened:
            self.session.expire_all()  # the opening was a bulk update: read the rows anew
        for match_id in self.opened:  # seated sockets learn that the table is open
            self.matches.announce(load_match(self.session, match_id))
        self.opened.clear()
        announce(self.publish, tournament)
        return True

    # -- one step ---------------------------------------------------------------------------------

    def advance(self, tournament_id: str) -> int:
        tournament = self.session.get(Tournament, tournament_id)
        if tournament is None or tournament.status == "finished":
            return 0
        if tournament.status == "upcoming":
            if tournament.starts_at > now():
                return 0
            if not self._claim(tournament, status="running"):
                return 0
            if tournament.kind != "arena":
                self._pair_round(tournament)
                return 1
            if not self._commit(tournament):
                return 0
            return 1 + self._advance_arena(tournament)  # pair everyone at once
        changed = self._record_results(tournament)
        if tournament.kind == "arena":
            return changed + self._advance_arena(tournament)
        games = self._games(tournament, round_number=tournament.round)
        if any(g.status == "playing" for g in games):
            return changed
        if not self._claim(tournament):
            return changed
        self._close_round(tournament)
        if tournament.rounds is not None and tournament.round >= tournament.rounds:
            tournament.status, tournament.ends_at = "finished", now()
            return changed + int(self._commit(tournament))
        self._pair_round(tournament)
        return changed + 1

    def _games(self, tournament: Tournament, round_number: int | None = None) -> list[TournamentGame]:
        query = select(TournamentGame).where(TournamentGame.tournament_id == tournament.id)
        if round_number is not None:
            query = query.where(TournamentGame.round == round_number)
        return list(self.session.scalars(query.order_by(TournamentGame.id)))

    def _entries(self, tournament: Tournament) -> list[TournamentEntry]:
        return list(self.session.scalars(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament.id).order_by(TournamentEntry.id)))

    def _close_round(self, tournament: Tournament) -> None:
        current = self.session.scalar(select(TournamentRound).where(
            TournamentRound.tournament_id == tournament.id,
            TournamentRound.number == tournament.round))
        if current is not None and not current.finished:
            current.finished, current.finished_at = True, now()
        # The round has ended at every table: its deal is public, its tables open.
        ids = [g.match_id for g in self._games(tournament, round_number=tournament.round)
               if g.match_id is not None]
        self.opened.extend(unseal(self.session, ids))

    # -- results ----------------------------------------------------------------------------------

    def _record_results(self, tournament: Tournament) -> int:
        """Seat results and points of the games whose match has ended (one guarded commit)."""
        playing = list(self.session.execute(
            select(TournamentGame, Match).join(Match, Match.id == TournamentGame.match_id)
            .where(TournamentGame.tournament_id == tournament.id,
                   TournamentGame.status == "playing", Match.status.in_(OVER))))
        if not playing:
            return 0
        if not self._claim(tournament):
            return 0
        history = self._arena_history(tournament) if tournament.kind == "arena" else {}
        moved = self._moves_by_seat([m.id for g, m in playing
                                     if any(s.berserk for s in g.seats)])
        ends_at = tournament.ends_at if tournament.kind == "arena" else None
        absent: set[int] = set()
        for game, match in playing:
            if tournament.kind == "arena":
                absent |= {s.user_id for s in game.seats if s.seat == missed_first_move(match)}
            if ends_at is not None and match.finished_at is not None and match.finished_at > ends_at:
                game.status = "void"
                continue
            if tournament.kind == "arena" and match.status == "aborted":
                game.status = "void"  # no result for either player: a streak goes on through it
                continue
            _score(tournament.kind, game, match, history, moved.get(match.id, {}))
            game.status, game.finished_at = "finished", match.finished_at or now()
        if absent:  # not there: paired again once they come back (join)
            self.session.execute(update(TournamentEntry).where(
                TournamentEntry.tournament_id == tournament.id,
                TournamentEntry.user_id.in_(absent)).values(paused=True))
        return int(self._commit(tournament))

    def _moves_by_seat(self, match_ids: list[str]) -> dict[str, dict[int, int]]:
        """How many moves each seat made, per match (for the berserk bonus)."""
        counts: dict[str, dict[int, int]] = defaultdict(dict)
        if match_ids:
            rows = self.session.execute(
                select(Move.match_id, Move.seat, func.count()).where(Move.match_id.in_(match_ids))
                .group_by(Move.match_id, Move.seat))
            for match_id, seat, count in rows:
                counts[match_id][seat] = count
        return counts

    def _arena_history(self, tournament: Tournament) -> dict[int, list[float]]:
        """Each player's results so far, in order (for the streak)."""
        results: dict[int, list[float]] = defaultdict(list)
        rows = self.session.execute(
            select(TournamentSeat.user_id, TournamentSeat.result).join(TournamentGame)
            .where(TournamentSeat.tournament_id == tournament.id,
                   TournamentGame.status == "finished").order_by(TournamentSeat.slot))
        for user_id, result in rows:
            results[user_id].append(result or 0.0)
        return results

    # -- pairing ----------------------------------------------------------------------------------

    def _free_to_play(self, tournament: Tournament, entries: list[TournamentEntry]
                      ) -> list[TournamentEntry]:
        """Entrants a rated event may pair now: not those waiting out a playban
        (app/match/playban.py), nor closed accounts. They sit the round out, unscored."""
        ids = [e.user_id for e in entries]
        away = set(self.session.scalars(select(User.id).where(User.id.in_(ids),
                                                               User.closed_at.is_not(None))))
        if tournament.rated:
            away |= playbanned_among(self.session, ids)
        return [e for e in entries if e.user_id not in away]

    def _setup(self, tournament: Tournament, players: int,
               extra: dict[str, Any] | None = None) -> MatchSetup:
        return validate_setup(tournament.game, {**tournament.options, **(extra or {})}, players)

    def _new_game(self, tournament: Tournament, round_number: int, board: int,
                  seated: list[int], slots: list[int], setup: MatchSetup | None) -> None:
        game = TournamentGame(tournament_id=tournament.id, round=round_number, board=board,
                              status="playing" if setup else "bye")
        if setup is not None:
            match = self.matches.create_started(setup, seated, rated=tournament.rated,
                                                time_control=tournament.time_control,
                                                creator_id=tournament.created_by,
                                                tournament_id=tournament.id,
                                                sealed=tournament.kind == "duplicate")
            self.session.flush()  # the match row first: the game refers to it
            game.match_id = match.id
            self.created.append(match)
        for seat, (user_id, slot) in enumerate(zip(seated, slots, strict=True)):
            game.seats.append(TournamentSeat(
                tournament_id=tournament.id, user_id=user_id, slot=slot,
                seat=seat if setup else None, result=None if setup else 1.0,
                points=None if setup else pairing.BYE_POINTS))
        self.session.add(game)

    def _pair_round(self, tournament: Tournament) -> None:
        """Pair round ``round + 1`` (the caller holds the claim) and commit."""
        number = tournament.round + 1
        entries = self._entries(tournament)
        active = [e for e in entries if not e.withdrawn]
        if len(active) < 2:
            tournament.status, tournament.ends_at = "finished", now()
            self._commit(tournament)
            return
        active = self._free_to_play(tournament, active)
        if len(active) < 2:  # the round waits until two may play (nothing was written)
            self.session.rollback()
            return
        deal = None
        if tournament.kind == "swiss":
            records = swiss_records(entries, self._games(tournament))
            field = pairing.swiss_players(records[e.user_id] for e in active)
            setup = self._setup(tournament, 2)
            for board, pair in enumerate(pairing.pair_swiss(field), start=1):
                if pair.black is None:
                    self._new_game(tournament, number, board, [pair.white], [number], None)
                else:
                    self._new_game(tournament, number, board, [pair.white, pair.black],
                                   [number, number], setup)
        else:
            deal = self._pair_duplicate(tournament, number, active, entries)
        self.session.add(TournamentRound(tournament_id=tournament.id, number=number, deal=deal))
        tournament.round = number
        self._commit(tournament)

    def _pair_duplicate(self, tournament: Tournament, number: int, active: list[TournamentEntry],
                        entries: list[TournamentEntry]) -> dict[str, Any]:
        """Tables by standing (best together), seats rotated, one deal for every table."""
        games = self._games(tournament)
        points: dict[int, float] = defaultdict(float)
        seats_taken: dict[int, list[int]] = defaultdict(list)
        for game in games:
            for seat in game.seats:
                points[seat.user_id] += seat.points or 0.0
                if seat.seat is not None:
                    seats_taken[seat.user_id].append(seat.seat)
        ranked = sorted(active, key=lambda e: (-points[e.user_id], -e.rating, e.id))
        rules = registry.get(tournament.game)
        deal = rules.draw_deal(new_seed())
        assert deal is not None, "duplicate tournaments are only created for games with deals"
        sizes = rules.table_sizes(len(ranked))
        for board, table in enumerate(pairing.duplicate_tables([e.user_id for e in ranked], sizes),
                                      start=1):
            order = pairing.seat_table(table, seats_taken)
            setup = self._setup(tournament, len(order), rules.deal_for_players(deal, len(order)))
            self._new_game(tournament, number, board, order, [number] * len(order), setup)
        return deal

    # -- arena ------------------------------------------------------------------------------------

    def _advance_arena(self, tournament: Tournament) -> int:
        if tournament.ends_at is not None and now() >= tournament.ends_at:
            if not self._claim(tournament, status="finished"):
                return 0
            for game in self._games(tournament):
                if game.status == "playing":
                    game.status = "void"
            return int(self._commit(tournament))
        entries = [e for e in self._entries(tournament) if not e.withdrawn and not e.paused]
        entries = self._free_to_play(tournament, entries)
        games = self._games(tournament)
        busy = {s.user_id for g in games if g.status == "playing" for s in g.seats}
        waiting = [e for e in entries if e.user_id not in busy]
        if len(waiting) < 2:
            return 0
        score: dict[int, float] = defaultdict(float)
        slots: dict[int, int] = defaultdict(int)
        last: dict[int, tuple[int, int | None]] = {}
        colours: dict[int, list[int]] = defaultdict(list)
        for game in games:
            for seat in game.seats:
                score[seat.user_id] += seat.points or 0.0
                slots[seat.user_id] = max(slots[seat.user_id], seat.slot)
                others = [s.user_id for s in game.seats if s.user_id != seat.user_id]
                if seat.user_id not in last or last[seat.user_id][0] < seat.slot:
                    last[seat.user_id] = (seat.slot, others[0] if others else None)
                if seat.seat is not None:
                    colours[seat.user_id].append(seat.seat)
        field = [pairing.ArenaPlayer(e.user_id, score[e.user_id], e.rating,
                                     last.get(e.user_id, (0, None))[1]) for e in waiting]
        boards = pairing.pair_arena(field, players_in=len(entries))
        if not boards or not self._claim(tournament):
            return 0
        setup = self._setup(tournament, 2)
        for board in boards:
            first = pairing.assign_seats(
                pairing.SwissPlayer(board.white, colours=tuple(colours[board.white])),
                pairing.SwissPlayer(board.black or 0, colours=tuple(colours[board.black or 0])))
            seated = [first.white, first.black or 0]
            self._new_game(tournament, 0, 0, seated, [slots[u] + 1 for u in seated], setup)
        return int(self._commit(tournament))


def _score(kind: str, game: TournamentGame, match: Match, history: dict[int, list[float]],
           moves: dict[int, int] | None = None) -> None:
    """Results and points of a game whose match ended (``moves``: each seat's move count)."""
    seats = {s.seat: s for s in game.seats if s.seat is not None}  # only a bye has no seat
    result = match.result or {}
    if match.status != "finished" or not result:
        for seat in game.seats:
            seat.result, seat.points = 0.0, 0.0
        return
    if kind == "duplicate":
        points = pairing.rank_points(result.get("ranking") or [], len(seats))
        for number, seat in seats.items():
            seat.points = points.get(number, 0.0)
            seat.result = seat.points
        return
    winners = set(result.get("winners") or [])
    for number, seat in seats.items():
        seat.result = 0.5 if len(winners) != 1 else (1.0 if number in winners else 0.0)
        if kind == "arena":
            before = history.get(seat.user_id, [])
            seat.points = float(pairing.arena_points([*before, seat.result])[-1])
            if seat.berserk and seat.result == 1.0 and (moves or {}).get(number, 0) >= \
                    pairing.BERSERK_MIN_MOVES:
                seat.points += pairing.BERSERK_BONUS
        else:
            seat.points = seat.result


def missed_first_move(match: Match) -> int | None:
    """The seat whose first-move limit ran out, aborting the match (the clock keeper aborts
    at that very deadline; a player's own abort comes before it), else None."""
    if match.status != "aborted" or match.finished_at is None:
        return None
    to_move = state_of(match).to_move
    limit = clock_deadline(match.time_control, match.clock, to_move)
    if limit is None or match.finished_at < limit:
        return None
    return to_move
