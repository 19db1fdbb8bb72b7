"""``Lobby``: the lobby service of one request, with the app's bus and presence."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.db.deps import SessionDep
from app.lobby.service import LobbyService
from app.match import Matches


async def lobby_service(request: Request, session: SessionDep, matches: Matches) -> LobbyService:
    presence = request.app.state.presence
    return LobbyService(session, matches, request.app.state.bus.publish, presence.watch,
                        presence.gone_users)


Lobby = Annotated[LobbyService, Depends(lobby_service)]
