"""``Matches``: the match service of one request, always built with the app's publisher."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.db.deps import SessionDep
from app.match.service import MatchService


async def match_service(request: Request, session: SessionDep) -> MatchService:
    return MatchService(session, request.app.state.match_publisher,
                        request.app.state.warm_matches)


Matches = Annotated[MatchService, Depends(match_service)]
