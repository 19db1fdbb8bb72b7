"""Conditional moves through the API: checked with the engine when set, the reply played in the
opponent's move's commit, lines the game leaves dropped, all of them dropped on a takeback and at
the end, and nobody but the owner ever reads them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import MatchConditional
from games import registry
from tests.conftest import make_guest

CORRESPONDENCE = {"kind": "correspondence", "days": 3}


def _url(match_id: str) -> str:
    return f"/api/v1/matches/{match_id}"


def _started(client: TestClient, game: str = "stairs",
             control: dict[str, Any] | None = CORRESPONDENCE
             ) -> tuple[str, dict[str, str], dict[str, str]]:
    """Alice (seat 0) has made the first move: Bob is to move, Alice may set her lines."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    created = client.post("/api/v1/matches", json={"game": game, "seat": 0,
                                                   "time_control": control}, headers=alice)
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    client.post(f"{_url(match_id)}/join", headers=bob)
    _play(client, match_id, alice, 0)
    return match_id, alice, bob


def _state(client: TestClient, match_id: str, who: dict[str, str]) -> dict[str, Any]:
    return client.get(_url(match_id), headers=who).json()  # type: ignore[no-any-return]


def _play(client: TestClient, match_id: str, who: dict[str, str], index: int = 0,
          move: str | None = None) -> dict[str, Any]:
    state = _state(client, match_id, who)
    response = client.post(f"{_url(match_id)}/moves", headers=who,
                           json={"move": move or state["legal_moves"][index],
                                 "ply": state["ply"]})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def _put(client: TestClient, match_id: str, who: dict[str, str], lines: list[list[str]],
         ply: int = 1) -> Any:
    return client.put(f"{_url(match_id)}/conditional", headers=who,
                      json={"ply": ply, "lines": lines})


def _stored(client: TestClient, match_id: str) -> int:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        return session.scalar(select(func.count()).select_from(MatchConditional)
                              .where(MatchConditional.match_id == match_id)) or 0


@pytest.mark.parametrize("game", ["stairs", "sight", "scalas"])
def test_a_reply_is_played_in_the_same_commit_as_the_opponents_move(client: TestClient,
                                                                    game: str) -> None:
    match_id, alice, bob = _started(client, game)
    theirs = _state(client, match_id, bob)["legal_moves"]
    after = registry.get(game).new_state()
    moves = client.get(f"{_url(match_id)}/moves").json()
    for entry in moves:
        after = after.play(entry["move"])
    replies = after.play(theirs[0]).legal_moves()
    answer = _put(client, match_id, alice, [[theirs[0].upper(), replies[-1]],
                                            [theirs[1], after.play(theirs[1]).legal_moves()[0]]])
    assert answer.status_code == 200, answer.text
    assert answer.json()["lines"][0] == [theirs[0], replies[-1]], "stored canonical"
    played = _play(client, match_id, bob, move=theirs[0])
    assert played["ply"] == 3, "Bob's move and Alice's reply in one answer"
    assert played["last_move"] == {"ply": 3, "seat": 0, "move": replies[-1]}
    assert played["to_move"] == 1
    record = client.get(f"{_url(match_id)}/moves").json()
    assert [m["move"] for m in record[1:]] == [theirs[0], replies[-1]]
    assert record[2]["time_spent_ms"] == 0, "a conditional reply is instant"
    assert client.get(f"{_url(match_id)}/conditional", headers=alice).json()["lines"] == []
    assert _stored(client, match_id) == 0, "the other line was left: dropped"


def test_a_deep_line_is_followed_then_dropped_when_the_game_leaves_it(client: TestClient) -> None:
    match_id, alice, bob = _started(client)
    state = registry.get("stairs").new_state()
    for entry in client.get(f"{_url(match_id)}/moves").json():
        state = state.play(entry["move"])
    b1 = state.legal_moves()[0]
    a1 = state.play(b1).legal_moves()[0]
    b2 = state.play(b1).play(a1).legal_moves()[0]
    a2 = state.play(b1).play(a1).play(b2).legal_moves()[0]
    assert _put(client, match_id, alice, [[b1, a1, b2, a2]]).status_code == 200
    _play(client, match_id, bob, move=b1)
    left = client.get(f"{_url(match_id)}/conditional", headers=alice).json()
    assert left == {"ply": 3, "lines": [[b2, a2]]}, "shortened to the new position"
    other = next(m for m in _state(client, match_id, bob)["legal_moves"] if m != b2)
    played = _play(client, match_id, bob, move=other)
    assert played["ply"] == 4 and played["to_move"] == 0, "no reply: the line was left"
    assert client.get(f"{_url(match_id)}/conditional", headers=alice).json()["lines"] == []
    assert _stored(client, match_id) == 0


def test_lines_are_checked_against_the_engine(client: TestClient) -> None:
    match_id, alice, bob = _started(client)
    theirs = _state(client, match_id, bob)["legal_moves"][0]
    bad = _put(client, match_id, alice, [[theirs, "z9-z9"]])
    assert bad.status_code == 422 and bad.json()["code"] == "illegal_conditional"
    assert "move 2" in bad.json()["message"]
    mine_first = _put(client, match_id, alice, [["a1-b1", theirs]])
    assert mine_first.status_code == 422
    no_reply = _put(client, match_id, alice, [[theirs]])
    assert no_reply.status_code == 422 and no_reply.json()["code"] == "illegal_conditional"
    state = registry.get("stairs").new_state()
    for entry in client.get(f"{_url(match_id)}/moves").json():
        state = state.play(entry["move"])
    replies = state.play(theirs).legal_moves()
    clash = _put(client, match_id, alice, [[theirs, replies[0]], [theirs, replies[1]]])
    assert clash.status_code == 422 and clash.json()["code"] == "conflicting_conditionals"
    too_deep = _put(client, match_id, alice, [[theirs] * 9])
    assert too_deep.status_code == 422
    stale = _put(client, match_id, alice, [[theirs, replies[0]]], ply=0)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_ply"
    own_turn = _put(client, match_id, bob, [[theirs, replies[0]]])
    assert own_turn.status_code == 409 and own_turn.json()["code"] == "your_turn"
    assert _stored(client, match_id) == 0


def test_only_correspondence_games_of_perfect_information_take_them(client: TestClient) -> None:
    realtime, alice, _bob = _started(client, control={"kind": "realtime", "minutes": 5})
    refused = _put(client, realtime, alice, [["a1", "a2"]])
    assert refused.status_code == 409 and refused.json()["code"] == "no_conditional_moves"
    town_alice, town_bob = make_guest(client, "A"), make_guest(client, "B")
    town = client.post("/api/v1/matches", json={"game": "town", "time_control": CORRESPONDENCE},
                       headers=town_alice).json()["id"]
    client.post(f"{_url(town)}/join", headers=town_bob)
    got = client.get(f"{_url(town)}/conditional", headers=town_alice)
    assert got.status_code == 409 and got.json()["code"] == "no_conditional_moves"


def test_nobody_but_the_owner_sees_them(client: TestClient) -> None:
    match_id, alice, bob = _started(client)
    theirs = _state(client, match_id, bob)["legal_moves"][0]
    state = registry.get("stairs").new_state()
    for entry in client.get(f"{_url(match_id)}/moves").json():
        state = state.play(entry["move"])
    assert _put(client, match_id, alice,
                [[theirs, state.play(theirs).legal_moves()[0]]]).status_code == 200
    assert client.get(f"{_url(match_id)}/conditional", headers=bob).json()["lines"] == [], \
        "the opponent reads their own (none), never Alice's"
    stranger = make_guest(client, "Eve")
    for method in ("get", "delete"):
        answer = client.request(method.upper(), f"{_url(match_id)}/conditional", headers=stranger)
        assert answer.status_code == 403 and answer.json()["code"] == "not_a_player"
    assert _put(client, match_id, stranger, [[theirs, "a1-b1"]]).status_code == 403
    assert client.get(f"{_url(match_id)}/conditional").status_code == 401
    for who in (bob, stranger, {}):
        for path in ("", "/moves", "/export"):
            body = client.get(f"{_url(match_id)}{path}", headers=who)
            assert body.status_code == 200, (path, body.text)
            assert "conditional" not in body.text.lower() and '"lines"' not in body.text
    assert _stored(client, match_id) == 1


def test_a_takeback_and_the_end_of_the_game_drop_them(client: TestClient) -> None:
    match_id, alice, bob = _started(client)
    theirs = _state(client, match_id, bob)["legal_moves"][0]
    state = registry.get("stairs").new_state()
    for entry in client.get(f"{_url(match_id)}/moves").json():
        state = state.play(entry["move"])
    line = [[theirs, state.play(theirs).legal_moves()[0]]]
    assert _put(client, match_id, alice, line).status_code == 200
    assert client.post(f"{_url(match_id)}/offers/takeback", headers=alice).status_code == 200
    taken = client.post(f"{_url(match_id)}/offers/takeback/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    assert taken.json()["ply"] == 0
    assert _stored(client, match_id) == 0, "a takeback drops them"
    _play(client, match_id, alice)
    assert _put(client, match_id, alice, line).status_code == 200
    assert client.post(f"{_url(match_id)}/resign", headers=bob).status_code == 200
    assert _stored(client, match_id) == 0, "the end of the game drops them"


def test_delete_removes_them(client: TestClient) -> None:
    match_id, alice, bob = _started(client)
    theirs = _state(client, match_id, bob)["legal_moves"][0]
    state = registry.get("stairs").new_state()
    for entry in client.get(f"{_url(match_id)}/moves").json():
        state = state.play(entry["move"])
    assert _put(client, match_id, alice,
                [[theirs, state.play(theirs).legal_moves()[0]]]).status_code == 200
    assert client.delete(f"{_url(match_id)}/conditional", headers=alice).json()["lines"] == []
    played = _play(client, match_id, bob, move=theirs)
    assert played["ply"] == 2 and played["to_move"] == 0
