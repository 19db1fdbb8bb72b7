"""The moderators' API under /api/v1/moderation (every door ``moderate``: a moderator's browser
session or full-access token, the role asked of the database on every call), and
``GET /api/v1/me/moderation``: the acts that concern you."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.chat import ChatLineOut, ReportCase
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Moderator, SignedInReader
from app.http.schemas import RowId
from app.match import Matches
from app.moderation.messages import ModerationNoticeOut
from app.moderation.service import (
    LOG_LIMIT,
    MAX_MUTE_MINUTES,
    MAX_REASON,
    ActionJSON,
    ModerationService,
    NoticeJSON,
    notices_for,
)

router = APIRouter(route_class=OneHopRoute, tags=["moderation"])  # included under /api/v1


def moderation_service(request: Request, session: SessionDep, matches: Matches
                       ) -> ModerationService:
    """The request's moderation service: the app's bus and the identity caches."""
    return ModerationService(session, request.app.state.bus.publish, matches,
                             request.app.state.identities.end_user)


class ReasonIn(BaseModel):
    reason: str = Field(min_length=3, max_length=MAX_REASON, examples=["insults"],
                        description="Why: the person concerned reads it.")


class MuteIn(ReasonIn):
    minutes: int = Field(ge=1, le=MAX_MUTE_MINUTES, examples=[60],
                         description="How long the mute lasts, from now.")


class PersonOut(BaseModel):
    id: int
    name: str
    username: str | None


class ActionOut(BaseModel):
    """One act of the moderators' log."""

    id: int
    action: str = Field(examples=["hide_line", "mute", "unmute", "close", "dismiss_report",
                                  "grant_moderator", "revoke_moderator"])
    reason: str
    created_at: str
    moderator: PersonOut | None = Field(description="Who; null: the command line.")
    target: PersonOut
    details: dict[str, object] = Field(description=(
        "What it concerned: `message_id`, `match_id`, `room`, `line` (a hidden line and the "
        "reports it resolved), `until` and `minutes` (a mute), `report_id` (a dismissal)."))


class ContextLineOut(ChatLineOut):
    hidden: bool = Field(description="Hidden by a moderator (only moderators see it still).")
    reported: bool = Field(description="The reported line itself.")


class ReportedPersonOut(BaseModel):
    id: int
    name: str
    kind: str
    username: str | None
    muted_until: str | None
    closed: bool
    moderator: bool


class ReportedMatchOut(BaseModel):
    id: str
    game: str
    status: str
    rated: bool
    players: list[str]


class ReporterOut(BaseModel):
    id: int
    name: str


class ReportCaseOut(BaseModel):
    """A report in the moderators' queue, with what it takes to decide."""

    id: int
    match_id: str
    line: ChatLineOut
    reporter: ReporterOut
    created_at: str
    resolved_at: str | None
    resolution: Literal["hidden", "dismissed"] | None
    hidden: bool
    reports_of_line: int = Field(description="How many people reported this line.")
    author: ReportedPersonOut
    match: ReportedMatchOut
    context: list[ContextLineOut] = Field(description=(
        "The room's lines around it, oldest first (up to 8 before and after)."))


@router.get("/moderation/reports", response_model=list[ReportCaseOut])
def report_queue(moderator: Moderator, request: Request, session: SessionDep, matches: Matches,
                 state: Literal["open", "resolved"] = "open") -> list[ReportCase]:
    """The queue: open reports oldest first (or resolved ones, newest first), each with the
    line in its room, its author (muted? closed?) and its match."""
    return moderation_service(request, session, matches).queue(state)


@router.post("/moderation/reports/{report_id}/dismiss", response_model=ActionOut)
def dismiss_report(report_id: RowId, body: ReasonIn, moderator: Moderator, request: Request,
                   session: SessionDep, matches: Matches) -> ActionJSON:
    """Resolve a report with no act on its line; the reporter is told why."""
    return moderation_service(request, session, matches).dismiss(moderator, report_id,
                                                                  body.reason)


@router.post("/moderation/chat/{line_id}/hide", response_model=ActionOut)
def hide_line(line_id: RowId, body: ReasonIn, moderator: Moderator, request: Request,
              session: SessionDep, matches: Matches) -> ActionJSON:
    """Hide a chat line for everyone: gone from every history, removed live from every page
    and stream that shows it (`chatHidden`), its open reports resolved, its author told.
    409 `already_hidden`; 403 `target_is_moderator` for a moderator's line."""
    return moderation_service(request, session, matches).hide_line(moderator, line_id,
                                                                   body.reason)


@router.post("/moderation/users/{user_id}/mute", response_model=ActionOut)
def mute_user(user_id: RowId, body: MuteIn, moderator: Moderator, request: Request,
              session: SessionDep, matches: Matches) -> ActionJSON:
    """Mute a person from chat for `minutes` (their lines: 403 `chat_muted` with `until`, on
    every instance); they are told why and until when."""
    return moderation_service(request, session, matches).mute(moderator, user_id,
                                                              body.minutes, body.reason)


@router.post("/moderation/users/{user_id}/unmute", response_model=ActionOut)
def unmute_user(user_id: RowId, body: ReasonIn, moderator: Moderator, request: Request,
                session: SessionDep, matches: Matches) -> ActionJSON:
    """End a mute early (409 `not_muted`)."""
    return moderation_service(request, session, matches).unmute(moderator, user_id, body.reason)


@router.post("/moderation/users/{user_id}/close", response_model=ActionOut)
def close_user(user_id: RowId, body: ReasonIn, moderator: Moderator, request: Request,
               session: SessionDep, matches: Matches) -> ActionJSON:
    """Close an account: its sessions and tokens end and its open sockets and streams close on
    every instance; it never signs in again (403 `account_closed` with the reason); its rated
    games and ratings stay, and so does its name, which nobody else can take. Its open seeks
    expire and its games in play are resigned. 409 `already_closed`."""
    return moderation_service(request, session, matches).close(moderator, user_id, body.reason)


@router.get("/moderation/log", response_model=list[ActionOut])
def moderation_log(moderator: Moderator, request: Request, session: SessionDep,
                   matches: Matches, user_id: int | None = Query(None, ge=1, le=2**31 - 1),
                   limit: int = Query(LOG_LIMIT, ge=1, le=LOG_LIMIT)) -> list[ActionJSON]:
    """Every act, newest first: who, what, to whom, why, when (`user_id`: one person's)."""
    return moderation_service(request, session, matches).log(user_id, limit)


@router.get("/me/moderation", response_model=list[ModerationNoticeOut])
def my_notices(user: SignedInReader, session: SessionDep) -> list[NoticeJSON]:
    """The moderators' acts that concern you, newest first: what, why and when."""
    return notices_for(session, user.id)
