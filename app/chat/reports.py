"""Chat reports: a reader flags a line; moderators (``users.is_moderator``) list the reports.

A report keeps the line and its match, so a moderator can read the line in context even if
the reporter later mutes its author. Grant the flag from a shell:
``python -m app.chat.reports grant <username>`` (``revoke`` to take it back).
"""

from __future__ import annotations

import sys
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.chat.service import ChatService, check_read, line_json
from app.db.models import ChatReport, User
from app.kernel.errors import Forbidden, NotFound
from app.kernel.identity import Identity
from app.match import MatchRecord

REPORT_LIST_LIMIT = 200


def report(session: Session, record: MatchRecord, reporter: Identity,
           message_id: int) -> dict[str, Any]:
    """Record that ``reporter`` flagged a line they can read; reporting twice keeps one."""
    message = ChatService(session).message(message_id)
    if message.match_id != record.id:
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


def report_json(found: ChatReport) -> dict[str, Any]:
    return {"id": found.id, "match_id": found.match_id, "line": line_json(found.message),
            "reporter": {"id": found.reporter.id, "name": found.reporter.name},
            "created_at": found.created_at.isoformat() + "Z"}


def recent_reports(session: Session) -> list[dict[str, Any]]:
    """The newest reports first (moderators only: check ``is_moderator`` before calling)."""
    rows = session.scalars(select(ChatReport).order_by(ChatReport.id.desc())
                           .limit(REPORT_LIST_LIMIT))
    return [report_json(r) for r in rows]


def set_moderator(session: Session, username: str, on: bool = True) -> None:
    user = session.scalar(select(User).where(User.username == username))
    if user is None:
        raise NotFound(f"There is no account {username!r}.", code="no_user")
    user.is_moderator = on
    session.commit()


if __name__ == "__main__":  # python -m app.chat.reports grant|revoke <username>
    from app.db.session import make_engine, make_session_factory
    from app.kernel.settings import Settings

    action, name = sys.argv[1], sys.argv[2]
    factory = make_session_factory(make_engine(Settings().database_url))
    with factory() as db:
        set_moderator(db, name, action == "grant")
    print(f"{name}: moderator {'granted' if action == 'grant' else 'revoked'}")
