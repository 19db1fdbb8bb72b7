"""People: profiles, user search, leaderboards and live games as read models; bot accounts; the
account routes and pages (sign up, log in, tokens, the platform pages).

Other packages use only the names in ``__all__``.
"""

from app.people.bot_routes import router as bot_router
from app.people.bots import can_play_rated
from app.people.pages import router as account_page_router
from app.people.platform_pages import router as platform_page_router
from app.people.profiles import games_in_play
from app.people.routes import router as account_router

__all__ = [
    "account_page_router", "account_router", "bot_router", "can_play_rated", "games_in_play",
    "platform_page_router",
]
