"""Follows over the API: follow and unfollow a person, and the lists of whom you follow, who
follows you and your friends (follows both ways), each person with presence and live games."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Request, Response
from sqlalchemy.orm import Session

from app.accounts import (
    FollowLink,
    follow,
    follow_state,
    followers_of,
    following_of,
    friends_of,
    unfollow,
)
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import Challenger, SignedInReader
from app.http.paging import PAGED, PageRequest, link_next, page_of, paging
from app.http.ratelimit import rate_limit
from app.kernel.identity import Identity
from app.lobby import user_channel
from app.match import find_user_id
from app.people.follows import PersonLink, link_key, newest_first, people_of
from app.people.messages import FollowsChangedMessage
from app.people.schemas import FollowIn, PersonLinkOut
from app.realtime.messages import bus_form

router = APIRouter(route_class=OneHopRoute, tags=["people"])  # included under /api/v1


def follows_changed(request: Request, *user_ids: int) -> None:
    """Tell these people's account streams, on every instance, to read their follows again."""
    for user_id in user_ids:
        request.app.state.bus.publish(user_channel(user_id), bus_form(
            FollowsChangedMessage(type="follows_changed")))


def _person(session: Session, request: Request, link: FollowLink, viewer_id: int) -> PersonLink:
    return people_of(session, [link], viewer_id, request.app.state.presence.online_users)[0]


@router.put("/users/{name}/follow", response_model=PersonLinkOut,
            dependencies=[Depends(rate_limit("follows"))])
def follow_user(name: str, user: Challenger, session: SessionDep, request: Request,
                body: Annotated[FollowIn | None, Body()] = None) -> PersonLink:
    """Follow a person (an account or a bot): you see when they are online and what they play
    (`GET /api/v1/account/following`). `notify: true` also tells you when they start a game
    (`followedGame` on `GET /api/v1/stream/event`, and a push to your devices that opted in);
    omitted, a new follow does not, and an existing one keeps its switch. Idempotent.
    422 `cannot_follow_self`, 422 `cannot_follow` (a guest), 403 `blocked` (either of you has
    blocked the other), 409 `too_many_follows` (1000 at most), 404 `no_user`."""
    link = follow(session, user.id, find_user_id(session, name),
                  None if body is None else body.notify)
    follows_changed(request, user.id)
    return _person(session, request, link, user.id)


@router.delete("/users/{name}/follow", status_code=204,
               dependencies=[Depends(rate_limit("follows"))])
def unfollow_user(name: str, user: Challenger, session: SessionDep, request: Request) -> Response:
    """Stop following a person (idempotent). 404 `no_user`."""
    unfollow(session, user.id, find_user_id(session, name))
    follows_changed(request, user.id)
    return Response(status_code=204)


@router.get("/users/{name}/follow", response_model=PersonLinkOut | None)
def my_follow_of(name: str, user: SignedInReader, session: SessionDep,
                 request: Request) -> PersonLink | None:
    """Your follow of this person (`null`: you do not follow them)."""
    link = follow_state(session, user.id, find_user_id(session, name))
    return None if link is None else _person(session, request, link, user.id)


def _listed(links: list[FollowLink], user: Identity, session: Session, request: Request,
            response: Response, page: PageRequest) -> list[PersonLink]:
    chosen, following = page_of(newest_first(links), link_key, page)
    link_next(request, response, following)
    return people_of(session, chosen, user.id, request.app.state.presence.online_users)


Page = Annotated[PageRequest, Depends(paging())]


@router.get("/account/following", response_model=list[PersonLinkOut], responses=PAGED)
def list_following(user: SignedInReader, session: SessionDep, request: Request,
                   response: Response, page: Page) -> list[PersonLink]:
    """The people you follow, the newest follow first, a page at a time (`Link` to the next):
    each with `online` (a page or program connected, on any server), `playing` (their live
    games you may watch), `friend` (they follow you back) and `notify` (you hear when they
    start a game)."""
    return _listed(following_of(session, user.id), user, session, request, response, page)


@router.get("/account/followers", response_model=list[PersonLinkOut], responses=PAGED)
def list_followers(user: SignedInReader, session: SessionDep, request: Request,
                   response: Response, page: Page) -> list[PersonLink]:
    """The people who follow you, as `GET /api/v1/account/following` lists them (`friend`: you
    follow them too; `notify` is always false: their switch is theirs)."""
    return _listed(followers_of(session, user.id), user, session, request, response, page)


@router.get("/account/friends", response_model=list[PersonLinkOut], responses=PAGED)
def list_friends(user: SignedInReader, session: SessionDep, request: Request,
                 response: Response, page: Page) -> list[PersonLink]:
    """Your friends: the people you follow who follow you back, with presence and live games
    as in `GET /api/v1/account/following`."""
    return _listed(friends_of(session, user.id), user, session, request, response, page)
