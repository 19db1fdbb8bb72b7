"""The Jinja environment: templates/ with gettext bound to the request's language."""

from __future__ import annotations

import json
from typing import Any

from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from app.settings import PROJECT_ROOT
from app.web import i18n
from games import registry

templates = Jinja2Templates(directory=str(PROJECT_ROOT / "templates"))
templates.env.add_extension("jinja2.ext.i18n")
templates.env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]


def _to_json_script(value: Any) -> Markup:
    """JSON safe to embed inside <script type="application/json">."""
    text = json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("&", "\\u0026"))


templates.env.filters["json_script"] = _to_json_script


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    from app.api.deps import csrf_token

    language = i18n.current_language.get()
    base = {
        "request": request,
        "lang": language,
        "languages": i18n.LANGUAGES,
        "csrf_token": csrf_token(request),
        "viewer": getattr(request.state, "viewer", None),
        "script_messages": i18n.script_messages(),
        "game_titles": {game.id: i18n.gettext(game.title) for game in registry.all_games()},
    }
    return templates.TemplateResponse(request, name, {**base, **context}, status_code=status_code)
