"""What luck did: for each finished Town of Stairs game, what a bot that sees every secret
would have scored from each seat's cards, beside what the seat scored.

- ``compute``  the replay with the full-sight bot (pure: games only; runs in a pool process);
- ``service``  which games need a report, claiming and storing one, reading it for a viewer;
- ``jobs``     the background job; ``routes`` the API.

Other packages use only the names in ``__all__``.
"""

from app.luck.jobs import run_luck
from app.luck.routes import router as luck_router
from app.luck.service import LuckJSON, LuckService

__all__ = ["LuckJSON", "LuckService", "luck_router", "run_luck"]
