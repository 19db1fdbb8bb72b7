"""Match chat, mutes and blocks, and chat reports under /api/v1 (see app/chat/service.py).

Quick phrases come back in the caller's language (``text``), with their ``phrase`` code so a
client may translate them itself. Chat text is plain text: never render it as markup.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import relations_of, set_relation
from app.chat import reports as chat_reports
from app.chat.messages import ChatUser
from app.chat.service import PHRASES, ChatFlood, ChatLine, ChatService, FloodLimit
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import AccountOwner, Moderator, Player, Reader, SignedInReader
from app.http.ratelimit import rate_limit
from app.http.schemas import Alternative, RowId, one_of
from app.kernel import i18n
from app.match import Matches

router = APIRouter(route_class=OneHopRoute, tags=["chat"])  # included under /api/v1

Room = Literal["players", "spectators"]
RelationKind = Literal["mutes", "blocks"]


class ChatLineIn(BaseModel):
    """Send either ``text`` or ``phrase`` (exactly one)."""

    model_config = ConfigDict(json_schema_extra=lambda schema: one_of(schema, [
        Alternative("ChatTextIn", needs=("text",), leaves_out=("phrase",)),
        Alternative("ChatPhraseIn", needs=("phrase",), leaves_out=("text",))]))

    room: Room
    text: str | None = Field(default=None, max_length=2000, examples=["Good luck!"],
                             description="Free text, trimmed to 1–140 characters. Or send:")
    phrase: str | None = Field(default=None, examples=["good_game"],
                               json_schema_extra={"enum": [*PHRASES, None]},
                               description="A quick phrase code: " + ", ".join(PHRASES) + ".")


class RelationsOut(BaseModel):
    mute: list[int] = Field(description="Users whose chat lines you do not see.")
    block: list[int] = Field(description=(
        "Users hidden too, who can neither challenge you nor write in a players' room you sit in."))


class ChatLineOut(BaseModel):
    """A chat line. Plain text: never render it as markup. `phrase` is a quick-phrase code
    (`text` then holds its words in your language)."""

    id: int
    match_id: str
    room: Room
    user: ChatUser
    text: str | None
    phrase: str | None
    created_at: str


class ReporterOut(BaseModel):
    id: int
    name: str


class ChatReportOut(BaseModel):
    """A reported line, as the moderators see it."""

    id: int
    match_id: str
    line: ChatLineOut
    reporter: ReporterOut
    created_at: str


def _flood(request: Request) -> FloodLimit:
    """One flood limit per app (so tests and instances each count their own), made by
    ``create_app``."""
    limit: FloodLimit = request.app.state.chat_flood
    return limit


def _localized(line: ChatLine) -> ChatLine:
    english = PHRASES.get(line.get("phrase") or "")
    return {**line, "text": i18n.gettext(english)} if english else line


def _service(request: Request, session: Any) -> ChatService:
    return ChatService(session, request.app.state.bus.publish, _flood(request))


@router.get("/matches/{match_id}/chat", response_model=list[ChatLineOut])
def read_chat(match_id: str, request: Request, viewer: Reader, matches: Matches,
              session: SessionDep, room: Room = "spectators") -> list[ChatLine]:
    """The room's last 200 lines, oldest first, without those of users you mute or block.
    `players`: seated players only (403 `not_a_player`); `spectators`: everyone not seated,
    and the players once the game is over (403 `spectators_room_closed` before)."""
    record = matches.get_for(match_id, viewer.id if viewer else None)
    lines = _service(request, session).lines(record, viewer.id if viewer else None, room)
    return [_localized(line) for line in lines]


@router.post("/matches/{match_id}/chat", status_code=201, response_model=ChatLineOut,
             dependencies=[Depends(rate_limit("chat"))])
def write_chat(match_id: str, body: ChatLineIn, request: Request, user: Player,
               matches: Matches, session: SessionDep) -> ChatLine | JSONResponse:
    """Send `text` (1–140 characters after trimming) or a quick `phrase` to a room. Guests send
    only phrases in the spectators' room (403 `guests_quick_phrases_only`); 429 `rate_limited`
    when writing too fast; 403 `blocked` when every other player blocked you."""
    record = matches.get_for(match_id, user.id)
    try:
        line = _service(request, session).post(record, user, body.room, body.text,
                                                       body.phrase)
    except ChatFlood as flood:
        return JSONResponse({"code": flood.code, "message": flood.message}, status_code=429,
                            headers={"Retry-After": str(flood.retry_after)})
    return _localized(line)


@router.post("/matches/{match_id}/chat/{line_id}/report", status_code=201,
             dependencies=[Depends(rate_limit("chat"))], response_model=ChatReportOut)
def report_line(match_id: str, line_id: RowId, user: Player, matches: Matches,
                session: SessionDep) -> chat_reports.ReportJSON:
    """Report a line you can read to the moderators (reporting it again changes nothing)."""
    return chat_reports.report(session, matches.get_for(match_id, user.id), user, line_id)


@router.get("/chat-reports", response_model=list[ChatReportOut])
def list_reports(user: Moderator, session: SessionDep) -> list[chat_reports.ReportJSON]:
    """Moderators only: the newest reported lines with their match (the queue, with each
    line's context: `GET /api/v1/moderation/reports`)."""
    return chat_reports.recent_reports(session)


@router.get("/me/relations", response_model=RelationsOut)
def my_relations(user: SignedInReader, session: SessionDep) -> dict[str, list[int]]:
    """The user ids you mute (`mute`: their chat is hidden) and block (`block`: hidden too, and
    they can neither challenge you nor write in a players' room you sit in)."""
    return relations_of(session, user.id)


@router.put("/me/{kind}/{user_id}", response_model=RelationsOut)
def add_relation(kind: RelationKind, user_id: RowId, user: AccountOwner,
                 session: SessionDep) -> dict[str, list[int]]:
    """Mute (`/me/mutes/{id}`) or block (`/me/blocks/{id}`) a user."""
    set_relation(session, user.id, user_id, kind[:-1], True)
    return relations_of(session, user.id)


@router.delete("/me/{kind}/{user_id}", response_model=RelationsOut)
def remove_relation(kind: RelationKind, user_id: RowId, user: AccountOwner,
                    session: SessionDep) -> dict[str, list[int]]:
    """Unmute or unblock a user."""
    set_relation(session, user.id, user_id, kind[:-1], False)
    return relations_of(session, user.id)
