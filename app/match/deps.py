"""``Matches``: the match service of one request, always built with the app's publisher."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session
from starlette.types import ASGIApp

from app.db.deps import SessionDep
from app.match.service import MatchService


def app_match_service(app: ASGIApp, session: Session) -> MatchService:
    """The match service over ``session`` with ``app``'s publisher and warm matches."""
    state = app.state  # type: ignore[attr-defined]  # the FastAPI app create_app made
    return MatchService(session, state.match_publisher, state.warm_matches)


async def match_service(request: Request, session: SessionDep) -> MatchService:
    return app_match_service(request.app, session)


Matches = Annotated[MatchService, Depends(match_service)]
