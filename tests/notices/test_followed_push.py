"""A person you follow (with notices on) started a game: one push to your devices, through the
same claimed delivery as every notice; nothing for a follow without notices, a switched-off
kind, a player of the game or a blocked pair."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.accounts import follow, set_relation
from app.db.models import User
from app.match import MatchHeader
from app.match.records import SeatRecord
from app.notices.push_job import notices_of_followed_start
from app.notices.stream_events import FollowedGames
from tests.conftest import start_match
from tests.lobby.test_lobby import make_account
from tests.notices.push_service import PushService
from tests.notices.test_push import deliveries, push_client, push_service, subscribe  # noqa: F401


def test_a_followed_persons_new_game_is_pushed_once(
        push_client: TestClient, push_service: PushService) -> None:  # noqa: F811
    star, rival = make_account(push_client, "star"), make_account(push_client, "rival")
    fan, quiet = make_account(push_client, "fan"), make_account(push_client, "quiet")
    assert push_client.put("/api/v1/users/star/follow", headers=fan,
                           json={"notify": True}).status_code == 200
    push_client.put("/api/v1/users/star/follow", headers=quiet)  # no notices
    fan_phone, quiet_phone = push_service.device("fan"), push_service.device("quiet")
    subscribe(push_client, fan, fan_phone)
    subscribe(push_client, quiet, quiet_phone)
    match = start_match(push_client, star, rival)
    [push] = push_service.wait_for(fan_phone)
    assert push == {"type": "followedGame", "match": match["id"], "url": f"/m/{match['id']}",
                    "title": "star started a game", "body": "Stairs against rival"}
    assert [kind for _user, kind, _step in deliveries(push_client, match["id"])
            if kind == "followedGame"] == ["followedGame"]
    assert not quiet_phone.received


def _change(seats: list[tuple[int, str]], status: str = "active", sealed: bool = False,
            started_at: str = "2026-12-03T10:00:00Z") -> MatchHeader:
    return MatchHeader(id="Mx", game="stairs", options={}, num_seats=len(seats), status=status,
                       ply=0, result=None, created_at=started_at, started_at=started_at,
                       seats=[SeatRecord(n, user, name, "account")
                              for n, (user, name) in enumerate(seats)], sealed=sealed)


def test_who_gets_a_followed_game_notice(session: Session) -> None:
    users = [User(name=n, kind="account") for n in ("star", "rival", "fan", "blocked", "player")]
    session.add_all(users)
    session.commit()
    star, rival, fan, blocked, player = users
    for follower in (fan, blocked, player):
        follow(session, follower.id, star.id, notify=True)
    set_relation(session, blocked.id, star.id, "block", True)
    change = _change([(star.id, "star"), (player.id, "player")])
    assert [n.user_id for n in notices_of_followed_start(session, change)] == [fan.id]
    assert notices_of_followed_start(session, _change([(star.id, "star")], sealed=True)) == []
    assert notices_of_followed_start(session, _change([(star.id, "star")], "finished")) == []
    assert rival.id not in {n.user_id for n in notices_of_followed_start(session, change)}


def test_the_stream_says_it_once_and_only_for_games_started_since_it_opened() -> None:
    followed = FollowedGames(3, "2026-12-03T10:00:00", {1})
    old = _change([(1, "star"), (2, "rival")], started_at="2026-12-03T09:59:59Z")
    assert followed.candidates(old) == []
    fresh = _change([(1, "star"), (2, "rival")], started_at="2026-12-03T10:00:01Z")
    assert followed.candidates(fresh) == [1]
    event = followed.event(fresh, 1)
    assert event is not None and event.user.name == "star" and event.game.your_seat is None
    assert followed.candidates(fresh) == [] and followed.event(fresh, 1) is None
    mine = FollowedGames(2, "2026-12-03T10:00:00", {1})
    assert mine.candidates(fresh) == [], "a player of the game hears gameStart instead"
