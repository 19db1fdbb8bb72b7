"""Tournaments: Swiss, arena and duplicate events (one deal at every table).

- ``pairing``   pure pairing and scoring (networkx matching; no database, no web);
- ``models``    the tables;
- ``service``   use cases: create, join, withdraw, read standings;
- ``scheduler`` what the background job does: start, pair rounds, record results, finish.
- ``jobs``      the background job that runs the scheduler; ``routes`` and ``pages`` the API and
                the pages.

Other packages use only the names in ``__all__``.
"""

from app.tournaments.jobs import run_tournaments
from app.tournaments.pages import router as tournament_page_router
from app.tournaments.routes import router as tournament_router

__all__ = ["run_tournaments", "tournament_page_router", "tournament_router"]
