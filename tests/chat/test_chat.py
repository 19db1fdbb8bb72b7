"""Match chat over REST and the match socket: rooms, phrases, inert text, floods, mutes, blocks,
reports."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import User
from app.protocol.messages import ChatLineMessage
from tests.conftest import make_guest, start_match


def _account(client: TestClient, username: str) -> dict[str, str]:
    made = client.post("/api/v1/accounts", json={"username": username, "password": "long enough"})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _me(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/v1/me", headers=headers).json()["id"])


def _say(client: TestClient, match_id: str, headers: dict[str, str], room: str,
         **line: Any):  # type: ignore[no-untyped-def]
    return client.post(f"/api/v1/matches/{match_id}/chat", headers=headers,
                       json={"room": room, **line})


def _read(client: TestClient, match_id: str, headers: dict[str, str] | None, room: str
          ) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/matches/{match_id}/chat", params={"room": room},
                          headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_players_talk_in_their_room_and_spectators_cannot_read_or_write_it(
        client: TestClient, alice: dict[str, str], bob: dict[str, str],
        match: dict[str, Any]) -> None:
    said = _say(client, match["id"], alice, "players", text="  good luck,   Bob  ")
    assert said.status_code == 201, said.text
    assert said.json()["text"] == "good luck, Bob" and said.json()["user"]["name"] == "Alice"
    assert [line["text"] for line in _read(client, match["id"], bob, "players")] == ["good luck, Bob"]
    carol = make_guest(client, "Carol")
    refused = _say(client, match["id"], carol, "players", text="psst")
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    peek = client.get(f"/api/v1/matches/{match['id']}/chat", params={"room": "players"},
                      headers=carol)
    assert peek.status_code == 403 and peek.json()["code"] == "not_a_player"
    anonymous = client.get(f"/api/v1/matches/{match['id']}/chat", params={"room": "players"})
    assert anonymous.status_code == 403


def test_spectators_room_is_closed_to_players_until_the_game_ends(
        client: TestClient, alice: dict[str, str], bob: dict[str, str],
        match: dict[str, Any]) -> None:
    dave = _account(client, "dave")
    assert _say(client, match["id"], dave, "spectators", text="nice opening").status_code == 201
    assert [line["text"] for line in _read(client, match["id"], None, "spectators")] == [
        "nice opening"]
    early = client.get(f"/api/v1/matches/{match['id']}/chat", params={"room": "spectators"},
                       headers=alice)
    assert early.status_code == 403 and early.json()["code"] == "spectators_room_closed"
    assert _say(client, match["id"], alice, "spectators", phrase="hello").status_code == 403
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob)
    assert [line["text"] for line in _read(client, match["id"], alice, "spectators")] == [
        "nice opening"]
    assert _say(client, match["id"], alice, "spectators", phrase="good_game").status_code == 201


def test_guests_send_only_quick_phrases_to_spectators_and_phrases_are_translated(
        client: TestClient, match: dict[str, Any]) -> None:
    guest = make_guest(client, "Eve")
    free = _say(client, match["id"], guest, "spectators", text="buy cheap gold")
    assert free.status_code == 403 and free.json()["code"] == "guests_quick_phrases_only"
    phrase = _say(client, match["id"], guest, "spectators", phrase="well_played")
    assert phrase.status_code == 201 and phrase.json()["phrase"] == "well_played"
    unknown = _say(client, match["id"], guest, "spectators", phrase="insult_42")
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_phrase"
    english = _read(client, match["id"], None, "spectators")[0]
    japanese = client.get(f"/api/v1/matches/{match['id']}/chat", params={"room": "spectators"},
                          headers={"Accept-Language": "ja"}).json()[0]
    assert english["text"] == "Well played"
    assert japanese["phrase"] == "well_played" and japanese["text"] not in ("", "Well played")


def test_text_is_trimmed_limited_and_stored_inert(
        client: TestClient, alice: dict[str, str], match: dict[str, Any]) -> None:
    hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    said = _say(client, match["id"], alice, "players", text=hostile)
    assert said.status_code == 201 and said.json()["text"] == hostile  # stored as given: text
    exactly = _say(client, match["id"], alice, "players", text="   " + "x" * 140 + "   ")
    assert exactly.status_code == 201
    too_long = _say(client, match["id"], alice, "players", text="x" * 141)
    assert too_long.status_code == 422 and too_long.json()["code"] == "chat_too_long"
    empty = _say(client, match["id"], alice, "players", text=" \n\t\x00 ")
    assert empty.status_code == 422 and empty.json()["code"] == "empty_chat"
    both = _say(client, match["id"], alice, "players", text="hi", phrase="hello")
    assert both.status_code == 422
    bad_room = _say(client, match["id"], alice, "lobby", text="hi")
    assert bad_room.status_code == 422


def test_a_flood_is_limited(client: TestClient, alice: dict[str, str],
                            match: dict[str, Any]) -> None:
    codes = [_say(client, match["id"], alice, "players", text=f"spam {n}").status_code
             for n in range(12)]
    assert codes[:5] == [201] * 5 and 429 in codes
    limited = _say(client, match["id"], alice, "players", text="more")
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    assert len(_read(client, match["id"], alice, "players")) == 5


def test_muted_and_blocked_users_are_hidden_and_blocked_ones_cannot_write(
        client: TestClient, alice: dict[str, str], bob: dict[str, str],
        match: dict[str, Any]) -> None:
    bob_id = _me(client, bob)
    _say(client, match["id"], bob, "players", text="first")
    muted = client.put(f"/api/v1/me/mutes/{bob_id}", headers=alice)
    assert muted.status_code == 200 and muted.json()["mute"] == [bob_id]
    assert _read(client, match["id"], alice, "players") == []
    assert len(_read(client, match["id"], bob, "players")) == 1  # only hidden for Alice
    client.delete(f"/api/v1/me/mutes/{bob_id}", headers=alice)
    assert len(_read(client, match["id"], alice, "players")) == 1
    assert client.put(f"/api/v1/me/blocks/{bob_id}", headers=alice).json()["block"] == [bob_id]
    refused = _say(client, match["id"], bob, "players", text="hey")
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    assert _read(client, match["id"], alice, "players") == []
    assert client.get("/api/v1/me/relations", headers=alice).json() == {"mute": [],
                                                                        "block": [bob_id]}
    self_block = client.put(f"/api/v1/me/blocks/{_me(client, alice)}", headers=alice)
    assert self_block.status_code == 422


def test_a_blocked_user_cannot_challenge(client: TestClient) -> None:
    fay, gus = _account(client, "fay"), _account(client, "gus")
    client.put(f"/api/v1/me/blocks/{_me(client, gus)}", headers=fay)
    refused = client.post("/api/v1/challenges", headers=gus, json={"user": "fay", "game": "stairs"})
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    back = client.post("/api/v1/challenges", headers=fay, json={"user": "gus", "game": "stairs"})
    assert back.status_code in (200, 201), back.text


def test_reports_reach_moderators_only(client: TestClient, app: Any, alice: dict[str, str],
                                       bob: dict[str, str], match: dict[str, Any]) -> None:
    line = _say(client, match["id"], bob, "players", text="rude words").json()
    reported = client.post(f"/api/v1/matches/{match['id']}/chat/{line['id']}/report",
                           headers=alice)
    assert reported.status_code == 201 and reported.json()["line"]["text"] == "rude words"
    carol = make_guest(client, "Carol")  # cannot read the players' room, cannot report it
    assert client.post(f"/api/v1/matches/{match['id']}/chat/{line['id']}/report",
                       headers=carol).status_code == 403
    mod = _account(client, "moddy")
    assert client.get("/api/v1/chat-reports", headers=mod).status_code == 403
    with app.state.session_factory() as session:
        session.execute(update(User).where(User.username == "moddy").values(is_moderator=True))
        session.commit()
    reports = client.get("/api/v1/chat-reports", headers=mod).json()
    assert [(r["match_id"], r["line"]["text"], r["reporter"]["name"]) for r in reports] == [
        (match["id"], "rude words", "Alice")]


def _next_chat(ws) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    while True:
        message = ws.receive_json()
        if message["type"] == "chatLine":
            return message


def test_the_match_socket_delivers_each_room_only_to_its_readers(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    dave = _account(client, "dave2")
    url = f"/api/v1/matches/{match['id']}/ws"
    token = bob["Authorization"].split()[1]
    with client.websocket_connect(f"{url}?token={token}") as player, \
            client.websocket_connect(url) as spectator:
        player.receive_json()
        spectator.receive_json()
        _say(client, match["id"], alice, "players", text="secret plan")
        _say(client, match["id"], dave, "spectators", text="hello all")
        heard = _next_chat(spectator)
        assert (heard["room"], heard["text"]) == ("spectators", "hello all")
        assert "hidden_for" not in heard
        ChatLineMessage.model_validate(heard)  # the documented protocol model
        mine = _next_chat(player)
        assert (mine["room"], mine["text"], mine["user"]["name"]) == ("players", "secret plan",
                                                                      "Alice")
        _say(client, match["id"], alice, "players", text="second")
        assert _next_chat(player)["text"] == "second"  # the spectators' line never came here


def test_the_moderators_page_lists_reports_as_text_for_moderators_only(
        client: TestClient, app: Any, alice: dict[str, str], bob: dict[str, str],
        match: dict[str, Any]) -> None:
    line = _say(client, match["id"], bob, "players", text="<script>x()</script> rude").json()
    client.post(f"/api/v1/matches/{match['id']}/chat/{line['id']}/report", headers=alice)
    made = client.post("/api/v1/accounts", json={"username": "modpage", "password": "long enough"})
    assert made.status_code == 201
    client.cookies.clear()
    login = client.post("/login", data={"username": "modpage", "password": "long enough",
                                        "csrf": _csrf(client)}, follow_redirects=False)
    assert login.status_code in (302, 303), login.text
    assert client.get("/mod/reports").status_code == 403
    with app.state.session_factory() as session:
        session.execute(update(User).where(User.username == "modpage").values(is_moderator=True))
        session.commit()
    page = client.get("/mod/reports")
    assert page.status_code == 200
    assert "&lt;script&gt;x()&lt;/script&gt; rude" in page.text and "<script>x()" not in page.text
    assert f'href="/m/{match["id"]}"' in page.text


def _csrf(client: TestClient) -> str:
    import re

    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/login").text)
    assert found
    return found.group(1)
