"""Live delivery: the match socket (and the middleware that serves it), the Watch socket, the
NDJSON streams for programs, the account events, the "my games" notices,
and web push (devices, switches, the push job).

Other packages use only the names in ``__all__``: the routers and ``MatchSockets``.
"""

from app.notices.live_socket import router as live_socket_router
from app.notices.match_feed import SharedMatches
from app.notices.match_socket import MatchSockets
from app.notices.match_socket import router as match_socket_router
from app.notices.preferences import CHANNELS, KINDS, wants, who_wants
from app.notices.push_job import PushJob, run_push
from app.notices.push_pages import router as push_page_router
from app.notices.push_routes import router as push_router
from app.notices.routes import router as notice_router
from app.notices.streams import router as stream_router
from app.notices.vapid import vapid_key

__all__ = [
    "CHANNELS",
    "KINDS",
    "MatchSockets",
    "PushJob",
    "SharedMatches",
    "live_socket_router",
    "match_socket_router",
    "notice_router",
    "push_page_router",
    "push_router",
    "run_push",
    "stream_router",
    "vapid_key",
    "wants",
    "who_wants",
]
