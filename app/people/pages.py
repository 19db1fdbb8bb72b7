"""Account pages: sign up (a guest keeps its games), log in, log out, profiles, leaderboards,
challenging a user, and the Watch page of live games."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts import authenticate, identities, register_account, sign_in, sign_out, sign_out_everywhere
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.ratelimit import RateLimited, client_address, limiter_for, login_guard
from app.kernel import i18n
from app.kernel.errors import NotFound, ServiceError
from app.lobby import Lobby
from app.match import (
    CLOCK_PRESETS,
    clock_from_form,
    find_user_id,
    option_fields,
    options_from_form,
    rating_leaderboard,
    seat_from_form,
)
from app.people import profiles
from app.web.forms import check_csrf, page_viewer, safe_next
from app.web.templating import render
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])
TOO_MANY = i18n.N_("Too many attempts: please wait %(seconds)s s and try again.")


def _message(error: ServiceError) -> str:
    if isinstance(error, RateLimited):
        return i18n.gettext(TOO_MANY) % {"seconds": error.retry_after_seconds}
    return i18n.gettext(error.message)


def _form_error(page: Response, error: ServiceError) -> Response:
    """A form shown again with its error; over a rate limit, 429 and when to retry."""
    if isinstance(error, RateLimited):
        page.status_code = 429
        page.headers["Retry-After"] = str(error.retry_after_seconds)
    return page


@router.get("/signup")
def signup_page(request: Request, session: SessionDep, next: str = "/") -> Response:
    page_viewer(request, session)
    return render(request, "signup.html", next=safe_next(next), error=None, form={})


@router.post("/signup")
def signup(request: Request, session: SessionDep, csrf: str = Form(""), username: str = Form(""),
           password: str = Form(""), name: str = Form(""), next: str = Form("/")) -> Response:
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    try:
        limiter_for(request.app).enforce("accounts", client_address(request))
        user, _token = register_account(session, username, password, name or None, viewer)
    except ServiceError as error:
        return _form_error(render(request, "signup.html", status_code=422, next=safe_next(next),
                                  error=_message(error), form={"username": username, "name": name}),
                           error)
    identities(request).forget_user(user.id)
    sign_in(request, session, user.id)
    return RedirectResponse(safe_next(next), status_code=303)


@router.get("/login")
def login_page(request: Request, session: SessionDep, next: str = "/") -> Response:
    page_viewer(request, session)
    return render(request, "login.html", next=safe_next(next), error=None, form={})


@router.post("/login")
def login(request: Request, session: SessionDep, csrf: str = Form(""), username: str = Form(""),
          password: str = Form(""), next: str = Form("/")) -> Response:
    check_csrf(request, csrf)
    try:
        with login_guard(request, username):
            user, _token = authenticate(session, username, password)
    except ServiceError as error:
        page_viewer(request, session)
        return _form_error(render(request, "login.html", status_code=401, next=safe_next(next),
                                  error=_message(error), form={"username": username}), error)
    sign_in(request, session, user.id)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/logout")
def logout(request: Request, session: SessionDep, csrf: str = Form("")) -> Response:
    check_csrf(request, csrf)
    sign_out(request, session)
    return RedirectResponse("/", status_code=303)


@router.post("/logout/everywhere")
def logout_everywhere(request: Request, session: SessionDep, csrf: str = Form("")) -> Response:
    """End every browser session of the visitor (other devices, copied cookies) at once."""
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    if viewer is not None:
        sign_out_everywhere(request, session, viewer.id)
    return RedirectResponse("/", status_code=303)


@router.get("/u/{name}")
def profile_page(name: str, request: Request, session: SessionDep) -> Response:
    viewer = page_viewer(request, session)
    data = profiles.profile(session, find_user_id(session, name),
                            viewer.id if viewer else None)
    games = [{**g.describe(), "fields": option_fields(g.id)} for g in registry.all_games()]
    return render(request, "profile.html", profile=data, games=games, clock_presets=CLOCK_PRESETS)


@router.get("/players")
def players_page(request: Request, session: SessionDep, q: str = "") -> Response:
    """Find a player by (part of) their name, to open their profile and challenge them."""
    viewer = page_viewer(request, session)
    query = q[:50]
    found = profiles.search_users(session, query) if query.strip() else []
    return render(request, "players.html", query=query, found=found, viewer_id=viewer.id if viewer else None)


@router.post("/u/{name}/challenge")
async def challenge_user(name: str, request: Request, session: SessionDep, lobby: Lobby) -> Response:
    """The profile's challenge form: game, clock, the game's options, your colour, rated."""
    form = dict(await request.form())
    check_csrf(request, str(form.get("csrf", "")))
    game = str(form.get("game", "")) or registry.first().id
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse(f"/login?next=/u/{name}", status_code=303)
    try:
        registry.get(game)
    except registry.UnknownGame:
        raise NotFound(i18n.gettext("There is no such game."), code="no_game") from None
    limiter_for(request.app).enforce("challenges", f"u:{viewer.id}")
    lobby.challenge(viewer, name, game, options_from_form(game, form, f"{game}:"),
                    form.get("rated") is not None, clock_from_form(form), seat_from_form(form))
    return RedirectResponse("/#lobby", status_code=303)


@router.get("/leaderboard")
def leaderboard_page(request: Request, session: SessionDep, game: str = "") -> Response:
    page_viewer(request, session)
    games = [g.describe() for g in registry.all_games()]
    if game not in {g["id"] for g in games}:
        game = games[0]["id"]
    return render(request, "leaderboard.html", games=games, game=game,
                  rows=rating_leaderboard(session, game))


@router.get("/watch")
def watch_page(request: Request, session: SessionDep) -> Response:
    page_viewer(request, session)
    return render(request, "watch.html")
