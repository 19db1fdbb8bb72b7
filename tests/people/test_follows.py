"""Following people over the API: follow and unfollow, scopes, blocks, limits, the lists with
presence and live games, and pagination."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.accounts import follow, followers_to_tell, following_of, friends_of, set_relation
from app.accounts import follows as follow_rules
from app.db.models import User
from app.kernel.errors import Conflict, Forbidden, Invalid
from tests.accounts.oauth_flow import sign_up
from tests.accounts.test_api_tokens import make_token
from tests.conftest import make_guest, start_match
from tests.lobby.test_lobby import make_account


def _me(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/v1/me", headers=headers).json()["id"])


def test_follow_lists_and_friends(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    followed = client.put("/api/v1/users/ben/follow", headers=aiko)
    assert followed.status_code == 200, followed.text
    assert followed.json()["name"] == "ben" and followed.json()["friend"] is False
    assert followed.json()["notify"] is False, "hearing of their games is opt-in"
    assert [p["name"] for p in client.get("/api/v1/account/following", headers=aiko).json()] == ["ben"]
    assert [p["name"] for p in client.get("/api/v1/account/followers", headers=ben).json()] == ["aiko"]
    assert client.get("/api/v1/account/friends", headers=aiko).json() == []
    back = client.put("/api/v1/users/aiko/follow", headers=ben, json={"notify": True}).json()
    assert back["friend"] is True and back["notify"] is True
    friends = client.get("/api/v1/account/friends", headers=aiko).json()
    assert [p["name"] for p in friends] == ["ben"] and friends[0]["friend"] is True
    assert client.get("/api/v1/users/ben/follow", headers=aiko).json()["friend"] is True


def test_following_again_is_idempotent_and_keeps_the_switch(client: TestClient) -> None:
    aiko, _ben = make_account(client, "aiko"), make_account(client, "ben")
    client.put("/api/v1/users/ben/follow", headers=aiko, json={"notify": True})
    again = client.put("/api/v1/users/ben/follow", headers=aiko).json()
    assert again["notify"] is True
    assert len(client.get("/api/v1/account/following", headers=aiko).json()) == 1
    assert client.delete("/api/v1/users/ben/follow", headers=aiko).status_code == 204
    assert client.delete("/api/v1/users/ben/follow", headers=aiko).status_code == 204
    assert client.get("/api/v1/account/following", headers=aiko).json() == []
    assert client.get("/api/v1/users/ben/follow", headers=aiko).json() is None


def test_a_read_only_token_lists_but_cannot_follow(client: TestClient) -> None:
    aiko, _ben = make_account(client, "aiko"), make_account(client, "ben")
    reader = make_token(client, aiko, ["read"])
    refused = client.put("/api/v1/users/ben/follow", headers=reader)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    refused = client.delete("/api/v1/users/ben/follow", headers=reader)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert client.get("/api/v1/account/following", headers=reader).status_code == 200
    challenger = make_token(client, aiko, ["challenge"])
    assert client.put("/api/v1/users/ben/follow", headers=challenger).status_code == 200
    assert client.get("/api/v1/account/following", headers=challenger).status_code == 403


def test_anonymous_callers_are_refused(client: TestClient) -> None:
    make_account(client, "ben")
    assert client.put("/api/v1/users/ben/follow").status_code == 401
    assert client.get("/api/v1/account/following").status_code == 401


def test_cannot_follow_yourself_a_guest_or_nobody(client: TestClient) -> None:
    aiko = make_account(client, "aiko")
    refused = client.put("/api/v1/users/aiko/follow", headers=aiko)
    assert refused.status_code == 422 and refused.json()["code"] == "cannot_follow_self"
    missing = client.put("/api/v1/users/nobody/follow", headers=aiko)
    assert missing.status_code == 404 and missing.json()["code"] == "no_user"
    assert client.delete("/api/v1/users/nobody/follow", headers=aiko).status_code == 404
    guest_id = _me(client, make_guest(client, "Passing"))
    refused = client.put(f"/api/v1/users/{guest_id}/follow", headers=aiko)
    assert refused.status_code == 422 and refused.json()["code"] == "cannot_follow"


def test_a_block_either_way_refuses_and_removes_follows(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    aiko_id, ben_id = _me(client, aiko), _me(client, ben)
    client.put("/api/v1/users/ben/follow", headers=aiko)
    client.put("/api/v1/users/aiko/follow", headers=ben)
    assert client.put(f"/api/v1/me/blocks/{aiko_id}", headers=ben).status_code == 200
    assert client.get("/api/v1/account/following", headers=aiko).json() == []
    assert client.get("/api/v1/account/following", headers=ben).json() == []
    for who, name in ((aiko, "ben"), (ben, "aiko")):
        refused = client.put(f"/api/v1/users/{name}/follow", headers=who)
        assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    client.delete(f"/api/v1/me/blocks/{aiko_id}", headers=ben)
    assert client.put("/api/v1/users/ben/follow", headers=aiko).status_code == 200
    assert ben_id != aiko_id


def test_lists_show_live_games_and_page(client: TestClient) -> None:
    aiko = make_account(client, "aiko")
    names = [f"pal{n}" for n in range(5)]
    people = [make_account(client, name) for name in names]
    for name in names:
        client.put(f"/api/v1/users/{name}/follow", headers=aiko)
    match = start_match(client, people[0], people[1])
    first = client.get("/api/v1/account/following", headers=aiko, params={"limit": 2})
    assert first.status_code == 200 and len(first.json()) == 2
    assert 'rel="next"' in first.headers["link"]
    seen = [p["name"] for p in first.json()]
    url = first.headers["link"].split(">")[0].lstrip("<")
    while url:
        page = client.get(url, headers=aiko)
        seen += [p["name"] for p in page.json()]
        url = page.headers.get("link", "").split(">")[0].lstrip("<")
    assert seen == list(reversed(names)), "the newest follow first, each once"
    listed = {p["name"]: p for p in client.get("/api/v1/account/following", headers=aiko).json()}
    assert [g["id"] for g in listed["pal0"]["playing"]] == [match["id"]]
    assert listed["pal0"]["playing"][0]["opponents"] == ["pal1"]
    assert listed["pal0"]["playing"][0]["url"] == f"/m/{match['id']}"
    assert listed["pal2"]["playing"] == []
    assert all(p["online"] is False for p in listed.values()), "nobody has a socket open"


def test_a_bad_cursor_is_422(client: TestClient) -> None:
    aiko = make_account(client, "aiko")
    bad = client.get("/api/v1/account/friends", headers=aiko, params={"cursor": "nope"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_cursor"


def test_the_follow_limit(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    users = [User(name=f"u{n}", kind="account") for n in range(4)]
    session.add_all(users)
    session.commit()
    me, *others = users
    monkeypatch.setattr(follow_rules, "MAX_FOLLOWS", 2)
    follow(session, me.id, others[0].id)
    follow(session, me.id, others[1].id)
    follow(session, me.id, others[1].id)  # again: not a new follow
    with pytest.raises(Conflict):
        follow(session, me.id, others[2].id)
    assert [link.user_id for link in following_of(session, me.id)] == [others[0].id, others[1].id]


def test_who_is_told_of_a_new_game(session: Session) -> None:
    users = [User(name=f"u{n}", kind="account") for n in range(4)]
    session.add_all(users)
    session.commit()
    star, fan, quiet, blocker = users
    follow(session, fan.id, star.id, notify=True)
    follow(session, quiet.id, star.id)  # no notify
    follow(session, blocker.id, star.id, notify=True)
    follow(session, star.id, fan.id)
    assert [link.user_id for link in friends_of(session, fan.id)] == [star.id]
    assert followers_to_tell(session, [star.id]) == {star.id: [fan.id, blocker.id]}
    set_relation(session, star.id, blocker.id, "block", True)
    assert followers_to_tell(session, [star.id]) == {star.id: [fan.id]}
    with pytest.raises(Forbidden):
        follow(session, blocker.id, star.id)
    with pytest.raises(Invalid, match="yourself"):
        follow(session, fan.id, fan.id)


def test_the_follow_forms_and_the_friends_page(client: TestClient) -> None:
    ben = make_account(client, "ben")
    csrf = sign_up(client, "aiko")
    answer = client.post("/u/ben/follow", data={"csrf": csrf, "action": "follow"},
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/u/ben"
    page = client.get("/u/ben").text
    assert 'id="follow-button"' in page and "Unfollow" in page
    client.post("/u/ben/follow", data={"csrf": csrf, "action": "notify", "notify": "on",
                                       "next": "/account/friends"})
    client.put("/api/v1/users/aiko/follow", headers=ben)
    friends = client.get("/account/friends").text
    assert 'id="friends-list"' in friends and "/u/" in friends and "Notices on" in friends
    watch = client.get("/watch").text
    assert "People you follow" in watch and "Nobody you follow is playing right now." in watch
    refused = client.post("/u/ben/follow", data={"csrf": "wrong", "action": "unfollow"})
    assert refused.status_code == 403
    self_follow = client.post("/u/aiko/follow", data={"csrf": csrf, "action": "follow"})
    assert self_follow.status_code == 422 and "You cannot follow yourself." in self_follow.text
    client.post("/u/ben/follow", data={"csrf": csrf, "action": "unfollow"})
    assert "No friends yet" in client.get("/account/friends").text
