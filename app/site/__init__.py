"""The site's own pages, across domains: home (create a match), the lobby page, the match page,
joining, the rules and the language switch; and the error page every page shares.

Other packages use only the names in ``__all__``.
"""

from app.site.pages import render_page_error
from app.site.pages import router as site_router

__all__ = ["render_page_error", "site_router"]
