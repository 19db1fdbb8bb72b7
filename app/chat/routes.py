"""Match chat, mutes and blocks, and chat reports under /api/v1 (see app/chat/service.py).

Quick phrases come back in the caller's language (``text``), with their ``phrase`` code so a
client may translate them itself. Chat text is plain text: never render it as markup.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.accounts import relations_of, set_relation
from app.chat import reports as chat_reports
from app.chat.service import PHRASES, ChatFlood, ChatService, FloodLimit, is_moderator
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import AccountOwner, Player, Reader, SignedInReader
from app.http.ratelimit import rate_limit
from app.http.schemas import RowId
from app.kernel import i18n
from app.kernel.errors import Forbidden
from app.match import Matches

router = APIRouter(route_class=OneHopRoute, tags=["chat"])  # included under /api/v1

Room = Literal["players", "spectators"]
RelationKind = Literal["mutes", "blocks"]


class ChatLineIn(BaseModel):
    room: Room
    text: str | None = Field(default=None, max_length=2000, examples=["Good luck!"],
                             description="Free text, trimmed to 1–140 characters. Or send:")
    phrase: str | None = Field(default=None, examples=["good_game"],
                               description="A quick phrase code: " + ", ".join(PHRASES) + ".")


def _flood(request: Request) -> FloodLimit:
    """One flood limit per app (so tests and instances each count their own), made by
    ``create_app``."""
    limit: FloodLimit = request.app.state.chat_flood
    return limit


def _localized(line: dict[str, Any]) -> dict[str, Any]:
    english = PHRASES.get(line.get("phrase") or "")
    return {**line, "text": i18n.gettext(english)} if english else line


def _service(request: Request, session: Any) -> ChatService:
    return ChatService(session, request.app.state.bus.publish, _flood(request))


@router.get("/matches/{match_id}/chat")
def read_chat(match_id: str, request: Request, viewer: Reader, matches: Matches,
              session: SessionDep, room: Room = "spectators") -> list[dict[str, Any]]:
    """The room's last 200 lines, oldest first, without those of users you mute or block.
    `players`: seated players only (403 `not_a_player`); `spectators`: everyone not seated,
    and the players once the game is over (403 `spectators_room_closed` before)."""
    record = matches.get_for(match_id, viewer.id if viewer else None)
    lines = _service(request, session).lines(record, viewer.id if viewer else None, room)
    return [_localized(line) for line in lines]


@router.post("/matches/{match_id}/chat", status_code=201, response_model=None,
             dependencies=[Depends(rate_limit("chat"))])
def write_chat(match_id: str, body: ChatLineIn, request: Request, user: Player,
               matches: Matches, session: SessionDep) -> dict[str, Any] | JSONResponse:
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
             dependencies=[Depends(rate_limit("chat"))])
def report_line(match_id: str, line_id: RowId, user: Player, matches: Matches,
                session: SessionDep) -> dict[str, Any]:
    """Report a line you can read to the moderators (reporting it again changes nothing)."""
    return chat_reports.report(session, matches.get_for(match_id, user.id), user, line_id)


@router.get("/chat-reports")
def list_reports(user: SignedInReader, session: SessionDep) -> list[dict[str, Any]]:
    """Moderators only: the newest reported lines with their match."""
    if not is_moderator(session, user.id):
        raise Forbidden("Moderators only.", code="not_a_moderator")
    return chat_reports.recent_reports(session)


@router.get("/me/relations")
def my_relations(user: SignedInReader, session: SessionDep) -> dict[str, list[int]]:
    """The user ids you mute (`mute`: their chat is hidden) and block (`block`: hidden too, and
    they can neither challenge you nor write in a players' room you sit in)."""
    return relations_of(session, user.id)


@router.put("/me/{kind}/{user_id}")
def add_relation(kind: RelationKind, user_id: RowId, user: AccountOwner,
                 session: SessionDep) -> dict[str, list[int]]:
    """Mute (`/me/mutes/{id}`) or block (`/me/blocks/{id}`) a user."""
    set_relation(session, user.id, user_id, kind[:-1], True)
    return relations_of(session, user.id)


@router.delete("/me/{kind}/{user_id}")
def remove_relation(kind: RelationKind, user_id: RowId, user: AccountOwner,
                    session: SessionDep) -> dict[str, list[int]]:
    """Unmute or unblock a user."""
    set_relation(session, user.id, user_id, kind[:-1], False)
    return relations_of(session, user.id)
