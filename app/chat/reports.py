"""Chat reports: a reader flags a line; moderators work the queue of open reports, each with
the line in its room (the lines around it, hidden ones marked), its author and its match, and
resolve it by hiding the line or dismissing the report (app/moderation/ logs and tells).

A report keeps the line and its match, so a moderator can read the line in context even if
the reporter later mutes its author. Moderators are granted from a shell
(``python -m app.accounts.moderators grant <username>``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.chat.service import ChatLine, ChatService, check_read, line_json
from app.db.models import ChatMessage, ChatReport, Match, User, utcnow
from app.db.session import rows_matched
from app.kernel.errors import Conflict, Forbidden, NotFound
from app.kernel.identity import Identity
from app.match import MatchRecord

REPORT_LIST_LIMIT = 200


class Reporter(TypedDict):
    id: int
    name: str


class ReportJSON(TypedDict):
    """A reported line, as the moderators see it."""

    id: int
    match_id: str
    line: ChatLine
    reporter: Reporter
    created_at: str


def report(session: Session, record: MatchRecord, reporter: Identity,
           message_id: int) -> ReportJSON:
    """Record that ``reporter`` flagged a line they can read; reporting twice keeps one."""
    message = ChatService(session).message(message_id)
    if message.match_id != record.id or message.hidden_at is not None:
        raise NotFound(f"There is no chat line {message_id} in this match.", code="no_chat_line")
    check_read(record, reporter.id, message.room)
    if message.user_id == reporter.id:
        raise Forbidden("You cannot report your own line.", code="own_line")
    existing = session.scalar(select(ChatReport).where(ChatReport.message_id == message_id,
                                                       ChatReport.reporter_id == reporter.id))
    if existing is None:
        existing = ChatReport(message_id=message_id, match_id=record.id, reporter_id=reporter.id)
        session.add(existing)
        session.commit()
        session.refresh(existing)
    return report_json(existing)


def report_json(found: ChatReport) -> ReportJSON:
    return {"id": found.id, "match_id": found.match_id, "line": line_json(found.message),
            "reporter": {"id": found.reporter.id, "name": found.reporter.name},
            "created_at": found.created_at.isoformat() + "Z"}


def recent_reports(session: Session) -> list[ReportJSON]:
    """The newest reports first (moderators only: their door checks the role)."""
    rows = session.scalars(select(ChatReport).order_by(ChatReport.id.desc())
                           .limit(REPORT_LIST_LIMIT))
    return [report_json(r) for r in rows]


# -- the moderators' queue -------------------------------------------------------------------------

CONTEXT_LINES = 8
"""Lines of the room shown before and after a reported line."""
OPEN, RESOLVED = "open", "resolved"
DISMISSED, HIDDEN = "dismissed", "hidden"


class ContextLine(ChatLine):
    hidden: bool
    """Hidden by a moderator: only moderators see it still."""
    reported: bool
    """The reported line itself."""


class ReportedPerson(TypedDict):
    id: int
    name: str
    kind: str
    username: str | None
    muted_until: str | None
    closed: bool
    moderator: bool


class ReportedMatch(TypedDict):
    id: str
    game: str
    status: str
    rated: bool
    players: list[str]


class ReportCase(ReportJSON):
    """A report as the moderators' queue shows it: the line in its room, its author, its match,
    and how many people reported that line."""

    resolved_at: str | None
    resolution: str | None
    hidden: bool
    reports_of_line: int
    author: ReportedPerson
    match: ReportedMatch
    context: list[ContextLine]


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def _person(user: User) -> ReportedPerson:
    muted = user.chat_muted_until
    return {"id": user.id, "name": user.name, "kind": user.kind, "username": user.username,
            "muted_until": _iso(muted) if muted is not None and muted > utcnow() else None,
            "closed": user.closed_at is not None, "moderator": bool(user.is_moderator)}


def _context(session: Session, message: ChatMessage) -> list[ContextLine]:
    """The room's lines around ``message`` (hidden ones too, marked), oldest first."""
    room = (ChatMessage.match_id == message.match_id, ChatMessage.room == message.room)
    before = session.scalars(select(ChatMessage).where(*room, ChatMessage.id <= message.id)
                             .order_by(ChatMessage.id.desc()).limit(CONTEXT_LINES + 1)).all()
    after = session.scalars(select(ChatMessage).where(*room, ChatMessage.id > message.id)
                            .order_by(ChatMessage.id).limit(CONTEXT_LINES)).all()
    return [{**line_json(line), "hidden": line.hidden_at is not None,
             "reported": line.id == message.id} for line in [*reversed(before), *after]]


def _match(session: Session, match_id: str) -> ReportedMatch:
    match = session.get(Match, match_id)
    assert match is not None  # a report's match is kept with it (cascade)
    return {"id": match.id, "game": match.game, "status": match.status, "rated": match.rated,
            "players": [p.user.name for p in match.players]}


def report_case(session: Session, found: ChatReport) -> ReportCase:
    message = found.message
    count = session.scalar(select(func.count()).select_from(ChatReport).where(
        ChatReport.message_id == message.id)) or 0
    return {**report_json(found), "resolved_at": _iso(found.resolved_at),
            "resolution": found.resolution, "hidden": message.hidden_at is not None,
            "reports_of_line": int(count), "author": _person(message.user),
            "match": _match(session, found.match_id), "context": _context(session, message)}


def report_queue(session: Session, state: str = OPEN, limit: int = 50) -> list[ReportCase]:
    """Open reports, oldest first (a queue), or resolved ones, newest first."""
    query = select(ChatReport)
    if state == OPEN:
        query = query.where(ChatReport.resolved_at.is_(None)).order_by(ChatReport.id)
    else:
        query = query.where(ChatReport.resolved_at.is_not(None)).order_by(ChatReport.id.desc())
    return [report_case(session, found) for found in session.scalars(query.limit(limit))]


def open_report(session: Session, report_id: int) -> ChatReport:
    found = session.get(ChatReport, report_id)
    if found is None:
        raise NotFound(f"There is no report {report_id}.", code="no_report")
    if found.resolved_at is not None:
        raise Conflict("That report is resolved already.", code="report_resolved")
    return found


def resolve_reports(session: Session, moderator_id: int, resolution: str, *,
                    report_id: int | None = None, message_id: int | None = None) -> list[int]:
    """Mark one open report, or every open report of a line, resolved (the caller commits);
    returns their ids. 409 ``report_resolved`` when one report was resolved meanwhile."""
    query = select(ChatReport.id).where(ChatReport.resolved_at.is_(None))
    if report_id is not None:
        query = query.where(ChatReport.id == report_id)
    if message_id is not None:
        query = query.where(ChatReport.message_id == message_id)
    ids = list(session.scalars(query))
    if ids:
        done = session.execute(
            update(ChatReport).where(ChatReport.id.in_(ids), ChatReport.resolved_at.is_(None))
            .values(resolved_at=utcnow(), resolved_by=moderator_id, resolution=resolution)
            .execution_options(synchronize_session=False))
        if rows_matched(done) != len(ids):  # another moderator resolved one meanwhile
            session.rollback()
            raise Conflict("That report is resolved already.", code="report_resolved")
    if report_id is not None and not ids:
        raise Conflict("That report is resolved already.", code="report_resolved")
    return ids
