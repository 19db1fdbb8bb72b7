"""The match API: creating, joining, views per seat, moves with ply guards, errors, resigning."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from games import registry
from tests.conftest import make_guest, start_match


def test_catalog_lists_every_game_with_option_defaults(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/v1/games").json()}
    assert "stairs" in games
    assert games["stairs"]["defaults"] == {"swap": False}
    assert games["stairs"]["min_players"] == games["stairs"]["max_players"] == 2
    assert set(games) == set(registry.ids())


def test_guest_gets_a_token_that_identifies_them(client: TestClient) -> None:
    response = client.post("/api/v1/guests", json={"name": "  Aiko  "})
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["name"] == "Aiko" and body["token"].startswith("sw_")
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.json() == body["user"]


def test_blank_guest_name_is_a_clear_422(client: TestClient) -> None:
    response = client.post("/api/v1/guests", json={"name": "   "})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_name"


def test_bad_token_is_401(client: TestClient) -> None:
    response = client.get("/api/v1/me", headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401 and response.json()["code"] == "invalid_token"


def test_creating_needs_an_identity(client: TestClient) -> None:
    response = client.post("/api/v1/matches", json={"game": "stairs"})
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"


def test_created_match_waits_for_the_second_player(client: TestClient,
                                                   alice: dict[str, str]) -> None:
    response = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice)
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "waiting" and body["ply"] == 0
    assert body["your_seat"] == 0 and body["seats"][1]["user"] is None
    assert body["to_move"] is None and body["legal_moves"] == []


def test_joining_starts_the_match_and_light_moves_first(match: dict[str, Any]) -> None:
    assert match["status"] == "active" and match["your_seat"] == 1
    assert match["to_move"] == 0 and match["legal_moves"] == []


def test_only_the_seat_to_move_gets_legal_moves(client: TestClient, match: dict[str, Any],
                                                alice: dict[str, str]) -> None:
    mine = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()
    assert mine["your_seat"] == 0 and len(mine["legal_moves"]) > 0
    spectator = client.get(f"/api/v1/matches/{match['id']}").json()
    assert spectator["your_seat"] is None and spectator["legal_moves"] == []
    assert spectator["view"]["board"] == mine["view"]["board"]


def test_unknown_game_and_bad_options_are_rejected(client: TestClient,
                                                   alice: dict[str, str]) -> None:
    unknown = client.post("/api/v1/matches", json={"game": "chess"}, headers=alice)
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_game"
    bad = client.post("/api/v1/matches", json={"game": "stairs", "options": {"swap": "maybe"}},
                      headers=alice)
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_options"
    extra = client.post("/api/v1/matches", json={"game": "stairs", "options": {"colour": 1}},
                        headers=alice)
    assert extra.status_code == 422 and extra.json()["code"] == "invalid_options"
    seats = client.post("/api/v1/matches", json={"game": "stairs", "seat": 5}, headers=alice)
    assert seats.status_code == 422 and seats.json()["code"] == "invalid_seat"


def test_creator_may_take_the_second_seat(client: TestClient, alice: dict[str, str],
                                          bob: dict[str, str]) -> None:
    created = client.post("/api/v1/matches", json={"game": "stairs", "seat": 1},
                          headers=alice).json()
    assert created["your_seat"] == 1
    joined = client.post(f"/api/v1/matches/{created['id']}/join", headers=bob).json()
    assert joined["your_seat"] == 0 and joined["status"] == "active"


def test_a_full_match_cannot_be_joined(client: TestClient, match: dict[str, Any]) -> None:
    carol = make_guest(client, "Carol")
    response = client.post(f"/api/v1/matches/{match['id']}/join", headers=carol)
    assert response.status_code == 409 and response.json()["code"] == "match_full"


def test_a_legal_move_advances_the_ply(client: TestClient, match: dict[str, Any],
                                       alice: dict[str, str]) -> None:
    move = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()["legal_moves"][0]
    response = client.post(f"/api/v1/matches/{match['id']}/moves",
                           json={"move": move.upper(), "ply": 0}, headers=alice)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ply"] == 1 and body["to_move"] == 1 and body["last_move"]["move"] == move
    record = client.get(f"/api/v1/matches/{match['id']}/moves").json()
    assert [(r["ply"], r["seat"], r["move"]) for r in record] == [(1, 0, move)]


def test_stale_or_duplicate_ply_is_409_and_changes_nothing(
        client: TestClient, match: dict[str, Any], alice: dict[str, str],
        bob: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}"
    move = client.get(url, headers=alice).json()["legal_moves"][0]
    assert client.post(f"{url}/moves", json={"move": move, "ply": 0}, headers=alice).status_code == 200
    before = client.get(url).json()
    duplicate = client.post(f"{url}/moves", json={"move": move, "ply": 0}, headers=alice)
    assert duplicate.status_code == 409 and duplicate.json()["code"] == "stale_ply"
    reply = client.get(url, headers=bob).json()["legal_moves"][0]
    ahead = client.post(f"{url}/moves", json={"move": reply, "ply": 5}, headers=bob)
    assert ahead.status_code == 409 and ahead.json()["code"] == "stale_ply"
    assert client.get(url).json() == before
    assert len(client.get(f"{url}/moves").json()) == 1


def test_wrong_turn_and_outsiders_are_403(client: TestClient, match: dict[str, Any],
                                          bob: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}/moves"
    response = client.post(url, json={"move": "a1-b2", "ply": 0}, headers=bob)
    assert response.status_code == 403 and response.json()["code"] == "not_your_turn"
    carol = make_guest(client, "Carol")
    response = client.post(url, json={"move": "a1-b2", "ply": 0}, headers=carol)
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"


def test_illegal_move_is_422_with_the_engines_reason(client: TestClient, match: dict[str, Any],
                                                     alice: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}/moves"
    response = client.post(url, json={"move": "b1-c2", "ply": 0}, headers=alice)  # b1 is dark
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "illegal_move" and body["message"]
    garbage = client.post(url, json={"move": "hello", "ply": 0}, headers=alice)
    assert garbage.status_code == 422 and garbage.json()["code"] == "illegal_move"


def test_malformed_bodies_are_422_never_500(client: TestClient, match: dict[str, Any],
                                            alice: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}/moves"
    for body in [{}, {"move": "a1-b2"}, {"move": "a1-b2", "ply": "x"}, {"move": 3, "ply": 0},
                 {"move": "a1-b2", "ply": -1}, {"move": "a1-b2", "ply": 0, "x": 1}]:
        response = client.post(url, json=body, headers=alice)
        assert response.status_code == 422, body
        assert response.json()["code"] == "invalid_request"
    raw = client.post(url, content=b"{not json", headers={**alice,
                                                           "Content-Type": "application/json"})
    assert raw.status_code == 422 and raw.json()["code"] == "invalid_request"


def test_unknown_match_is_404(client: TestClient, alice: dict[str, str]) -> None:
    for response in (client.get("/api/v1/matches/nope"),
                     client.post("/api/v1/matches/nope/moves", json={"move": "a1-b2", "ply": 0},
                                 headers=alice),
                     client.get("/api/v1/matches/nope/moves")):
        assert response.status_code == 404 and response.json()["code"] == "no_match"


def test_resigning_gives_the_win_to_the_opponent(client: TestClient, match: dict[str, Any],
                                                 bob: dict[str, str],
                                                 alice: dict[str, str]) -> None:
    response = client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["to_move"] is None
    assert body["result"]["winners"] == [0] and body["result"]["reason"] == "resigned"
    late = client.post(f"/api/v1/matches/{match['id']}/moves", json={"move": "a1-b2", "ply": 0},
                       headers=alice)
    assert late.status_code == 409 and late.json()["code"] == "match_not_active"


@pytest.mark.both_databases
def test_concurrent_submissions_of_one_ply_store_one_move(
        client: TestClient, match: dict[str, Any], alice: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}"
    legal = client.get(url, headers=alice).json()["legal_moves"]
    statuses: list[int] = []

    def submit(move: str) -> None:
        statuses.append(client.post(f"{url}/moves", json={"move": move, "ply": 0},
                                    headers=alice).status_code)

    threads = [threading.Thread(target=submit, args=(m,)) for m in legal[:4]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses).count(200) == 1 and statuses.count(409) == 3
    assert client.get(url).json()["ply"] == 1
    assert len(client.get(f"{url}/moves").json()) == 1


def test_a_whole_random_game_finishes_and_its_record_replays(
        client: TestClient, match: dict[str, Any], alice: dict[str, str],
        bob: dict[str, str]) -> None:
    url = f"/api/v1/matches/{match['id']}"
    players = [alice, bob]
    rng = random.Random(7)
    state = client.get(url, headers=alice).json()
    while state["status"] == "active":
        mover = players[state["to_move"]]
        legal = client.get(url, headers=mover).json()["legal_moves"]
        response = client.post(f"{url}/moves", json={"move": rng.choice(legal),
                                                     "ply": state["ply"]}, headers=mover)
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["status"] == "finished" and len(state["result"]["winners"]) == 1
    record = client.get(f"{url}/moves").json()
    assert [r["ply"] for r in record] == list(range(1, state["ply"] + 1))
    game = registry.get("stairs")
    replay = game.new_state(players=2, options=state["options"])
    for entry in record:
        replay = replay.play(entry["move"])
    assert replay.is_over and list(replay.result.winners) == state["result"]["winners"]
    assert replay.view(None)["board"] == state["view"]["board"]


def test_swap_option_lets_dark_take_over_lights_side(client: TestClient, alice: dict[str, str],
                                                     bob: dict[str, str]) -> None:
    started = start_match(client, alice, bob, options={"swap": True})
    url = f"/api/v1/matches/{started['id']}"
    first = client.get(url, headers=alice).json()["legal_moves"][0]
    client.post(f"{url}/moves", json={"move": first, "ply": 0}, headers=alice)
    assert "swap" in client.get(url, headers=bob).json()["legal_moves"]
    swapped = client.post(f"{url}/moves", json={"move": "swap", "ply": 1}, headers=bob).json()
    assert swapped["to_move"] == 0, "after a swap the first mover plays dark and moves again"


def test_cookie_writes_need_the_csrf_header(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    form = client.post("/play", data={"game": "stairs", "name": "Cookie", "seat": "0",
                                      "csrf": _csrf(page.text)}, follow_redirects=False)
    assert form.status_code == 303
    match_id = form.headers["location"].rsplit("/", 1)[-1]
    response = client.post(f"/api/v1/matches/{match_id}/abort")
    assert response.status_code == 403 and response.json()["code"] == "csrf_failed"
    ok = client.post(f"/api/v1/matches/{match_id}/abort",
                     headers={"X-CSRF-Token": _csrf(page.text)})
    assert ok.status_code == 200


def _csrf(html: str) -> str:
    marker = 'name="csrf-token" content="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]
