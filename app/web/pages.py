"""Page routes: home (create a match), the match page, joining, rules, and the language switch.

Forms post here with the session's CSRF token; the heavy lifting is the same MatchService the API
uses. A browser visitor becomes a guest the first time they create or join with a name.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlparse

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from app.api.deps import Matches, SessionDep, resolve_viewer
from app.services import identity
from app.services.errors import Forbidden, NotFound
from app.services.identity import Identity
from app.services.match_views import match_payload
from app.web import i18n
from app.web.templating import render, templates
from games import registry

router = APIRouter(include_in_schema=False)

OPTION_PREFIX = "opt_"


def _viewer(request: Request, session: Session) -> Identity | None:
    viewer = resolve_viewer(request, session)
    request.state.viewer = viewer
    return viewer


def _check_csrf(request: Request, sent: str) -> None:
    if not sent or not secrets.compare_digest(sent, request.session.get("csrf", "")):
        raise Forbidden(i18n.gettext("Your session expired: please reload the page and retry."),
                        code="csrf_failed")


def _ensure_user(request: Request, session: Session, name: str | None) -> Identity:
    """The visitor's identity, making them a guest (cookie session) when they have none yet."""
    viewer = resolve_viewer(request, session)
    if viewer is not None:
        if name and name.strip() and name.strip() != viewer.name:
            viewer = identity.rename(session, viewer.id, name)
        return viewer
    viewer, _token = identity.create_guest(session, name or "")
    request.session["uid"] = viewer.id
    return viewer


def option_fields(game_id: str) -> list[dict[str, Any]]:
    """Form fields for a game's options, derived from its options schema (arrays stay API-only)."""
    described = registry.get(game_id).describe()
    schema, defaults = described["options"], described["defaults"]
    fields = []
    for name, spec in schema.get("properties", {}).items():
        spec = _resolve(spec, schema)
        if "enum" in spec:
            kind = "select"
        elif spec.get("type") == "boolean":
            kind = "checkbox"
        elif spec.get("type") == "integer":
            kind = "number"
        else:
            continue
        title = i18n.OPTION_LABELS.get(name, spec.get("title", name))
        fields.append({"name": name, "kind": kind, "title": title,
                       "description": spec.get("description", ""),
                       "choices": spec.get("enum", []), "default": defaults.get(name),
                       "minimum": spec.get("minimum"), "maximum": spec.get("maximum")})
    return fields


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in spec:
        return schema.get("$defs", {}).get(spec["$ref"].split("/")[-1], spec)
    if "anyOf" in spec:  # Optional[...] -> the non-null branch
        branches = [s for s in spec["anyOf"] if s.get("type") != "null"]
        return {**spec, **(branches[0] if len(branches) == 1 else {})}
    return spec


def _options_from_form(game_id: str, form: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for field in option_fields(game_id):
        raw = form.get(OPTION_PREFIX + field["name"])
        if field["kind"] == "checkbox":
            options[field["name"]] = raw is not None
        elif raw is None or raw == "":
            continue
        elif field["kind"] == "select":
            matching = [c for c in field["choices"] if str(c) == raw]
            options[field["name"]] = matching[0] if matching else raw
        else:
            options[field["name"]] = int(raw) if str(raw).lstrip("-").isdigit() else raw
    return options


@router.get("/")
def home(request: Request, session: SessionDep) -> Response:
    _viewer(request, session)
    games = [{**game.describe(), "fields": option_fields(game.id)} for game in registry.all_games()]
    return render(request, "home.html", games=games)


@router.post("/play")
async def create_from_form(request: Request, session: SessionDep, matches: Matches) -> Response:
    form = dict(await request.form())
    _check_csrf(request, str(form.get("csrf", "")))
    user = _ensure_user(request, session, str(form.get("name", "")))
    game_id = str(form.get("game", ""))
    try:
        registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game") from None
    seat_raw = str(form.get("seat", "0"))
    seat: int | str = "random" if seat_raw == "random" else int(seat_raw or 0)
    players_raw = str(form.get("players", "") or "")
    players = int(players_raw) if players_raw.isdigit() else None
    record = matches.create(user, game_id, _options_from_form(game_id, form), seat, players)
    return RedirectResponse(f"/m/{record.id}", status_code=303)


@router.get("/m/{match_id}")
def match_page(match_id: str, request: Request, session: SessionDep, matches: Matches) -> Response:
    viewer = _viewer(request, session)
    record = matches.get(match_id)
    payload = match_payload(record, viewer.id if viewer else None)
    game = registry.get(record.game)
    return render(request, "match.html", match=payload, game=game.describe(),
                  can_join=record.status == "waiting" and payload["your_seat"] is None)


@router.post("/m/{match_id}/join")
def join_from_form(match_id: str, request: Request, session: SessionDep, matches: Matches,
                   csrf: str = Form(""), name: str = Form("")) -> Response:
    _check_csrf(request, csrf)
    user = _ensure_user(request, session, name)
    matches.join(match_id, user)
    return RedirectResponse(f"/m/{match_id}", status_code=303)


@router.get("/rules")
def rules_index(request: Request, session: SessionDep) -> Response:
    _viewer(request, session)
    return render(request, "rules_index.html", games=[g.describe() for g in registry.all_games()])


@router.get("/rules/{game_id}")
def rules_page(game_id: str, request: Request, session: SessionDep) -> Response:
    _viewer(request, session)
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game") from None
    language = i18n.current_language.get()
    available = templates.env.list_templates()
    body = f"rules/{game_id}_{language}.html"
    if body not in available:
        body = f"rules/{game_id}_en.html"
    if body not in available:
        raise NotFound(i18n.gettext("There is no such game."), code="no_rules")
    return render(request, "rules.html", game=game.describe(), body=body)


@router.get("/lang/{code}")
def switch_language(code: str, request: Request, next: str = "/") -> Response:
    target = next if next.startswith("/") and not urlparse(next).netloc else "/"
    response = RedirectResponse(target, status_code=303)
    if code in i18n.LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


def render_page_error(request: Request, status: int, message: str) -> Response:
    return render(request, "error.html", status_code=status, status=status, message=message)
