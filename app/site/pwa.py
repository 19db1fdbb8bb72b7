"""The installable app: the web app manifest, the service worker and the page it shows offline.

The service worker (``static/sw.js``) is served from ``/sw.js`` so its scope is the whole site,
with ``STATIC_VERSION`` (a digest of every file under ``static/``) written into it: a deploy that
changes any asset changes the worker's bytes, the browser installs the new worker, and it fills a
new cache and drops the old one. Assets are cached by that version, never by guesswork.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.kernel.i18n import gettext as _
from app.kernel.settings import PROJECT_ROOT
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])

STATIC = PROJECT_ROOT / "static"
THEME_COLOUR = "#2d4a6b"
BACKGROUND_COLOUR = "#f7f5f0"


@lru_cache(maxsize=1)
def static_version() -> str:
    """A digest of every static file's path and bytes (read once per process)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(STATIC)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def manifest() -> dict[str, Any]:
    icons = [{"src": f"/static/icons/icon-{size}.png", "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in (192, 512)]
    icons += [{"src": f"/static/icons/maskable-{size}.png", "sizes": f"{size}x{size}",
               "type": "image/png", "purpose": "maskable"} for size in (192, 512)]
    return {
        "id": "/", "name": "Stepwell", "short_name": "Stepwell",
        "description": _("Stepwell — stacking and stair games online."),
        "start_url": "/", "scope": "/", "display": "standalone",
        "theme_color": THEME_COLOUR, "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }


@router.get("/manifest.webmanifest")
def web_app_manifest() -> Response:
    """The web app manifest (in the visitor's language)."""
    return JSONResponse(manifest(), media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


@lru_cache(maxsize=1)
def _worker_source() -> str:
    return (STATIC / "sw.js").read_text().replace("__STATIC_VERSION__", static_version())


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so it controls every page; never cached by HTTP (the
    browser checks it for a new version on each visit)."""
    return Response(_worker_source(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/offline")
def offline_page(request: Request) -> Response:
    """What the service worker shows for a page it cannot fetch (cached at install)."""
    return render(request, "offline.html")
