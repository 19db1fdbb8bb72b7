"""The lobby: open seeks, quick play and challenges to named users, the lobby socket, and the
jobs that pair quick play and expire the seeks of players who left.

Other packages use only the names in ``__all__``: ``Lobby`` (a request's lobby service),
``LobbyService`` and ``user_channel`` (a user's personal events), the routers and the jobs.
"""

from app.lobby.deps import Lobby
from app.lobby.messages import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
    SeeksMessage,
)
from app.lobby.quick_play import pair_quick_play
from app.lobby.routes import router as lobby_router
from app.lobby.seek_expiry import expire_absent_seekers
from app.lobby.service import LobbyService, SeekJSON, user_channel
from app.lobby.sockets import router as lobby_socket_router

__all__ = [
    "ChallengeCanceledMessage",
    "ChallengeDeclinedMessage",
    "Lobby",
    "LobbyChallengeMessage",
    "LobbyService",
    "MatchStartedMessage",
    "SeekJSON",
    "SeeksMessage",
    "expire_absent_seekers",
    "lobby_router",
    "lobby_socket_router",
    "pair_quick_play",
    "user_channel",
]
