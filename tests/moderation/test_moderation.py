"""Moderators who can act, through the API: the gate's `moderate` door (anonymous, a person who
is not a moderator, a moderator's scoped token, a moderator acting on a moderator, a revoked
moderator), hiding a chat line (live on the match socket), muting for a time (fake clock), closing
an account (credentials end, name reserved, rated games kept), the report queue with context,
the log, the notices to the person concerned (API, account socket, page, en + ja), the pages and
the command that grants the role."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.accounts import moderators as moderator_command
from app.db.models import ModerationAction, Rating, User
from app.kernel import timesource
from app.kernel.timesource import FakeClock
from tests.conftest import make_guest, start_match

_numbers = count(1)


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock()
    with timesource.use(fake):
        yield fake


class Person:
    def __init__(self, client: TestClient, prefix: str) -> None:
        self.username = f"{prefix}{next(_numbers)}"
        made = client.post("/api/v1/accounts", json={"username": self.username,
                                                      "password": "long enough"})
        assert made.status_code == 201, made.text
        self.id: int = made.json()["user"]["id"]
        self.token: str = made.json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}


def _moderator(client: TestClient) -> Person:
    person = Person(client, "mod")
    with client.app.state.session_factory() as session:
        moderator_command.set_moderator(session, person.username, True, "test")
    return person


def _say(client: TestClient, match_id: str, who: Person, text: str, room: str = "players"
         ) -> Any:
    return client.post(f"/api/v1/matches/{match_id}/chat", headers=who.headers,
                       json={"room": room, "text": text})


def _reported_line(client: TestClient, troll: Person, victim: Person) -> tuple[str, int]:
    """A match of troll and victim where troll said something rude that victim reported."""
    match = start_match(client, troll.headers, victim.headers)
    _say(client, match["id"], victim, "good luck")
    line = _say(client, match["id"], troll, "you are a fool").json()
    _say(client, match["id"], victim, "that was rude")
    reported = client.post(f"/api/v1/matches/{match['id']}/chat/{line['id']}/report",
                           headers=victim.headers)
    assert reported.status_code == 201, reported.text
    return match["id"], line["id"]


def _act(client: TestClient, who: Person | dict[str, str] | None, path: str, **body: Any) -> Any:
    headers = who.headers if isinstance(who, Person) else (who or {})
    return client.post(f"/api/v1/moderation/{path}", headers=headers,
                       json={"reason": "insults in chat", **body})


def test_only_a_moderator_with_full_access_passes_the_moderation_doors(
        client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    _match_id, line_id = _reported_line(client, troll, victim)
    scoped = client.post("/api/v1/tokens", headers=mod.headers, json={
        "description": "mod bot", "scopes": ["read", "play", "challenge", "bot"]}).json()["token"]
    attempts = {
        "anonymous": (None, 401, "unauthenticated"),
        "a guest": (make_guest(client, "Guest"), 403, "not_a_moderator"),
        "an account": (victim, 403, "not_a_moderator"),
        "a moderator's scoped token": ({"Authorization": f"Bearer {scoped}"}, 403,
                                       "missing_scope"),
    }
    for who, (headers, status, code) in attempts.items():
        for path, body in ((f"chat/{line_id}/hide", {}), (f"users/{troll.id}/mute",
                                                          {"minutes": 10}),
                           (f"users/{troll.id}/close", {})):
            answer = _act(client, headers, path, **body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), (who, path)
        listed = client.get("/api/v1/moderation/reports",
                            headers=headers.headers if isinstance(headers, Person)
                            else headers or {})
        assert listed.status_code == status, who
    assert client.get("/api/v1/moderation/reports", headers=mod.headers).status_code == 200
    with client.app.state.session_factory() as session:
        assert session.scalars(select(ModerationAction).where(
            ModerationAction.action != "grant_moderator")).all() == [], "nothing was done"


def test_a_moderator_never_acts_on_a_moderator_and_a_revoked_one_stops_at_once(
        client: TestClient) -> None:
    mod, other = _moderator(client), _moderator(client)
    match = start_match(client, other.headers, mod.headers)
    line = _say(client, match["id"], other, "hello").json()
    for who in (other, mod):  # another moderator, and themselves
        for path, body in ((f"users/{who.id}/mute", {"minutes": 10}),
                           (f"users/{who.id}/close", {})):
            refused = _act(client, mod, path, **body)
            assert (refused.status_code, refused.json()["code"]) == (403, "target_is_moderator")
    hidden = _act(client, mod, f"chat/{line['id']}/hide")
    assert (hidden.status_code, hidden.json()["code"]) == (403, "target_is_moderator")
    assert client.get("/api/v1/moderation/log", headers=mod.headers).status_code == 200
    with client.app.state.session_factory() as session:
        moderator_command.set_moderator(session, mod.username, False, "stepped down")
    gone = client.get("/api/v1/moderation/log", headers=mod.headers)
    assert (gone.status_code, gone.json()["code"]) == (403, "not_a_moderator"), "no cache"


def test_hiding_a_line_removes_it_for_everyone_live_and_tells_its_author(
        client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    match_id, line_id = _reported_line(client, troll, victim)
    (case,) = client.get("/api/v1/moderation/reports", headers=mod.headers).json()
    assert case["line"]["text"] == "you are a fool" and case["reporter"]["id"] == victim.id
    assert [(line["text"], line["reported"]) for line in case["context"]] == [
        ("good luck", False), ("you are a fool", True), ("that was rude", False)]
    assert case["author"]["username"] == troll.username and case["match"]["id"] == match_id
    with client.websocket_connect(f"/api/v1/matches/{match_id}/ws?token={victim.token}") as ws, \
            client.websocket_connect(f"/api/v1/stream/event/ws?token={troll.token}") as events:
        ws.receive_json()
        hidden = _act(client, mod, f"chat/{line_id}/hide")
        assert hidden.status_code == 200, hidden.text
        act = hidden.json()
        assert (act["action"], act["moderator"]["id"], act["target"]["id"]) == (
            "hide_line", mod.id, troll.id)
        assert act["reason"] == "insults in chat" and act["details"]["line"] == "you are a fool"
        while (message := ws.receive_json())["type"] != "chatHidden":
            pass
        assert message == {"type": "chatHidden", "id": line_id, "match_id": match_id,
                           "room": "players"}
        while (notice := events.receive_json())["type"] != "moderation":
            pass
        assert notice["notice"]["action"] == "hide_line"
        assert notice["notice"]["reason"] == "insults in chat"
    shown = [line["text"] for line in client.get(f"/api/v1/matches/{match_id}/chat",
                                                 params={"room": "players"},
                                                 headers=victim.headers).json()]
    assert shown == ["good luck", "that was rude"]
    assert client.get("/api/v1/moderation/reports", headers=mod.headers).json() == []
    (resolved,) = client.get("/api/v1/moderation/reports", params={"state": "resolved"},
                             headers=mod.headers).json()
    assert resolved["resolution"] == "hidden" and resolved["hidden"]
    assert [line["hidden"] for line in resolved["context"]] == [False, True, False]
    again = _act(client, mod, f"chat/{line_id}/hide")
    assert (again.status_code, again.json()["code"]) == (409, "already_hidden")
    mine = client.get("/api/v1/me/moderation", headers=troll.headers).json()
    assert [(n["action"], n["line"], n["match_id"]) for n in mine] == [
        ("hide_line", "you are a fool", match_id)]
    assert mine[0]["message"] == "A moderator hid your chat message: insults in chat"
    japanese = client.get("/api/v1/me/moderation", headers={**troll.headers,
                                                             "Accept-Language": "ja"}).json()
    assert japanese[0]["message"].endswith("insults in chat") and "moderator" not in \
        japanese[0]["message"]


def test_a_mute_refuses_chat_until_it_ends_and_can_end_early(
        clock: FakeClock, client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    match_id, _line = _reported_line(client, troll, victim)
    muted = _act(client, mod, f"users/{troll.id}/mute", minutes=60)
    assert muted.status_code == 200 and muted.json()["details"]["minutes"] == 60
    refused = _say(client, match_id, troll, "still here")
    assert (refused.status_code, refused.json()["code"]) == (403, "chat_muted")
    assert refused.json()["until"] == "2026-01-01T13:00:00Z"
    assert _say(client, match_id, victim, "quiet now").status_code == 201
    clock.advance(3600)
    assert _say(client, match_id, troll, "back").status_code == 201
    not_muted = _act(client, mod, f"users/{troll.id}/unmute")
    assert (not_muted.status_code, not_muted.json()["code"]) == (409, "not_muted")
    _act(client, mod, f"users/{troll.id}/mute", minutes=10)
    assert _act(client, mod, f"users/{troll.id}/unmute").status_code == 200
    assert _say(client, match_id, troll, "sorry").status_code == 201
    bad = _act(client, mod, f"users/{troll.id}/mute", minutes=0)
    assert bad.status_code == 422
    assert _act(client, mod, f"users/{troll.id}/mute", minutes=5, reason=" ").status_code == 422
    actions = [n["action"] for n in client.get("/api/v1/me/moderation",
                                               headers=troll.headers).json()]
    assert actions == ["unmute", "mute", "mute"]


def test_closing_an_account_ends_its_credentials_keeps_its_name_and_rated_games(
        client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    rated = client.post("/api/v1/challenges", headers=troll.headers, json={
        "user": victim.username, "game": "stairs", "rated": True, "seat": 0})
    finished = client.post(f"/api/v1/challenges/{rated.json()['id']}/accept",
                           headers=victim.headers).json()["match_id"]
    assert client.post(f"/api/v1/matches/{finished}/resign",
                       headers=victim.headers).status_code == 200
    playing = start_match(client, troll.headers, victim.headers)["id"]
    seek = client.post("/api/v1/seeks", headers=troll.headers, json={"game": "stairs"}).json()
    with client.websocket_connect(f"/api/v1/matches/{playing}/ws?token={troll.token}") as ws:
        ws.receive_json()
        closed = _act(client, mod, f"users/{troll.id}/close", reason="repeated insults")
        assert closed.status_code == 200, closed.text
        with pytest.raises(Exception):  # noqa: B017 - the server closes the socket (4401)
            while True:
                ws.receive_json()
    assert client.get("/api/v1/me", headers=troll.headers).status_code == 401
    login = client.post("/api/v1/login", json={"username": troll.username,
                                               "password": "long enough"})
    assert (login.status_code, login.json()["code"]) == (403, "account_closed")
    assert "repeated insults" in login.json()["message"]
    wrong = client.post("/api/v1/login", json={"username": troll.username, "password": "nope!!!!"})
    assert wrong.status_code == 401 and "insults" not in wrong.text, "the reason is theirs only"
    taken = client.post("/api/v1/accounts", json={"username": troll.username,
                                                  "password": "long enough"})
    assert (taken.status_code, taken.json()["code"]) == (409, "username_taken")
    assert client.get(f"/api/v1/matches/{finished}").json()["seats"][0]["user"]["id"] == troll.id
    with client.app.state.session_factory() as session:
        assert session.scalars(select(Rating).where(Rating.user_id == troll.id)).all()
        assert session.get(User, troll.id).closed_at is not None  # type: ignore[union-attr]
    ended = client.get(f"/api/v1/matches/{playing}").json()
    assert ended["status"] == "finished" and ended["result"]["reason"] == "resigned"
    assert seek["id"] not in [s["id"] for s in client.get("/api/v1/seeks").json()]
    again = _act(client, mod, f"users/{troll.id}/close")
    assert (again.status_code, again.json()["code"]) == (409, "already_closed")
    log = client.get("/api/v1/moderation/log", params={"user_id": troll.id},
                     headers=mod.headers).json()
    assert [(a["action"], a["moderator"]["username"], a["reason"]) for a in log] == [
        ("close", mod.username, "repeated insults")]


def test_dismissing_a_report_tells_the_reporter_and_everything_is_logged(
        client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    _match_id, _line = _reported_line(client, troll, victim)
    (case,) = client.get("/api/v1/moderation/reports", headers=mod.headers).json()
    dismissed = _act(client, mod, f"reports/{case['id']}/dismiss", reason="banter, no insult")
    assert dismissed.status_code == 200 and dismissed.json()["target"]["id"] == victim.id
    again = _act(client, mod, f"reports/{case['id']}/dismiss")
    assert (again.status_code, again.json()["code"]) == (409, "report_resolved")
    assert [n["action"] for n in client.get("/api/v1/me/moderation",
                                            headers=victim.headers).json()] == ["dismiss_report"]
    assert client.get("/api/v1/me/moderation", headers=troll.headers).json() == []
    _act(client, mod, f"users/{troll.id}/mute", minutes=10)
    log = client.get("/api/v1/moderation/log", headers=mod.headers).json()
    assert [(a["action"], a["target"]["id"]) for a in log[:2]] == [
        ("mute", troll.id), ("dismiss_report", victim.id)]
    assert all(a["created_at"] and a["reason"] for a in log)
    assert log[-1]["action"] == "grant_moderator" and log[-1]["moderator"] is None


def _login(client: TestClient, person: Person) -> None:
    client.cookies.clear()
    page = client.get("/login").text
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert csrf
    done = client.post("/login", data={"username": person.username, "password": "long enough",
                                       "csrf": csrf.group(1)}, follow_redirects=False)
    assert done.status_code in (302, 303), done.text


def _page_csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


def test_the_moderators_page_shows_the_queue_in_context_and_acts_through_forms(
        client: TestClient) -> None:
    mod, troll, victim = _moderator(client), Person(client, "troll"), Person(client, "victim")
    match_id, line_id = _reported_line(client, troll, victim)
    _login(client, victim)
    assert client.get("/mod/reports").status_code == 403
    forged = client.post(f"/mod/lines/{line_id}/hide", data={"reason": "nope"})
    assert forged.status_code == 403
    _login(client, mod)
    page = client.get("/mod/reports")
    assert page.status_code == 200
    assert "good luck" in page.text and "that was rude" in page.text and "you are a fool" in page.text
    assert f'action="/mod/lines/{line_id}/hide"' in page.text
    csrf = _page_csrf(client, "/mod/reports")
    no_csrf = client.post(f"/mod/lines/{line_id}/hide", data={"reason": "insults"})
    assert no_csrf.status_code == 403
    done = client.post(f"/mod/lines/{line_id}/hide", data={"reason": "insults", "csrf": csrf},
                       follow_redirects=False)
    assert done.status_code == 303, done.text
    after = client.get("/mod/reports").text
    assert "No reports." in after and mod.username[:3] in after and "insults" in after
    _login(client, troll)
    notices = client.get("/account/moderation?lang=ja")
    assert notices.status_code == 200 and "insults" in notices.text
    assert "チャット" in notices.text
    assert f'href="/m/{match_id}"' in notices.text


def test_the_command_grants_and_revokes_and_logs(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    person = Person(client, "helper")
    monkeypatch.setenv("STEPWELL_DATABASE_URL", client.app.state.settings.database_url)
    assert moderator_command.main(["grant", person.username, "trusted", "player"]) == 0
    assert client.get("/api/v1/moderation/log", headers=person.headers).status_code == 200
    assert moderator_command.main(["list"]) == 0
    assert person.username in capsys.readouterr().out
    assert moderator_command.main(["grant", "nobody-here"]) == 1
    assert moderator_command.main(["revoke", person.username]) == 0
    assert client.get("/api/v1/moderation/log", headers=person.headers).status_code == 403
    with client.app.state.session_factory() as session:
        logged = session.scalars(select(ModerationAction.reason).where(
            ModerationAction.target_id == person.id).order_by(ModerationAction.id)).all()
    assert logged == ["trusted player", "command line"]
