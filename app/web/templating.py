"""The Jinja environment: templates/ with gettext bound to the request's language."""

from __future__ import annotations

import json
from typing import Any

from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from app.kernel import i18n
from app.kernel.settings import PROJECT_ROOT
from app.web import game_assets, names, script_words, static_files
from app.web.theme import STORAGE_KEY as THEME_STORAGE_KEY
from app.web.theme import page_theme
from games import registry

templates = Jinja2Templates(directory=str(PROJECT_ROOT / "templates"))
templates.env.add_extension("jinja2.ext.i18n")
templates.env.install_gettext_callables(  # type: ignore[attr-defined]  # added by ext.i18n at run time
    i18n.gettext, i18n.ngettext, newstyle=True)


def _to_json_script(value: Any) -> Markup:
    """JSON safe to embed inside <script type="application/json">."""
    text = json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
    return Markup(text.replace("&", "\\u0026"))


templates.env.filters["json_script"] = _to_json_script
templates.env.filters["player_names"] = names.player_names
templates.env.globals["game_assets"] = game_assets.assets
templates.env.globals["static_url"] = static_files.static_url
templates.env.globals["import_map"] = static_files.import_map
templates.env.globals["module_preloads"] = static_files.preload_links
templates.env.globals["result_reasons"] = lambda game_id: {
    code: i18n.reason_label(game_id, code)
    for code in (*registry.get(game_id).words.reasons, *registry.get(game_id).words.former_reasons)}
templates.env.globals["all_game_assets"] = lambda: {
    game.id: game_assets.assets(game.id).to_json() for game in registry.all_games()}


PAGES_DRAWING_EVERY_GAME = {"watch.html"}


def _games_drawn(name: str, context: dict[str, Any]) -> list[str]:
    """The games whose boards a page draws (their scripts' words are embedded in the page)."""
    if name in PAGES_DRAWING_EVERY_GAME:
        return registry.ids()
    game = context.get("game")
    return [game["id"]] if isinstance(game, dict) and "id" in game else []


def _diagram(game_id: str, diagram_id: str) -> Markup:
    """A rules-page figure drawn from the engine position in games/<id>/diagrams.json."""
    from app.web.diagrams import figure

    return figure(game_id, diagram_id, i18n.current_language.get())


templates.env.globals["diagram"] = _diagram


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    from app.http.credentials import csrf_token

    language = i18n.current_language.get()
    theme, theme_in_browser = page_theme(request)
    base = {
        "theme": theme,
        "theme_in_browser": theme_in_browser,
        "theme_storage_key": THEME_STORAGE_KEY,
        "request": request,
        "lang": language,
        "languages": i18n.LANGUAGES,
        "csrf_token": csrf_token(request),
        "viewer": getattr(request.state, "viewer", None),
        "script_messages": script_words.catalog(_games_drawn(name, context)),
        "game_titles": {game.id: i18n.gettext(game.title) for game in registry.all_games()},
    }
    return templates.TemplateResponse(request, name, {**base, **context}, status_code=status_code)
