"""The people someone follows, their followers and friends, as lists show them: with who is
online now (shared presence, on any instance) and the live games each is playing.

The follows themselves (rules, blocks, the limit) are the accounts' (app/accounts/follows.py);
this module adds what the lists show beside each name. A game the viewer may not see (a sealed
duplicate table) is left out, as on profiles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts import FollowLink
from app.db.models import Match, MatchPlayer, User
from app.http.paging import Key, moment
from app.people.profiles import visible_to

GAMES_SHOWN = 3
"""Live games listed per person at most (the most recently changed)."""

OnlineOf = Callable[[Iterable[int]], set[int]]
"""Which of these users have a page or a program connected on any instance."""


class LiveGameBrief(TypedDict):
    """A game a followed person is playing: enough to watch it."""

    id: str
    game: str
    opponents: list[str]
    rated: bool
    url: str


class PersonLink(TypedDict):
    """One person of a follow list."""

    id: int
    name: str
    username: str | None
    kind: str
    since: str
    friend: bool
    notify: bool
    online: bool
    playing: list[LiveGameBrief]


def live_games_of(session: Session, user_ids: Iterable[int], viewer_id: int | None
                  ) -> dict[int, list[LiveGameBrief]]:
    """The active matches of each user that the viewer may see, most recently changed first,
    ``GAMES_SHOWN`` at most each; one query for the matches and one for their seats."""
    ids = list(set(user_ids))
    if not ids:
        return {}
    rows = session.execute(
        select(MatchPlayer.user_id, Match.id, Match.game, Match.rated).join(Match)
        .where(MatchPlayer.user_id.in_(ids), Match.status == "active", visible_to(viewer_id))
        .order_by(Match.updated_at.desc(), Match.id)).all()
    chosen: dict[int, list[tuple[str, str, bool]]] = {}
    for user_id, match_id, game, rated in rows:
        games = chosen.setdefault(user_id, [])
        if len(games) < GAMES_SHOWN and all(m != match_id for m, _, _ in games):
            games.append((match_id, game, rated))
    match_ids = {m for games in chosen.values() for m, _, _ in games}
    seats: dict[str, list[tuple[int | None, str]]] = {}
    if match_ids:
        for match_id, user_id, name in session.execute(
                select(MatchPlayer.match_id, MatchPlayer.user_id, User.name)
                .outerjoin(User, User.id == MatchPlayer.user_id)
                .where(MatchPlayer.match_id.in_(match_ids)).order_by(MatchPlayer.seat)):
            seats.setdefault(match_id, []).append((user_id, name or "…"))
    return {user_id: [{"id": m, "game": game, "rated": rated, "url": f"/m/{m}",
                       "opponents": [name for seated, name in seats.get(m, [])
                                     if seated != user_id]}
                      for m, game, rated in games]
            for user_id, games in chosen.items()}


def people_of(session: Session, links: list[FollowLink], viewer_id: int,
              online_of: OnlineOf) -> list[PersonLink]:
    """``links`` with each person's name, presence and live games, in the same order."""
    ids = [link.user_id for link in links]
    users = {u.id: u for u in session.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
    online = online_of(ids) if ids else set()
    playing = live_games_of(session, ids, viewer_id)
    shown: list[PersonLink] = []
    for link in links:
        user = users.get(link.user_id)
        if user is None:
            continue
        shown.append({"id": user.id, "name": user.name, "username": user.username,
                      "kind": user.kind, "since": link.since.isoformat() + "Z",
                      "friend": link.mutual, "notify": link.notify,
                      "online": user.id in online, "playing": playing.get(user.id, [])})
    return shown


class FollowedGame(TypedDict):
    """A live game with the followed people who play in it (the Watch page's list)."""

    id: str
    game: str
    url: str
    rated: bool
    followed: list[PersonLink]
    others: list[str]


def games_of(people: list[PersonLink]) -> list[FollowedGame]:
    """Each live game of ``people`` once, with the followed people seated in it, in the order
    the people come."""
    games: dict[str, FollowedGame] = {}
    for person in people:
        for brief in person["playing"]:
            shown = games.setdefault(brief["id"], {
                "id": brief["id"], "game": brief["game"], "url": brief["url"],
                "rated": brief["rated"], "followed": [], "others": list(brief["opponents"])})
            shown["followed"].append(person)
    for shown in games.values():
        names = {person["name"] for person in shown["followed"]}
        shown["others"] = [name for name in shown["others"] if name not in names]
    return list(games.values())


def link_key(link: FollowLink) -> Key:
    """A follow's place in a list, the newest first (a cursor's key)."""
    return -moment(link.since.isoformat()), link.user_id


def newest_first(links: list[FollowLink]) -> list[FollowLink]:
    return sorted(links, key=link_key)


def present_first(people: list[PersonLink]) -> list[PersonLink]:
    """The page's order: playing, then online, then the rest (each by name)."""
    return sorted(people, key=lambda p: (not p["playing"], not p["online"], p["name"].lower()))
