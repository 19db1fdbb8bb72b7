"""Request dependencies: the database session, who is calling, and the services.

Every dependency here is async and touches no database on the loop, so a request does all its
database work in one worker-thread hop (the endpoint), with one session whose connection is
given back before that hop ends (see app/db/one_hop.py). Who is calling, and what they may do,
is the gate's (app/http/doors.py): each route names its door there.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.lobby.service import LobbyService
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.realtime.bus import publish_match


async def get_session(request: Request) -> Session:
    """A session that connects lazily, inside the endpoint's worker thread. Every route closes
    the sessions it was given (``OneHopRoute``, app/db/one_hop.py): a generator dependency's
    exit stack cost about a tenth of the server's CPU per request, for a guard."""
    return request.app.state.session_factory()


SessionDep = Annotated[Session, Depends(get_session)]


async def match_service(request: Request, session: SessionDep) -> MatchService:
    bus = request.app.state.bus

    def publish(record: MatchRecord) -> None:
        publish_match(bus, record)

    return MatchService(session, publish, request.app.state.warm_matches)


Matches = Annotated[MatchService, Depends(match_service)]


async def lobby_service(request: Request, session: SessionDep, matches: Matches) -> LobbyService:
    return LobbyService(session, matches, request.app.state.bus.publish,
                        request.app.state.presence.watch)


Lobby = Annotated[LobbyService, Depends(lobby_service)]
