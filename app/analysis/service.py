"""Computer analysis of finished matches: requesting it, following it, storing its result.

Rules:
- only a **finished** match is analysed (409 ``match_not_finished`` before): after the end
  everything is public, so no analysis can leak a hidden card of a game in progress;
- **once per match**: the row's primary key is the match id, so concurrent requests all find
  the row the first insert made, and the job claims a queued row with a guarded update;
- anyone may request it (signed in or not: requests are rate limited per token, session or
  address) and read it.

The job side (``claim``, ``positions``, ``save_progress``, ``finish``) runs in the one process
that leads the background jobs (app/analysis/jobs.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.analysis.compute import budget_for
from app.analysis.messages import AnalysisMessage
from app.db.models import Match, MatchAnalysis
from app.db.session import rows_matched
from app.kernel.errors import Conflict, NotFound
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.kernel.timesource import now
from app.match import MatchService, read_match, require_open
from app.realtime.messages import bus_form

ANALYSIS_CHANNEL = "analysis"
"""Bus channel telling the job leader that an analysis was requested."""
EVENT = "analysis"
"""Type of the progress events published on the match channel (``{type, match_id, status,
progress, total}``; the finished result is fetched with GET)."""


class PlayedMove(TypedDict):
    ply: int
    seat: int
    move: str


class AnalysisJSON(TypedDict):
    """An analysis as the API shows it (``AnalysisOut`` documents it)."""

    match_id: str
    status: str  # queued, running, done or failed
    progress: int
    total: int
    budget: int
    runs: int
    result: JSONObject | None  # the document ``values.judge`` builds, once done


@dataclass(frozen=True)
class Work:
    """What the job needs to analyse one match: every position's full state and the moves."""

    match_id: str
    game: str
    budget: int
    snapshots: list[JSONObject]  # the game's full states
    played: list[PlayedMove]


def payload(row: MatchAnalysis) -> AnalysisJSON:
    """The analysis as the API shows it (the result only once done)."""
    return {"match_id": row.match_id, "status": row.status, "progress": row.progress,
            "total": row.total, "budget": row.budget, "runs": row.runs,
            "result": row.result if row.status == "done" else None}


def event(row: MatchAnalysis | AnalysisJSON) -> JSONObject:
    """The ``analysis`` message the match's channel carries to its sockets."""
    data = payload(row) if isinstance(row, MatchAnalysis) else row
    return progress_event(data["match_id"], data["status"], data["progress"], data["total"])


def progress_event(match_id: str, status: str, progress: int, total: int) -> JSONObject:
    return bus_form(AnalysisMessage.model_validate(
        {"type": EVENT, "match_id": match_id, "status": status, "progress": progress,
         "total": total}))


class AnalysisService:
    def __init__(self, session: Session) -> None:
        self.session = session

    # -- requests --------------------------------------------------------------------------

    def request(self, match_id: str, user: Identity | None, budget: int = 0
                ) -> tuple[AnalysisJSON, bool]:
        """The match's analysis, queued now if it did not exist; ``(payload, created)``.
        ``budget``: search iterations per position (0: the game's own)."""
        match = read_match(self.session, match_id)
        require_open(match)  # a duplicate table's deal: others still play it
        if match.status != "finished":
            raise Conflict("A match is analysed once it is finished.", code="match_not_finished")
        existing = self.session.get(MatchAnalysis, match_id)
        if existing is not None:
            return payload(existing), False
        moment = now()
        row = MatchAnalysis(match_id=match_id, status="queued", progress=0, total=match.ply + 1,
                            budget=budget or budget_for(match.game), runs=0,
                            requested_by=None if user is None else user.id,
                            created_at=moment, updated_at=moment)
        self.session.add(row)
        try:
            self.session.commit()
        except IntegrityError:  # someone else's request inserted it first
            self.session.rollback()
            found = self.session.get(MatchAnalysis, match_id)
            if found is None:
                raise
            return payload(found), False
        return payload(row), True

    def get(self, match_id: str) -> AnalysisJSON:
        match = self.session.get(Match, match_id)
        if match is None:
            raise NotFound(f"There is no match {match_id!r}.", code="no_match")
        require_open(match)
        row = self.session.get(MatchAnalysis, match_id)
        if row is None:
            raise NotFound("This match has not been analysed: request it first.",
                           code="no_analysis")
        return payload(row)

    # -- the job ---------------------------------------------------------------------------

    def waiting(self) -> list[str]:
        """Matches whose analysis is queued, oldest request first."""
        return list(self.session.scalars(select(MatchAnalysis.match_id)
                                         .where(MatchAnalysis.status == "queued")
                                         .order_by(MatchAnalysis.created_at)))

    def requeue_running(self) -> int:
        """After a failover: analyses a former leader was running start again."""
        done = self.session.execute(update(MatchAnalysis).where(MatchAnalysis.status == "running")
                                    .values(status="queued", progress=0, updated_at=now()))
        self.session.commit()
        return rows_matched(done)

    def claim(self, match_id: str) -> Work | None:
        """Mark the analysis running (only if still queued) and gather its positions."""
        claimed = self.session.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.match_id == match_id, MatchAnalysis.status == "queued")
            .values(status="running", progress=0, runs=MatchAnalysis.runs + 1, updated_at=now()))
        if not rows_matched(claimed):
            self.session.rollback()
            return None
        self.session.commit()
        row = self.session.get(MatchAnalysis, match_id)
        assert row is not None
        match = read_match(self.session, match_id)
        snapshots: list[JSONObject] = []
        played: list[PlayedMove] = []
        for entry, state in MatchService.read_only(self.session).replayed_states(match):
            snapshots.append(state.to_json())
            if entry is not None:
                played.append({"ply": entry["ply"], "seat": entry["seat"], "move": entry["move"]})
        return Work(match_id, match.game, row.budget, snapshots, played)

    def save_progress(self, match_id: str, progress: int) -> None:
        self.session.execute(update(MatchAnalysis).where(MatchAnalysis.match_id == match_id)
                             .values(progress=progress, updated_at=now()))
        self.session.commit()

    def finish(self, match_id: str, result: JSONObject | None) -> AnalysisJSON:
        """Store the result (``None``: the analysis failed)."""
        row = self.session.get(MatchAnalysis, match_id)
        assert row is not None
        row.status = "done" if result is not None else "failed"
        row.result = result
        if result is not None:
            row.progress = row.total
        row.updated_at = now()
        self.session.commit()
        return payload(row)
