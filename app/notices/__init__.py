"""Live delivery: the match socket (and the middleware that serves it), the Watch socket, the
NDJSON streams for programs, the account events, and the "my games" notices.

Other packages use only the names in ``__all__``: the routers and ``MatchSockets``.
"""

from app.notices.live_socket import router as live_socket_router
from app.notices.match_feed import SharedMatches
from app.notices.match_socket import MatchSockets
from app.notices.match_socket import router as match_socket_router
from app.notices.routes import router as notice_router
from app.notices.streams import router as stream_router

__all__ = [
    "MatchSockets",
    "SharedMatches",
    "live_socket_router",
    "match_socket_router",
    "notice_router",
    "stream_router",
]
