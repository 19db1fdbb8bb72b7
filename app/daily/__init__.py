"""The daily duplicate deal: one sealed Town of Stairs deal per UTC day and player count that
everyone plays against bots, compared when they finish and revealed when the day ends.

- ``standing`` pure rank, percentile and score distribution;
- ``service``  the deal, playing it, the standings, settling results and the reveal;
- ``jobs``     the background job that settles and reveals; ``routes`` and ``pages`` the API
               and the page.

Other packages use only the names in ``__all__``.
"""

from app.daily.jobs import run_daily
from app.daily.pages import router as daily_page_router
from app.daily.routes import router as daily_router

__all__ = ["daily_page_router", "daily_router", "run_daily"]
