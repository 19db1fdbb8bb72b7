"""People: profiles, user search, leaderboards and live games as read models; the archive
search and bulk export; bot accounts; the account routes and pages (sign up, log in, tokens,
the platform pages); follows with presence and live games.

Other packages use only the names in ``__all__``.
"""

from app.people.archive_pages import router as archive_page_router
from app.people.archive_routes import router as archive_router
from app.people.bot_routes import router as bot_router
from app.people.bots import can_play_rated
from app.people.follow_routes import router as follow_router
from app.people.pages import router as account_page_router
from app.people.platform_pages import router as platform_page_router
from app.people.profiles import GameInPlay, games_in_play, in_play_key
from app.people.routes import router as account_router
from app.people.schemas import GameInPlayOut

__all__ = [
    "GameInPlay",
    "GameInPlayOut",
    "account_page_router",
    "account_router",
    "archive_page_router",
    "archive_router",
    "bot_router",
    "can_play_rated",
    "follow_router",
    "games_in_play",
    "in_play_key",
    "platform_page_router",
]
