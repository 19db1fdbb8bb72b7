"""The site's own pages, across domains: home (create a match), the lobby page, the match page,
joining, the rules and the language switch; the error page every page shares; and the installable
app (web app manifest, service worker, offline page).

Other packages use only the names in ``__all__``.
"""

from app.site.pages import render_page_error
from app.site.pages import router as site_router
from app.site.pwa import router as pwa_router

__all__ = ["pwa_router", "render_page_error", "site_router"]
