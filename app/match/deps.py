"""``Matches``: the match service of one request, always built with the app's publisher."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.db.deps import SessionDep
from app.match.publish import publish_match
from app.match.records import MatchRecord
from app.match.service import MatchService


async def match_service(request: Request, session: SessionDep) -> MatchService:
    bus = request.app.state.bus

    def publish(record: MatchRecord) -> None:
        publish_match(bus, record)

    return MatchService(session, publish, request.app.state.warm_matches)


Matches = Annotated[MatchService, Depends(match_service)]
