"""Tournament use cases: create, list, read (standings, pairings), join, withdraw, enter a bot.

Rules decided here (also in docs/tournaments.md):
- accounts create tournaments; anyone signed in (guests too) may join a casual one, only
  accounts and bots a rated one;
- Swiss and arena are for two-player games; duplicate is for games whose deal is fixed by
  secret options (Town of Stairs), and is never rated (rated games refuse fixed deals);
- an arena needs a real-time clock (an untimed game would hold its players past the end);
- players may join until the last round is paired (Swiss, duplicate: they start with 0 points)
  or the arena ends; withdrawing before the start leaves, after it stops further pairings;
- a tournament's own deal is secret until its round has ended at every table.
"""

from __future__ import annotations

import secrets
import string
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import and_, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.json_shapes import StoredTimeControl
from app.db.models import Rating, User
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.kernel.timesource import now
from app.match import (
    MatchService,
    ensure_bot_copy,
    iso,
    parse_time_control,
    public_options,
    refuse_playban,
    secret_options_set,
    validate_setup,
)
from app.people import can_play_rated
from app.protocol import TournamentMessage
from app.realtime.messages import bus_form
from app.tournaments import pairing
from app.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentGame,
    TournamentRound,
    TournamentSeat,
)
from games import registry

KINDS = ("swiss", "arena", "duplicate")
MAX_ROUNDS = 30
MAX_MINUTES = 24 * 60
DEFAULT_RATING = 25.0
LIST_CHANNEL = "tournaments"
Publish = Callable[[str, JSONObject], None]
"""Sends a message (already in its wire form, ``bus_form``) to a channel."""


class EntrantJSON(TypedDict):
    id: int
    name: str
    kind: str


class TournamentSummary(TypedDict):
    """A tournament in the lists (``TournamentService.list``)."""

    id: str
    name: str
    kind: str
    game: str
    options: JSONObject  # the public ones
    time_control: StoredTimeControl | None
    rated: bool
    rounds: int | None
    minutes: int | None
    starts_at: str | None
    ends_at: str | None
    status: str
    round: int
    version: int
    created_by: EntrantJSON | None
    url: str
    players: int  # entrants still in


class StandingRow(TypedDict, total=False):
    """One line of the standings: Swiss ranks by score, Buchholz, Sonneborn–Berger; arena and
    duplicate by points (``games`` played; an arena's ``on_fire``)."""

    rank: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    on_fire: bool
    user: EntrantJSON
    withdrawn: bool
    paused: bool


class TableSeatJSON(TypedDict):
    seat: int | None  # None: a bye
    user: EntrantJSON
    result: float | None
    points: float | None
    berserk: bool


class TableJSON(TypedDict):
    """One game of a round (a duplicate round's other tables hide their match until it ends)."""

    round: int
    board: int
    status: str
    match_id: str | None
    url: str | None
    seats: list[TableSeatJSON]


class RoundInfo(TypedDict):
    number: int
    finished: bool
    deal: JSONObject | None  # a duplicate round's deal, once the round is over


class YouJSON(TypedDict):
    joined: bool
    withdrawn: bool
    paused: bool
    creator: bool


class TournamentJSON(TournamentSummary):
    """A tournament with its standings and every round's games (``TournamentService.get``)."""

    standings: list[StandingRow]
    games: list[TableJSON]
    rounds_info: list[RoundInfo]
    you: YouJSON | None


class TournamentLists(TypedDict):
    upcoming: list[TournamentSummary]
    running: list[TournamentSummary]
    finished: list[TournamentSummary]


def tournament_channel(tournament_id: str) -> str:
    return f"tournament:{tournament_id}"


def _new_id() -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(8))


def deal_options(game_id: str) -> frozenset[str]:
    """The options that fix a deal (the game's ``draw_deal``): a game that has them can be
    played in duplicate."""
    return frozenset(registry.get(game_id).draw_deal(0) or {})


def announce(publish: Publish, tournament: Tournament) -> None:
    """Tell the tournament's page and the list that it changed (they read it again)."""
    message = bus_form(TournamentMessage(type="tournament", id=tournament.id,
                                         status=tournament.status, round=tournament.round,
                                         version=tournament.version))
    publish(tournament_channel(tournament.id), message)
    publish(LIST_CHANNEL, message)


def _rating(session: Session, user_id: int, game: str) -> float:
    rating = session.scalar(select(Rating).where(Rating.user_id == user_id, Rating.game == game))
    return rating.mu if rating is not None else DEFAULT_RATING


class TournamentService:
    def __init__(self, session: Session, publish: Publish | None = None) -> None:
        self.session = session
        self.publish = publish or (lambda channel, message: None)

    # -- creating ---------------------------------------------------------------------------------

    def create(self, creator: Identity, *, name: str, kind: str, game: str,
               options: JSONObject | None, time_control: JSONObject | None,
               starts_at: datetime | None, rounds: int | None, minutes: float | None,
               rated: bool) -> TournamentJSON:
        if creator.kind != "account":
            raise Forbidden("Sign up to create tournaments.", code="accounts_only")
        if kind not in KINDS:
            raise Invalid(f"Kinds are {', '.join(KINDS)}.", code="invalid_kind")
        players = 2 if kind != "duplicate" else None
        setup = validate_setup(game, options, players)
        if kind == "duplicate":
            if not deal_options(setup.game.id):
                raise Invalid("Duplicate tournaments need a game whose deal can be fixed.",
                              code="no_duplicate_deal")
            if rated:
                raise Invalid("Duplicate deals are fixed by the server: duplicate tournaments "
                              "are not rated.", code="duplicate_unrated")
        elif setup.game.min_players > 2:
            raise Invalid("Swiss and arena tournaments are for two-player games.",
                          code="two_player_game_only")
        if secret_options_set(setup.game, setup.options):
            raise Invalid("Tournament deals are made by the server: leave out "
                          f"{', '.join(secret_options_set(setup.game, setup.options))}.",
                          code="secret_options_in_tournament")
        control = parse_time_control(time_control)
        start = starts_at or now()
        offset = start.utcoffset()  # None for a naive time, taken as UTC
        if offset is not None:
            start = (start - offset).replace(tzinfo=None)
        if start < now() - timedelta(minutes=5):
            raise Invalid("The start time has passed.", code="start_in_past")
        ends_at = None
        if kind == "arena" and (control is None or control.get("kind") != "realtime"):
            raise Invalid("An arena is played with a real-time clock.", code="arena_needs_realtime")
        if kind == "arena":
            if minutes is None or not 0.1 <= minutes <= MAX_MINUTES:
                raise Invalid(f"An arena lasts 0.1–{MAX_MINUTES} minutes.", code="invalid_duration")
            ends_at = start + timedelta(minutes=minutes)
            rounds = None
        elif rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            raise Invalid(f"Give 1–{MAX_ROUNDS} rounds.", code="invalid_rounds")
        cleaned = " ".join((name or "").split())[:60] or f"{setup.game.id} {kind}"
        tournament = Tournament(
            id=_new_id(), name=cleaned, kind=kind, game=setup.game.id, options=setup.options,
            time_control=control, rated=rated, rounds=rounds,
            minutes=None if minutes is None else max(1, round(minutes)), starts_at=start,
            ends_at=ends_at, status="upcoming", round=0, version=0, created_by=creator.id)
        self.session.add(tournament)
        self.session.commit()
        announce(self.publish, tournament)
        return self.get(tournament.id, creator.id)

    # -- entering and leaving -------------------------------------------------------------------------

    def _load(self, tournament_id: str, lock: bool = False) -> Tournament:
        if lock:  # the row alone (the creator is an outer join, which cannot be locked)
            self.session.execute(select(Tournament.id).where(Tournament.id == tournament_id)
                                 .with_for_update())
        tournament = self.session.scalars(select(Tournament).where(
            Tournament.id == tournament_id)).first()
        if tournament is None:
            raise NotFound(f"There is no tournament {tournament_id!r}.", code="no_tournament")
        return tournament

    def _can_still_join(self, tournament: Tournament) -> None:
        if tournament.status == "finished":
            raise Conflict("This tournament is over.", code="tournament_finished")
        last_round_paired = (tournament.kind != "arena" and tournament.rounds is not None
                             and tournament.round >= tournament.rounds)
        if last_round_paired:
            raise Conflict("The last round is already paired.", code="tournament_closed")

    def join(self, tournament_id: str, user: Identity) -> TournamentJSON:
        tournament = self._load(tournament_id, lock=True)
        self._can_still_join(tournament)
        if tournament.rated and not can_play_rated(user.kind):
            raise Forbidden("Rated tournaments are for accounts: sign up to join.",
                            code="rated_needs_account")
        if tournament.rated:
            refuse_playban(self.session, user.id)
        self._enter(tournament, user.id)
        return self.get(tournament_id, user.id)

    def _enter(self, tournament: Tournament, user_id: int) -> None:
        entry = self.session.scalar(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament.id, TournamentEntry.user_id == user_id))
        if entry is not None and not entry.withdrawn and not entry.paused:
            raise Conflict("You are already in this tournament.", code="already_joined")
        if entry is None:
            self.session.add(TournamentEntry(tournament_id=tournament.id, user_id=user_id,
                                             rating=_rating(self.session, user_id, tournament.game)))
        else:  # back after withdrawing, or after a pause
            entry.withdrawn = entry.paused = False
        try:
            self.session.commit()
        except IntegrityError:
            self.session.rollback()
            raise Conflict("You are already in this tournament.", code="already_joined") from None
        announce(self.publish, tournament)

    def add_bot(self, tournament_id: str, user: Identity, level: str) -> TournamentJSON:
        """The creator enters a built-in bot: the level's bot, or a further copy of it when that
        one already plays here (each copy is a distinct player)."""
        tournament = self._load(tournament_id, lock=True)
        if tournament.created_by != user.id:
            raise Forbidden("Only the tournament's creator may enter bots.", code="not_creator")
        self._can_still_join(tournament)
        playing = set(self.session.scalars(select(TournamentEntry.user_id).where(
            TournamentEntry.tournament_id == tournament.id, TournamentEntry.withdrawn.is_(False),
            TournamentEntry.paused.is_(False))))
        bot = ensure_bot_copy(self.session, level, playing)
        self._enter(tournament, bot.id)
        return self.get(tournament_id, user.id)

    def start_now(self, tournament_id: str, user: Identity) -> TournamentJSON:
        """The creator starts an upcoming tournament early (the job pairs it on its next pass)."""
        tournament = self._load(tournament_id, lock=True)
        if tournament.created_by != user.id:
            raise Forbidden("Only the tournament's creator may start it.", code="not_creator")
        if tournament.status != "upcoming":
            raise Conflict("This tournament has already started.", code="already_started")
        moment = now()
        if tournament.ends_at is not None:
            tournament.ends_at = moment + (tournament.ends_at - tournament.starts_at)
        tournament.starts_at = moment
        self.session.commit()
        announce(self.publish, tournament)
        return self.get(tournament_id, user.id)

    def withdraw(self, tournament_id: str, user: Identity) -> TournamentJSON:
        tournament = self._load(tournament_id, lock=True)
        entry = self.session.scalar(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament.id, TournamentEntry.user_id == user.id))
        if entry is None or entry.withdrawn:
            raise Conflict("You are not in this tournament.", code="not_joined")
        if tournament.status == "finished":
            raise Conflict("This tournament is over.", code="tournament_finished")
        if tournament.status == "upcoming":
            self.session.delete(entry)
        else:
            entry.withdrawn = True
        self.session.commit()
        announce(self.publish, tournament)
        return self.get(tournament_id, user.id)

    def pause(self, tournament_id: str, user: Identity) -> TournamentJSON:
        """An arena player steps away: the game in play goes on, no new one is paired until
        they join again. 409 ``not_joined``, ``not_an_arena``, ``tournament_finished``."""
        tournament = self._load(tournament_id, lock=True)
        if tournament.kind != "arena":
            raise Conflict("Only an arena pauses: withdraw from other tournaments.",
                           code="not_an_arena")
        if tournament.status == "finished":
            raise Conflict("This tournament is over.", code="tournament_finished")
        entry = self.session.scalar(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament.id, TournamentEntry.user_id == user.id))
        if entry is None or entry.withdrawn:
            raise Conflict("You are not in this tournament.", code="not_joined")
        entry.paused = True
        self.session.commit()
        announce(self.publish, tournament)
        return self.get(tournament_id, user.id)

    def berserk(self, tournament_id: str, user: Identity, matches: MatchService) -> TournamentJSON:
        """Go berserk in one's arena game in play, before one's first move: half the clock, no
        increment; a win with at least 7 of one's own moves then scores a point more.
        409 ``not_an_arena``, ``no_game_in_play``, ``cannot_berserk``."""
        tournament = self._load(tournament_id)
        if tournament.kind != "arena":
            raise Conflict("Berserk is for arenas.", code="not_an_arena")
        seat = self.session.scalar(
            select(TournamentSeat).join(TournamentGame)
            .where(TournamentSeat.tournament_id == tournament.id,
                   TournamentSeat.user_id == user.id, TournamentGame.status == "playing"))
        if seat is None or seat.game_id is None:
            raise Conflict("You have no game in play in this arena.", code="no_game_in_play")
        game = self.session.get(TournamentGame, seat.game_id)
        assert game is not None and game.match_id is not None
        seat.berserk = True  # committed with the clock, in one transaction
        matches.berserk(game.match_id, user)
        announce(self.publish, tournament)
        return self.get(tournament_id, user.id)

    # -- reading -----------------------------------------------------------------------------------

    def list(self, limit: int = 50, finished_after: tuple[str, str] | None = None
             ) -> TournamentLists:
        """Upcoming (soonest first), running and finished (latest first) tournaments, at most
        ``limit`` of each; ``finished_after`` (a finished one's ``finished_key``): the finished
        ones after it alone, the next page of that list."""
        found: dict[str, list[TournamentSummary]] = {"upcoming": [], "running": []}
        for status, order in (("upcoming", Tournament.starts_at.asc()),
                              ("running", Tournament.starts_at.asc()),
                              ("finished", Tournament.starts_at.desc())):
            if finished_after is not None and status != "finished":
                continue
            query = (select(Tournament).where(Tournament.status == status)
                     .order_by(order, Tournament.id.desc()).limit(limit))
            if status == "finished" and finished_after is not None:
                try:
                    starts = datetime.fromisoformat(finished_after[0]).replace(tzinfo=None)
                except ValueError:
                    raise Invalid("That cursor belongs to another list.",
                                  code="invalid_cursor") from None
                tournament_id = finished_after[1]
                query = query.where(or_(Tournament.starts_at < starts, and_(
                    Tournament.starts_at == starts, Tournament.id < tournament_id)))
            found[status] = [self._summary(t) for t in self.session.scalars(query)]
        out: TournamentLists = {"upcoming": found["upcoming"], "running": found["running"],
                                "finished": found["finished"]}
        groups = (out["upcoming"], out["running"], out["finished"])
        counts = self._entrant_counts([item["id"] for group in groups for item in group])
        for group in groups:
            for item in group:
                item["players"] = counts.get(item["id"], 0)
        return out

    def _entrant_counts(self, ids: Sequence[str]) -> dict[str, int]:  # ``list`` is a method here
        counts: dict[str, int] = defaultdict(int)
        if ids:
            for tid in self.session.scalars(select(TournamentEntry.tournament_id).where(
                    TournamentEntry.tournament_id.in_(ids), TournamentEntry.withdrawn.is_(False))):
                counts[tid] += 1
        return counts

    def _summary(self, t: Tournament, players: int = 0) -> TournamentSummary:
        return {
            "id": t.id, "name": t.name, "kind": t.kind, "game": t.game,
            "options": public_options(t.game, t.options), "time_control": t.time_control,
            "rated": t.rated, "rounds": t.rounds, "minutes": t.minutes,
            "starts_at": iso(t.starts_at), "ends_at": iso(t.ends_at), "status": t.status,
            "round": t.round, "version": t.version,
            "created_by": None if t.creator is None else {
                "id": t.creator.id, "name": t.creator.name, "kind": t.creator.kind},
            "url": f"/tournaments/{t.id}", "players": players,
        }

    def get(self, tournament_id: str, viewer_id: int | None = None) -> TournamentJSON:
        """The tournament with its standings and every round's games (links included); a
        duplicate round's deal and other tables' games only once that round is over."""
        tournament = self._load(tournament_id)
        entries = list(self.session.scalars(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament.id)))
        games = list(self.session.scalars(select(TournamentGame).where(
            TournamentGame.tournament_id == tournament.id).order_by(
            TournamentGame.round, TournamentGame.id)))
        rounds = {r.number: r for r in self.session.scalars(select(TournamentRound).where(
            TournamentRound.tournament_id == tournament.id))}
        users = {e.user_id: e.user for e in entries}
        you: YouJSON | None = None
        if viewer_id is not None:
            mine = next((e for e in entries if e.user_id == viewer_id), None)
            you = {"joined": mine is not None and not mine.withdrawn,
                   "withdrawn": bool(mine and mine.withdrawn),
                   "paused": bool(mine and mine.paused and not mine.withdrawn),
                   "creator": tournament.created_by == viewer_id}
        return {
            **self._summary(tournament, sum(1 for e in entries if not e.withdrawn)),
            "standings": standings(tournament, entries, games),
            "games": [self._game_json(tournament, g, users, rounds, viewer_id) for g in games],
            "rounds_info": [{"number": n, "finished": r.finished,
                             "deal": r.deal if r.finished else None}
                            for n, r in sorted(rounds.items())],
            "you": you,
        }

    def _game_json(self, tournament: Tournament, game: TournamentGame, users: dict[int, User],
                   rounds: dict[int, TournamentRound], viewer_id: int | None) -> TableJSON:
        seated = [s.user_id for s in game.seats]
        hidden = (tournament.kind == "duplicate" and game.round in rounds
                  and not rounds[game.round].finished and viewer_id not in seated)
        return {
            "round": game.round, "board": game.board, "status": game.status,
            "match_id": None if hidden else game.match_id,
            "url": None if hidden or game.match_id is None else f"/m/{game.match_id}",
            "seats": [{"seat": s.seat, "user": _user_json(users.get(s.user_id), s.user_id),
                       "result": s.result, "points": s.points, "berserk": s.berserk}
                      for s in game.seats],
        }

    def games_of_match(self, match_id: str) -> str | None:
        """The tournament a match belongs to, if any."""
        return self.session.scalar(select(TournamentGame.tournament_id).where(
            TournamentGame.match_id == match_id))


def _user_json(user: User | None, user_id: int) -> EntrantJSON:
    if user is None:
        return {"id": user_id, "name": "?", "kind": "guest"}
    return {"id": user.id, "name": user.name, "kind": user.kind}


def swiss_records(entries: list[TournamentEntry], games: list[TournamentGame]
                  ) -> dict[int, pairing.SwissRecord]:
    """Each entrant's finished games (and byes), round by round, for pairing and standings."""
    records = {e.user_id: pairing.SwissRecord(e.user_id, rating=e.rating) for e in entries}
    for game in sorted(games, key=lambda g: (g.round, g.id)):
        if game.status == "bye":
            for seat in game.seats:
                if seat.user_id in records:
                    records[seat.user_id].games.append((None, pairing.BYE_POINTS, None))
            continue
        if game.status != "finished" or len(game.seats) != 2:
            continue
        a, b = game.seats
        for me, other in ((a, b), (b, a)):
            if me.user_id in records:
                records[me.user_id].games.append((other.user_id, me.result or 0.0, me.seat))
    return records


def standings(tournament: Tournament, entries: list[TournamentEntry],
              games: list[TournamentGame]) -> list[StandingRow]:
    """Ranked rows: Swiss by score, Buchholz, Sonneborn–Berger; arena and duplicate by points."""
    users = {e.user_id: e for e in entries}
    rows: list[tuple[int, StandingRow]] = []  # (user id, row)
    if tournament.kind == "swiss":
        for s in pairing.swiss_standings(swiss_records(entries, games).values()):
            rows.append((s.id, {"rank": s.rank, "score": s.score, "buchholz": s.buchholz,
                                "sonneborn_berger": s.sonneborn_berger}))
    else:
        points: dict[int, float] = defaultdict(float)
        played: dict[int, int] = defaultdict(int)
        fire: dict[int, list[float]] = defaultdict(list)
        for game in sorted(games, key=lambda g: g.id):
            if game.status != "finished":
                continue
            for seat in game.seats:
                points[seat.user_id] += seat.points or 0.0
                played[seat.user_id] += 1
                fire[seat.user_id].append(seat.result if seat.result is not None else 0.0)
        order = sorted(users, key=lambda u: (-points[u], -users[u].rating, u))
        previous: tuple[float, int] | None = None
        for index, user_id in enumerate(order):
            rank = previous[1] if previous and previous[0] == points[user_id] else index + 1
            previous = (points[user_id], rank)
            row: StandingRow = {"rank": rank, "score": points[user_id], "games": played[user_id]}
            if tournament.kind == "arena":
                row["on_fire"] = pairing.arena_on_fire(fire[user_id])
            rows.append((user_id, row))
    for user_id, row in rows:
        entry = users.get(user_id)
        assert entry is not None
        row["user"] = _user_json(entry.user, entry.user_id)
        row["withdrawn"] = entry.withdrawn
        row["paused"] = entry.paused and not entry.withdrawn
    return [row for _, row in rows]

