"""What luck did: finding the finished Town games that need a report, claiming one, storing it,
and reading it for a viewer.

A report replays the game's own deal, so it shows cards: it is read only once the game is over
and open to everyone (a sealed game — a duplicate table or a daily deal — waits for its opening,
even for its own players, as the computer analysis does).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TypedDict

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Match, MatchLuck
from app.kernel import i18n
from app.kernel.errors import Conflict
from app.kernel.timesource import now
from app.luck.compute import LuckReport, SeatLuck
from app.match import read_match, require_open, state_of

GAMES = ("town",)
"""Games with a luck report: hidden cards and scores."""
HORIZON = timedelta(days=7)
"""Finished games older than this are not reported on (a new server does not replay its
archive)."""
STALE = timedelta(minutes=30)
"""A claim older than this whose report never came (its process died) is claimed again."""
NOT_OVER = i18n.N_("What luck did is shown once the game is over.")
NOT_AVAILABLE = i18n.N_("This game has no luck report: only finished Town of Stairs games that "
                        "were played to the end have one.")


class Work(TypedDict):
    match_id: str
    game: str
    rules_version: int
    players: int
    options: dict[str, object]
    seed: int
    scores: list[int]


class LuckJSON(TypedDict):
    match_id: str
    status: str
    iterations: int | None
    opponent: str | None
    seats: list[SeatLuck] | None


class LuckService:
    GAMES = GAMES

    def __init__(self, session: Session) -> None:
        self.session = session

    # -- the job's side ---------------------------------------------------------------------------

    def next_work(self) -> Work | None:
        """Claim the most recently finished game that needs a report (a row inserted, so one
        process claims it) and say what to compute; None when there is none."""
        moment = now()
        stale = list(self.session.scalars(select(MatchLuck.match_id).where(
            MatchLuck.status == "running", MatchLuck.updated_at < moment - STALE)))
        for match_id in stale:
            self.session.execute(update(MatchLuck).where(
                MatchLuck.match_id == match_id, MatchLuck.status == "running")
                .values(status="retry", updated_at=moment))
        self.session.commit()
        waiting = select(MatchLuck.match_id)
        candidates = self.session.scalars(
            select(Match).where(Match.game.in_(GAMES), Match.status == "finished",
                                Match.finished_at >= moment - HORIZON,
                                Match.id.not_in(waiting.where(MatchLuck.status != "retry")))
            .order_by(Match.finished_at.desc()).limit(5))
        for match in candidates:
            if not self._claim(match.id):
                continue
            state = state_of(match)
            if not state.is_over or state.result is None or state.result.scores is None:
                self.finish(match.id, None)  # ended by a resignation or a timeout: no report
                continue
            return {"match_id": match.id, "game": match.game,
                    "rules_version": match.rules_version or 1, "players": match.num_seats,
                    "options": dict(match.options or {}), "seed": int(match.seed),
                    "scores": [int(s) for s in state.result.scores]}
        return None

    def _claim(self, match_id: str) -> bool:
        moment = now()
        retried = self.session.execute(update(MatchLuck).where(
            MatchLuck.match_id == match_id, MatchLuck.status == "retry")
            .values(status="running", updated_at=moment))
        if retried.rowcount:  # type: ignore[attr-defined]
            self.session.commit()
            return True
        try:
            self.session.add(MatchLuck(match_id=match_id, status="running", created_at=moment,
                                       updated_at=moment))
            self.session.commit()
        except IntegrityError:
            self.session.rollback()
            return False
        return True

    def finish(self, match_id: str, report: LuckReport | None, failed: bool = False) -> None:
        status = "failed" if failed else "done" if report is not None else "none"
        self.session.execute(update(MatchLuck).where(MatchLuck.match_id == match_id)
                             .values(status=status, report=report, updated_at=now()))
        self.session.commit()

    # -- reading ----------------------------------------------------------------------------------

    def read(self, match_id: str, viewer_id: int | None) -> LuckJSON:
        """The report as ``viewer_id`` may see it: 403 ``match_sealed`` while the game is sealed
        (to everyone), 409 ``match_not_over`` before it ends, 409 ``no_luck_report`` for a game
        that has none; ``status`` ``pending`` while the worker has not written it yet."""
        record = read_match(self.session, match_id)  # 404 no_match
        if record.game not in GAMES:
            raise Conflict(i18n.gettext(NOT_AVAILABLE), code="no_luck_report")
        require_open(record)
        if record.status != "finished":
            raise Conflict(i18n.gettext(NOT_OVER), code="match_not_over")
        row = self.session.get(MatchLuck, match_id)
        if row is not None and row.status == "none":
            raise Conflict(i18n.gettext(NOT_AVAILABLE), code="no_luck_report")
        report = row.report if row is not None and row.status == "done" else None
        status = "done" if report else "failed" if row is not None and row.status == "failed" \
            else "pending"
        return {"match_id": match_id, "status": status,
                "iterations": report["iterations"] if report else None,
                "opponent": report["opponent"] if report else None,
                "seats": report["seats"] if report else None}
