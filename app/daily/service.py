"""The daily duplicate deal: one sealed Town deal per UTC day and player count.

Everyone who plays a day's deal plays the same cards (the matches share the deal's secret seed,
drawn from ``secrets`` when the first person of the day asks for it and kept on the server), from
the seat they chose, against easy bots — whose searches are seeded by the ply and bounded by
iterations, so they answer the same position the same way at every table. The matches are
``sealed`` (app/match/sealing.py): only their player sees them while the day lasts. When the
day ends the deal is revealed once, by whoever gets there first — the leader's job or any read
(a conditional update of ``revealed_at`` decides who) — and that transaction opens every game
of the deal that has ended; one still in play opens as it ends, and counts for nobody (it could
have looked at the others).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TypedDict

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.daily.standing import ScoreCount, distribution, percentile, rank_of
from app.db.models import DailyDeal, DailyEntry, Match, User
from app.kernel import timesource
from app.kernel.errors import Conflict, Invalid
from app.kernel.identity import Identity
from app.match import (
    MatchService,
    Publish,
    ensure_bot_user,
    iso,
    load_match,
    new_seed,
    unseal,
    validate_setup,
)
from games import registry

GAME = "town"
BOT_LEVEL = "easy"


def day_of(moment: datetime) -> str:
    """The UTC day of a naive UTC moment, ISO."""
    return moment.date().isoformat()


def day_end(day: str) -> datetime:
    """When ``day`` ends (UTC midnight after it)."""
    start = date.fromisoformat(day)
    return datetime(start.year, start.month, start.day) + timedelta(days=1)


class YouJSON(TypedDict):
    match_id: str
    seat: int
    status: str
    score: int | None
    counted: bool
    rank: int | None
    percentile: float | None


class PlayerJSON(TypedDict):
    id: int
    name: str
    kind: str


class EntryJSON(TypedDict):
    rank: int
    user: PlayerJSON
    seat: int
    score: int
    match_id: str | None


class DealJSON(TypedDict):
    game: str
    day: str
    players: int
    ends_at: str
    revealed: bool
    entries: int
    finished: int
    you: YouJSON | None
    distribution: list[ScoreCount] | None
    standings: list[EntryJSON] | None
    deal: RevealedDeal | None


class DailyJSON(TypedDict):
    game: str
    day: str
    ends_at: str
    deals: list[DealJSON]


class RevealedDeal(TypedDict):
    path_deck: list[str]
    event_deck: list[str]
    start_cards: list[int]
    seed: str


def revealed_deal(players: int, seed: int) -> RevealedDeal:
    """The cards of a revealed deal: both decks from the first offer on, and each seat's start
    card."""
    state = registry.get(GAME).new_state(players=players, seed=seed).to_json()
    return {"path_deck": [state["offer"][0], *state["path_deck"]],
            "event_deck": [state["offer"][1], *state["event_deck"]],
            "start_cards": list(state["start_cards"]), "seed": str(seed)}


class DailyService:
    def __init__(self, session: Session, publish: Publish | None = None) -> None:
        self.session = session
        self.publish = publish

    def _matches(self) -> MatchService:
        if self.publish is None:
            return MatchService.read_only(self.session)
        return MatchService(self.session, self.publish)

    # -- the deal ---------------------------------------------------------------------------------

    def _deal(self, day: str, players: int) -> DailyDeal | None:
        return self.session.scalar(select(DailyDeal).where(
            DailyDeal.game == GAME, DailyDeal.day == day, DailyDeal.players == players))

    def _ensure_deal(self, day: str, players: int) -> DailyDeal:
        """The day's deal, drawn now if nobody asked for it yet (a racing request that drew one
        first wins on the unique key; this one then reads it)."""
        found = self._deal(day, players)
        if found is not None:
            return found
        deal = DailyDeal(game=GAME, day=day, players=players, seed=new_seed())
        try:
            with self.session.begin_nested():
                self.session.add(deal)
        except IntegrityError:
            found = self._deal(day, players)
            assert found is not None
            return found
        return deal

    # -- results and the reveal -------------------------------------------------------------------

    def settle(self) -> int:
        """Record the score of every entry whose match has ended (caller commits). Returns how
        many were settled."""
        rows = self.session.execute(
            select(DailyEntry, Match, DailyDeal)
            .join(Match, Match.id == DailyEntry.match_id)
            .join(DailyDeal, DailyDeal.id == DailyEntry.deal_id)
            .where(DailyEntry.finished_at.is_(None), Match.status.in_(("finished", "aborted"))))
        settled = 0
        for entry, match, deal in rows:
            ended = match.finished_at or match.updated_at
            scores = (match.result or {}).get("scores") or []
            entry.finished_at = ended
            if match.status == "finished" and entry.seat < len(scores):
                entry.score = int(scores[entry.seat])
                entry.counted = deal.revealed_at is None and ended < day_end(deal.day)
            settled += 1
        return settled

    def reveal_due(self) -> list[str]:
        """Reveal every deal whose day has ended (each once, whoever calls: the conditional
        update decides) and open its ended games, and the ended games of deals revealed before;
        commits. Returns the ids of the matches opened, announced after the commit."""
        moment = timesource.now()
        self.settle()
        today = day_of(moment)
        due = list(self.session.scalars(select(DailyDeal.id).where(
            DailyDeal.revealed_at.is_(None), DailyDeal.day < today)))
        for deal_id in due:
            self.session.execute(update(DailyDeal).where(
                DailyDeal.id == deal_id, DailyDeal.revealed_at.is_(None))
                .values(revealed_at=moment).execution_options(synchronize_session=False))
        ended = list(self.session.scalars(
            select(DailyEntry.match_id).join(DailyDeal, DailyDeal.id == DailyEntry.deal_id)
            .join(Match, Match.id == DailyEntry.match_id)
            .where(DailyDeal.day < today, Match.sealed.is_(True),
                   Match.status.in_(("finished", "aborted")))))
        opened = unseal(self.session, ended)
        self.session.commit()
        if opened and self.publish is not None:
            self.session.expire_all()
            matches = MatchService(self.session, self.publish)
            for match_id in opened:  # seated sockets and watchers learn that the game is open
                matches.announce(load_match(self.session, match_id))
        return opened

    # -- reading ----------------------------------------------------------------------------------

    def _describe(self, deal: DailyDeal | None, day: str, players: int,
                  viewer_id: int | None) -> DealJSON:
        entries = [] if deal is None else list(self.session.execute(
            select(DailyEntry, User, Match.status)
            .join(User, User.id == DailyEntry.user_id)
            .join(Match, Match.id == DailyEntry.match_id)
            .where(DailyEntry.deal_id == deal.id)))
        revealed = deal is not None and deal.revealed_at is not None
        counted = [(e, u) for e, u, _ in entries if e.counted and e.score is not None]
        scores = [e.score for e, _ in counted if e.score is not None]
        you: YouJSON | None = None
        for entry, _, status in entries:
            if entry.user_id == viewer_id:
                mine = entry.score if entry.counted else None
                you = {"match_id": entry.match_id, "seat": entry.seat, "status": status,
                       "score": entry.score, "counted": entry.counted,
                       "rank": rank_of(mine, scores) if mine is not None else None,
                       "percentile": percentile(mine, scores) if mine is not None else None}
        # Before the day ends the results are for those who have finished the deal themselves.
        sees_results = revealed or (you is not None and you["score"] is not None)
        standings: list[EntryJSON] | None = None
        if sees_results:
            ordered = sorted(counted, key=lambda row: (-(row[0].score or 0), row[0].id))
            standings = [{"rank": rank_of(e.score or 0, scores),
                          "user": {"id": u.id, "name": u.name, "kind": u.kind},
                          "seat": e.seat, "score": e.score or 0,
                          "match_id": e.match_id if revealed or e.user_id == viewer_id else None}
                         for e, u in ordered]
        return {"game": GAME, "day": day, "players": players, "ends_at": iso(day_end(day)) or "",
                "revealed": revealed, "entries": len(entries),
                "finished": sum(1 for e, _, _ in entries if e.finished_at is not None),
                "you": you, "distribution": distribution(scores) if sees_results else None,
                "standings": standings,
                "deal": revealed_deal(players, deal.seed) if revealed and deal else None}

    def day(self, viewer_id: int | None, day: str | None = None) -> DailyJSON:
        """A day's deals (today's by default), one per player count, as ``viewer_id`` may see
        them; a past day's are revealed first if nobody has yet."""
        self.reveal_due()
        today = day_of(timesource.now())
        day = day or today
        try:
            date.fromisoformat(day)
        except ValueError:
            raise Invalid("That is not a date (YYYY-MM-DD).", code="invalid_day") from None
        if day > today:
            raise Invalid("That day has not come yet.", code="daily_future")
        game = registry.get(GAME)
        deals = [self._describe(self._deal(day, n), day, n, viewer_id)
                 for n in range(game.min_players, game.max_players + 1)]
        return {"game": GAME, "day": day, "ends_at": iso(day_end(day)) or "", "deals": deals}

    # -- playing ----------------------------------------------------------------------------------

    def play(self, user: Identity, players: int, seat: int) -> DealJSON:
        """Start ``user``'s game on today's deal for ``players`` from ``seat``, easy bots in the
        other seats. 409 ``daily_played``: one attempt per person, day and player count."""
        setup = validate_setup(GAME, {}, players)
        if not 0 <= seat < players:
            raise Invalid(f"Seat must be 0–{players - 1}.", code="invalid_seat")
        day = day_of(timesource.now())
        deal = self._ensure_deal(day, players)
        self.session.flush()
        if self.session.scalar(select(DailyEntry.id).where(
                DailyEntry.deal_id == deal.id, DailyEntry.user_id == user.id)) is not None:
            self.session.commit()  # the deal, if this call drew it
            raise Conflict("You have played today's deal for this many players already.",
                           code="daily_played")
        bot = ensure_bot_user(self.session, BOT_LEVEL)
        seated = [bot.id] * players
        seated[seat] = user.id
        matches = self._matches()
        match = matches.create_started(setup, seated, creator_id=user.id, sealed=True,
                                       seed=deal.seed)
        self.session.flush()
        self.session.add(DailyEntry(deal_id=deal.id, user_id=user.id, match_id=match.id,
                                    seat=seat))
        try:
            self.session.commit()
        except IntegrityError:
            self.session.rollback()
            raise Conflict("You have played today's deal for this many players already.",
                           code="daily_played") from None
        matches.announce(match)
        return self._describe(deal, day, players, user.id)
