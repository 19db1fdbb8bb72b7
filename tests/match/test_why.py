""""Why not here": a refused move carries its reason code and a message in the viewer's
language, and ``POST /matches/{id}/why`` answers the same reason without touching the match."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import make_guest, start_match
from tests.notices.test_match_socket import next_state
from tests.notices.test_socket_moves import _reply, _token

NOT_YOURS = {"code": "not_your_piece", "params": {"square": "b1"}}


def test_a_refused_move_and_why_carry_the_reason_code_in_the_viewers_language(
        client: TestClient, match: dict[str, Any], alice: dict[str, str],
        bob: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}/moves"
    english = client.post(url, json={"move": "b1-c2", "ply": 0}, headers=alice)  # b1 is dark
    assert english.status_code == 422
    assert english.json() == {"code": "illegal_move", "reason": NOT_YOURS,
                              "message": "the top piece on b1 is not yours"}
    japanese = client.post(url, json={"move": "b1-c2", "ply": 0},
                           headers={**alice, "Accept-Language": "ja"})
    assert japanese.json()["message"] == "b1 のいちばん上のコマはあなたのものではありません"
    assert japanese.json()["reason"] == NOT_YOURS
    _why_answers_without_changing_the_match(client, match, alice)
    _only_the_player_to_move_may_ask(client, match, bob)


def _why_answers_without_changing_the_match(client: TestClient, match: dict[str, Any],
                                            alice: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}"
    legal = client.post(f"{url}/why", json={"move": "a1-b2"}, headers=alice)
    assert legal.status_code == 200 and legal.json() == {"legal": True, "move": "a1-b2"}
    assert client.post(f"{url}/why", json={"move": "a1"}, headers=alice).json()["legal"]
    refused = client.post(f"{url}/why", json={"move": "b1"}, headers={**alice, "Accept-Language":
                                                                        "ja"})
    assert refused.json() == {"legal": False, "move": "b1", "code": "illegal_move",
                              "reason": NOT_YOURS,
                              "message": "b1 のいちばん上のコマはあなたのものではありません"}
    far = client.post(f"{url}/why", json={"move": "a1-c3"}, headers=alice).json()
    assert far["reason"] == {"code": "not_neighbour", "params": {"source": "a1", "to": "c3"}}
    after = client.get(url, headers=alice).json()
    assert after["ply"] == 0 and after["version"] == match["version"]


def _only_the_player_to_move_may_ask(client: TestClient, match: dict[str, Any],
                                     bob: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}/why"
    assert client.post(url, json={"move": "b1"}, headers=bob).json()["code"] == "not_your_turn"
    carol = make_guest(client, "Carol")
    outsider = client.post(url, json={"move": "b1"}, headers=carol)
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_a_player"
    assert client.post(url, json={"move": ""}, headers=bob).status_code == 422


def test_a_town_reason_and_a_socket_move_refused(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, game="town")
    view = match["view"]
    card = next(c for c in view["offer"] if c and c.startswith("P"))
    answer = client.post(f"/api/v1/matches/{match['id']}/why", json={"move": f"{card}@a3"},
                         headers=alice).json()
    assert answer["reason"] == {"code": "not_touching",
                                "params": {"card": card, "slot": "a3"}}
    assert set(answer) == {"legal", "move", "code", "message", "reason"}
    _a_socket_move_refused_carries_the_reason(client, alice, bob)


def _a_socket_move_refused_carries_the_reason(client: TestClient, alice: dict[str, str],
                                              bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob)
    url = f"/api/v1/matches/{match['id']}/ws?token={_token(alice)}&lang=ja"
    with client.websocket_connect(url) as light:
        next_state(light)
        light.send_json({"type": "move", "move": "b1-c2", "ply": 0, "id": "x"})
        error = _reply(light)
    assert (error["code"], error["reason"]) == ("illegal_move", NOT_YOURS)
    assert error["message"] == "b1 のいちばん上のコマはあなたのものではありません"
