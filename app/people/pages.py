"""Account pages: sign up (a guest keeps its games), log in, log out, profiles, leaderboards,
challenging and following a user, the friends page, and the Watch page of live games."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts import (
    FollowLink,
    authenticate,
    follow,
    follow_state,
    followers_of,
    following_of,
    friends_of,
    identities,
    register_account,
    sign_in,
    sign_out,
    sign_out_everywhere,
    unfollow,
)
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.errors import status_of
from app.http.ratelimit import RateLimited, client_address, limiter_for, login_guard
from app.kernel import i18n
from app.kernel.errors import NotFound, ServiceError
from app.lobby import Lobby
from app.mail import clean_address, mail_enabled, set_address
from app.match import (
    CLOCK_PRESETS,
    clock_from_form,
    find_user_id,
    option_fields,
    options_from_form,
    rating_leaderboard,
    seat_from_form,
)
from app.people import head_to_head, history, profiles
from app.people.follow_routes import follows_changed
from app.people.follows import FollowedGame, PersonLink, games_of, people_of, present_first
from app.people.rating_graph import rating_svg
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
    return render(request, "signup.html", next=safe_next(next), error=None, form={},
                  email_enabled=mail_enabled(request.app.state.settings))


@router.post("/signup")
def signup(request: Request, session: SessionDep, csrf: str = Form(""), username: str = Form(""),
           password: str = Form(""), name: str = Form(""), email: str = Form(""),
           next: str = Form("/")) -> Response:
    """A new account; with an email address (where mail is sent) a confirmation mail is queued."""
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    with_email = mail_enabled(request.app.state.settings) and bool(email.strip())
    try:
        if with_email:
            clean_address(email)  # refused before the account exists
        limiter_for(request.app).enforce("accounts", client_address(request), request)
        user, _token = register_account(session, username, password, name or None, viewer)
    except ServiceError as error:
        return _form_error(render(request, "signup.html", status_code=422, next=safe_next(next),
                                  error=_message(error), email_enabled=mail_enabled(
                                      request.app.state.settings),
                                  form={"username": username, "name": name, "email": email}),
                           error)
    if with_email:
        set_address(session, user.id, email, i18n.current_language.get())
    identities(request).forget_user(user.id)
    sign_in(request, session, user.id)
    return RedirectResponse(safe_next(next), status_code=303)


@router.get("/login")
def login_page(request: Request, session: SessionDep, next: str = "/") -> Response:
    page_viewer(request, session)
    return render(request, "login.html", next=safe_next(next), error=None, form={},
                  email_enabled=mail_enabled(request.app.state.settings))


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
                                  error=_message(error), form={"username": username},
                                  email_enabled=mail_enabled(request.app.state.settings)), error)
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
    """A profile: ratings and their history per game, best and worst results, recent games, and,
    for a signed-in viewer looking at someone else, how the two fared against each other."""
    viewer = page_viewer(request, session)
    user_id = find_user_id(session, name)
    viewer_id = viewer.id if viewer else None
    data = profiles.profile(session, user_id, viewer_id)
    histories = history.rating_history(session, user_id, viewer_id)
    titles = {g.id: i18n.gettext(g.title) for g in registry.all_games()}
    graphs = {h["game"]: rating_svg(h["points"], titles.get(h["game"], h["game"]), h["game"])
              for h in histories}
    against = (head_to_head.head_to_head(session, viewer.id, user_id, viewer.id)
               if viewer is not None and viewer.id != user_id else None)
    games = [{**g.describe(), "fields": option_fields(g.id)} for g in registry.all_games()]
    followed = follows_me = None
    if viewer is not None and viewer.id != user_id:
        followed = follow_state(session, viewer.id, user_id)
        follows_me = follow_state(session, user_id, viewer.id) is not None
    return render(request, "profile.html", profile=data, games=games, clock_presets=CLOCK_PRESETS,
                  histories=histories, graphs=graphs, against=against,
                  followed=followed, follows_me=follows_me, follow_error=None)


@router.post("/u/{name}/follow")
def follow_page(name: str, request: Request, session: SessionDep, csrf: str = Form(""),
                action: str = Form("follow"), notify: str = Form(""),
                next: str = Form("")) -> Response:
    """The Follow / Unfollow buttons and the "tell me when they start a game" switch (on the
    profile and the friends page); back to ``next`` (the profile by default)."""
    check_csrf(request, csrf)
    viewer = page_viewer(request, session)
    back = safe_next(next or f"/u/{name}")
    if viewer is None:
        return RedirectResponse(f"/login?next=/u/{name}", status_code=303)
    user_id = find_user_id(session, name)
    try:
        limiter_for(request.app).enforce("follows", f"u:{viewer.id}", request)
        if action == "unfollow":
            unfollow(session, viewer.id, user_id)
        else:
            follow(session, viewer.id, user_id, None if action == "follow" else notify == "on")
    except ServiceError as error:
        data = profiles.profile(session, user_id, viewer.id)
        games = [{**g.describe(), "fields": option_fields(g.id)} for g in registry.all_games()]
        return _form_error(render(
            request, "profile.html", status_code=status_of(error), profile=data, games=games,
            clock_presets=CLOCK_PRESETS, followed=follow_state(session, viewer.id, user_id),
            follows_me=follow_state(session, user_id, viewer.id) is not None,
            follow_error=_message(error)), error)
    follows_changed(request, viewer.id)
    return RedirectResponse(back, status_code=303)


@router.get("/account/friends")
def friends_page(request: Request, session: SessionDep) -> Response:
    """Friends, the people one follows and one's followers: who is online, what they play, a
    Watch link to their live games and a Challenge button."""
    viewer = page_viewer(request, session)
    if viewer is None:
        return RedirectResponse("/login?next=/account/friends", status_code=303)
    online = request.app.state.presence.online_users

    def listed(links: list[FollowLink]) -> list[PersonLink]:
        return present_first(people_of(session, links, viewer.id, online))

    friends = listed(friends_of(session, viewer.id))
    friend_ids = {person["id"] for person in friends}
    following = [p for p in listed(following_of(session, viewer.id)) if p["id"] not in friend_ids]
    followers = [p for p in listed(followers_of(session, viewer.id)) if p["id"] not in friend_ids]
    return render(request, "friends.html", friends=friends, following=following,
                  followers=followers)


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
    limiter_for(request.app).enforce("challenges", f"u:{viewer.id}", request)
    lobby.challenge(viewer, [name], game, options_from_form(game, form, f"{game}:"),
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
    """Live games; for a signed-in viewer, first the live games of the people they follow."""
    viewer = page_viewer(request, session)
    followed_games: list[FollowedGame] = []
    if viewer is not None:
        people = people_of(session, following_of(session, viewer.id), viewer.id,
                           request.app.state.presence.online_users)
        followed_games = games_of(present_first([p for p in people if p["playing"]]))
    return render(request, "watch.html", followed_games=followed_games,
                  signed_in=viewer is not None)
