"""Page routes: home (create a match), the match page, joining, rules, and the language switch.

Forms post here with the session's CSRF token; the heavy lifting is the same MatchService the API
uses. A browser visitor becomes a guest the first time they create or join with a name.
"""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts import board_confirm_moves, ensure_user
from app.db.deps import SessionDep
from app.db.models import MatchAnalysis
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.ratelimit import limiter_for
from app.kernel import i18n
from app.kernel.errors import Forbidden, NotFound, ServiceError
from app.lobby import Lobby
from app.luck import LuckService
from app.match import (
    CLOCK_PRESETS,
    FIXED_DEAL_NOTE,
    SEALED_CODE,
    Matches,
    clock_from_form,
    conditional_moves_taken,
    current_playban,
    match_payload,
    option_fields,
    options_from_form,
    seat_bots,
    seat_from_form,
    seat_ratings,
)
from app.people import games_in_play
from app.puzzles import PuzzleService
from app.web.forms import check_csrf, form_int, page_viewer, safe_next
from app.web.templating import render, templates
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])

@router.get("/")
def home(request: Request, session: SessionDep, lobby: Lobby) -> Response:
    """The lobby: quick play, open seeks (live), challenges, and the create-a-game forms."""
    viewer = page_viewer(request, session)
    games = [{**game.describe(), "fields": option_fields(game.id)} for game in registry.all_games()]
    seeks = lobby.visible_to(lobby.open_seeks(), viewer.id if viewer else None)
    mine = games_in_play(session, viewer.id) if viewer else []
    translate = i18n.gettext  # msgids of the games' words, extracted where they are written
    option_labels = {  # the lobby rows name a seek's options in the page's language
        game["id"]: {field["name"]: {"title": translate(field["title"]),
                                     "choices": {str(c): translate(label) for c, label in
                                                 zip(field["choices"], field["choice_labels"],
                                                     strict=True)}}
                     for field in game["fields"]}
        for game in games}
    return render(request, "home.html", games=games, seeks=seeks, clock_presets=CLOCK_PRESETS,
                  my_games=mine, option_labels=option_labels,
                  daily_puzzle=PuzzleService(session).daily_json(),
                  playban=current_playban(session, viewer.id) if viewer else None)


@router.get("/lobby")
def lobby_page() -> Response:
    """The lobby is the home page; an old or guessed /lobby link lands on it."""
    return RedirectResponse("/#lobby", status_code=301)


@router.post("/guest")
def become_guest(request: Request, session: SessionDep, csrf: str = Form(""),
                 name: str = Form(""), next: str = Form("/")) -> Response:
    check_csrf(request, csrf)
    ensure_user(request, session, name)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/play")
async def create_from_form(request: Request, session: SessionDep, matches: Matches,
                           lobby: Lobby) -> Response:
    """Create a private match (invite link) or, with ``mode=lobby``, post a seek in the lobby."""
    form = dict(await request.form())
    check_csrf(request, str(form.get("csrf", "")))
    user = ensure_user(request, session, str(form.get("name", "")))
    game_id = str(form.get("game", ""))
    try:
        registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game") from None
    seat = seat_from_form(form)
    players_raw = str(form.get("players", "") or "")
    players = form_int(players_raw, minimum=0)
    options = options_from_form(game_id, form)
    time_control = clock_from_form(form)
    limiter_for(request.app).enforce("seeks" if form.get("mode") == "lobby" else "matches", f"u:{user.id}",
                                      request)
    if form.get("mode") == "lobby":
        lobby.create_seek(user, game_id, options, players, rated=form.get("rated") is not None,
                          time_control=time_control, seat=seat)
        return RedirectResponse("/#lobby", status_code=303)
    record = matches.create(user, game_id, options, seat, players, time_control)
    if form.get("mode") == "bot":
        seat_bots(matches, record.id, user, str(form.get("bot", "medium")))
    return RedirectResponse(f"/m/{record.id}", status_code=303)


@router.post("/m/{match_id}/bots")
def add_bots_from_form(match_id: str, request: Request, session: SessionDep, matches: Matches,
                       csrf: str = Form(""), level: str = Form("medium")) -> Response:
    check_csrf(request, csrf)
    user = ensure_user(request, session, None)
    seat_bots(matches, match_id, user, level)
    return RedirectResponse(f"/m/{match_id}", status_code=303)


@router.get("/m/{match_id}")
def match_page(match_id: str, request: Request, session: SessionDep, matches: Matches) -> Response:
    viewer = page_viewer(request, session)
    try:
        record = matches.get_for(match_id, viewer.id if viewer else None)
    except Forbidden as error:
        if error.code != SEALED_CODE:
            raise
        return sealed_page(request, error.message, matches.get(match_id).tournament)
    payload = match_payload(record, viewer.id if viewer else None)
    game = registry.get(record.game)
    fixed_note = i18n.gettext(FIXED_DEAL_NOTE) if payload["fixed_deal"] else None
    # the page asks for an analysis only when there is one (a missing one is no error to fetch)
    analysed = record.status == "finished" and session.get(MatchAnalysis, match_id) is not None
    luck = None
    if record.status == "finished" and not record.sealed and record.game in LuckService.GAMES:
        with contextlib.suppress(ServiceError):  # a game ended by resignation has none
            luck = LuckService(session).read(match_id, viewer.id if viewer else None)
    return render(request, "match.html", match=payload, game=game.describe(),
                  fixed_deal_note=fixed_note,
                  can_join=record.status == "waiting" and payload["your_seat"] is None,
                  ratings=seat_ratings(session, record), analysed=analysed, luck=luck,
                  conditional_moves=payload["your_seat"] is not None
                  and conditional_moves_taken(record.game),
                  confirm_moves=board_confirm_moves(session, viewer)
                  if payload["your_seat"] is not None else None)


def sealed_page(request: Request, message: str, tournament_id: str | None) -> Response:
    """A duplicate round's table seen from outside: why not, and the way back to its event."""
    back = (f"/tournaments/{tournament_id}", i18n.gettext("Back to the tournament")) \
        if tournament_id else None
    return render(request, "error.html", status_code=403, status=403, message=message,
                  heading=i18n.gettext("Sealed table"), back=back)


@router.post("/m/{match_id}/join")
def join_from_form(match_id: str, request: Request, session: SessionDep, matches: Matches,
                   csrf: str = Form(""), name: str = Form("")) -> Response:
    check_csrf(request, csrf)
    user = ensure_user(request, session, name)
    matches.join(match_id, user)
    return RedirectResponse(f"/m/{match_id}", status_code=303)


@router.get("/rules")
def rules_index(request: Request, session: SessionDep) -> Response:
    page_viewer(request, session)
    return render(request, "rules_index.html", games=[g.describe() for g in registry.all_games()])


@router.get("/rules/{game_id}")
def rules_page(game_id: str, request: Request, session: SessionDep) -> Response:
    page_viewer(request, session)
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
    response = RedirectResponse(safe_next(next), status_code=303)
    if code in i18n.LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


def render_page_error(request: Request, status: int, message: str) -> Response:
    return render(request, "error.html", status_code=status, status=status, message=message)
