"""Match lifecycle: abort, draw and end offers, takebacks, rematches, claiming a win when the
opponent left, and a multi-player game going on after a player resigns."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from app.kernel import timesource
from app.kernel.timesource import FakeClock
from tests.conftest import make_guest, start_match
from tests.lobby.test_lobby import make_account


def _move(client: TestClient, match_id: str, player: dict[str, str], pick: int = 0) -> dict[str, Any]:
    state = client.get(f"/api/v1/matches/{match_id}", headers=player).json()
    response = client.post(f"/api/v1/matches/{match_id}/moves",
                           json={"move": state["legal_moves"][pick], "ply": state["ply"]},
                           headers=player)
    assert response.status_code == 200, response.text
    return response.json()


def test_abort_only_before_everyone_moved(client: TestClient, alice: dict[str, str],
                                          bob: dict[str, str]) -> None:
    first = start_match(client, alice, bob, seat=0)
    _move(client, first["id"], alice)
    aborted = client.post(f"/api/v1/matches/{first['id']}/abort", headers=bob).json()
    assert aborted["status"] == "aborted" and aborted["result"] is None
    second = start_match(client, alice, bob, seat=0)
    _move(client, second["id"], alice)
    _move(client, second["id"], bob)
    refused = client.post(f"/api/v1/matches/{second['id']}/abort", headers=alice)
    assert refused.status_code == 409 and refused.json()["code"] == "cannot_abort"


def test_draw_offer_in_scalas_accepted(client: TestClient, alice: dict[str, str],
                                       bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, game="scalas", seat=0)
    offered = client.post(f"/api/v1/matches/{match['id']}/offers/draw", headers=alice).json()
    assert offered["offers"] == {"draw": [0]} and offered["status"] == "active"
    own = client.post(f"/api/v1/matches/{match['id']}/offers/draw/accept", headers=alice)
    assert own.status_code == 409 and own.json()["code"] == "no_offer"
    accepted = client.post(f"/api/v1/matches/{match['id']}/offers/draw/accept", headers=bob).json()
    assert accepted["status"] == "finished" and accepted["result"]["winners"] == []
    assert accepted["result"]["ranking"] == [[0, 1]] and accepted["result"]["reason"] == "draw_agreed"


def test_games_without_draws_refuse_draw_offers(client: TestClient, match: dict[str, Any],
                                                alice: dict[str, str]) -> None:
    response = client.post(f"/api/v1/matches/{match['id']}/offers/draw", headers=alice)
    assert response.status_code == 409 and response.json()["code"] == "offer_not_allowed"


def test_agreed_end_scores_the_stairs_position(client: TestClient, alice: dict[str, str],
                                               bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, seat=0)
    _move(client, match["id"], alice)  # light now has the only piece at height 2
    client.post(f"/api/v1/matches/{match['id']}/offers/end", headers=bob)
    ended = client.post(f"/api/v1/matches/{match['id']}/offers/end/accept", headers=alice).json()
    assert ended["status"] == "finished" and ended["result"]["winners"] == [0]
    assert ended["result"]["reason"] == "agreed_end"


def test_declined_offers_vanish_and_moves_clear_offers(client: TestClient, alice: dict[str, str],
                                                       bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, seat=0)
    client.post(f"/api/v1/matches/{match['id']}/offers/end", headers=alice)
    declined = client.post(f"/api/v1/matches/{match['id']}/offers/end/decline", headers=bob).json()
    assert declined["offers"] == {}
    client.post(f"/api/v1/matches/{match['id']}/offers/end", headers=bob)
    assert _move(client, match["id"], alice)["offers"] == {}


def test_takeback_undoes_the_requesters_last_move(client: TestClient, alice: dict[str, str],
                                                  bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, seat=0)
    before = client.get(f"/api/v1/matches/{match['id']}").json()["view"]
    _move(client, match["id"], alice)
    client.post(f"/api/v1/matches/{match['id']}/offers/takeback", headers=alice)
    undone = client.post(f"/api/v1/matches/{match['id']}/offers/takeback/accept", headers=bob).json()
    assert undone["ply"] == 0 and undone["view"]["board"] == before["board"]
    assert client.get(f"/api/v1/matches/{match['id']}/moves").json() == []
    _move(client, match["id"], alice, pick=1)  # play goes on from the earlier position
    _move(client, match["id"], bob)
    client.post(f"/api/v1/matches/{match['id']}/offers/takeback", headers=alice)
    twice = client.post(f"/api/v1/matches/{match['id']}/offers/takeback/accept", headers=bob).json()
    assert twice["ply"] == 0, "taking back light's move also removes dark's reply"


def test_no_takebacks_in_rated_or_hidden_information_games(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "rated": True, "seat": 0},
                       headers=aiko).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=ben).json()["match_id"]
    _move(client, match_id, aiko)
    rated = client.post(f"/api/v1/matches/{match_id}/offers/takeback", headers=aiko)
    assert rated.status_code == 409 and "casual" in rated.json()["message"]
    town = start_match(client, aiko, ben, game="town", seat=0)
    _move(client, town["id"], aiko)
    hidden = client.post(f"/api/v1/matches/{town['id']}/offers/takeback", headers=aiko)
    assert hidden.status_code == 409


def test_rematch_swaps_the_seats(client: TestClient, alice: dict[str, str],
                                 bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob, seat=0)
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob)
    client.post(f"/api/v1/matches/{match['id']}/offers/rematch", headers=bob)
    done = client.post(f"/api/v1/matches/{match['id']}/offers/rematch/accept", headers=alice).json()
    rematch_id = done["offers"]["rematch_match"]
    rematch = client.get(f"/api/v1/matches/{rematch_id}", headers=alice).json()
    assert rematch["status"] == "active" and rematch["your_seat"] == 1
    assert rematch["rematch_of"] == match["id"]
    assert [s["user"]["name"] for s in rematch["seats"]] == ["Bob", "Alice"]


def test_a_rematch_waits_for_the_player_who_resigned(client: TestClient, alice: dict[str, str],
                                                     bob: dict[str, str]) -> None:
    """Every seated player agrees to a rematch, the one who resigned included: the winner's offer
    alone starts nothing, and the resigner's accept then starts it."""
    match = start_match(client, alice, bob, seat=0)
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    offered = client.post(f"/api/v1/matches/{match['id']}/offers/rematch", headers=alice).json()
    assert offered["offers"] == {"rematch": [0]}
    accepted = client.post(f"/api/v1/matches/{match['id']}/offers/rematch/accept", headers=bob)
    assert accepted.status_code == 200, accepted.text
    rematch = client.get(f"/api/v1/matches/{accepted.json()['offers']['rematch_match']}",
                         headers=bob).json()
    assert [s["user"]["name"] for s in rematch["seats"]] == ["Bob", "Alice"]


def test_a_town_rematch_needs_every_seat(client: TestClient) -> None:
    people = [make_guest(client, f"P{i}") for i in range(3)]
    match = client.post("/api/v1/matches", json={"game": "town", "players": 3, "seat": 0},
                        headers=people[0]).json()
    for person in people[1:]:
        client.post(f"/api/v1/matches/{match['id']}/join", headers=person).raise_for_status()
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=people[1]).raise_for_status()
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=people[2]).raise_for_status()
    for person in people[:2]:
        pending = client.post(f"/api/v1/matches/{match['id']}/offers/rematch", headers=person).json()
        assert "rematch_match" not in pending["offers"]
    done = client.post(f"/api/v1/matches/{match['id']}/offers/rematch/accept", headers=people[2])
    assert done.status_code == 200 and done.json()["offers"]["rematch_match"]


def test_a_built_in_bot_agrees_to_a_rematch(client: TestClient) -> None:
    light = make_guest(client, "Light")
    match = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0, "bot": "easy"},
                        headers=light).json()
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=light).raise_for_status()
    done = client.post(f"/api/v1/matches/{match['id']}/offers/rematch", headers=light).json()
    rematch = client.get(f"/api/v1/matches/{done['offers']['rematch_match']}", headers=light).json()
    assert rematch["your_seat"] == 1 and rematch["seats"][0]["user"]["kind"] == "bot"


CLAIM_AFTER = 10.0
"""The claim delay these tests set, well under the 60 s first-move limit."""


def _wait_until_gone(client: TestClient, match_id: str) -> None:
    """Until the server has seen the socket close: advancing the fake clock before that would
    count the absence from a later moment (a race seen on a loaded CI machine)."""
    deadline = time.monotonic() + 10
    while client.app.state.presence.match_presence(match_id)["online_seats"]:
        assert time.monotonic() < deadline, "the server never noticed the socket closing"
        time.sleep(0.01)


def test_claim_victory_after_the_opponent_left(client: TestClient) -> None:
    clock = FakeClock()
    # The whole scenario fits inside the 60 s first-move limit (nobody moves here): past it the
    # app's own clock keeper may abort the match at any moment, a race CI lost twice.
    client.app.state.settings.claim_after_seconds = CLAIM_AFTER
    with timesource.use(clock):
        client.app.state.presence._started_at = clock()
        light, dark = make_guest(client, "Light"), make_guest(client, "Dark")
        match = client.post("/api/v1/matches", json={
            "game": "stairs", "seat": 0, "time_control": {"kind": "realtime", "minutes": 10}},
            headers=light).json()
        client.post(f"/api/v1/matches/{match['id']}/join", headers=dark)
        token = dark["Authorization"].split()[1]
        with client.websocket_connect(f"/api/v1/matches/{match['id']}/ws?token={token}") as ws:
            ws.receive_json()
            clock.advance(2 * CLAIM_AFTER)
            present = client.post(f"/api/v1/matches/{match['id']}/claim-victory", headers=light)
            assert present.status_code == 409 and present.json()["code"] == "cannot_claim"
        _wait_until_gone(client, match["id"])  # the server notes the close on its own loop
        clock.advance(CLAIM_AFTER / 2)
        early = client.post(f"/api/v1/matches/{match['id']}/claim-victory", headers=light)
        assert early.status_code == 409
        clock.advance(CLAIM_AFTER / 2 + 1)
        won = client.post(f"/api/v1/matches/{match['id']}/claim-victory", headers=light).json()
    assert won.get("status") == "finished", won
    assert won["result"]["winners"] == [0]
    assert won["result"]["reason"] == "opponent_left"


def test_a_town_player_who_resigns_is_last_and_the_others_finish(client: TestClient) -> None:
    people = [make_guest(client, f"P{i}") for i in range(3)]
    match = client.post("/api/v1/matches", json={"game": "town", "players": 3, "seat": 0},
                        headers=people[0]).json()
    for person in people[1:]:
        client.post(f"/api/v1/matches/{match['id']}/join", headers=person)
    seats = {client.get(f"/api/v1/matches/{match['id']}", headers=p).json()["your_seat"]: p
             for p in people}
    resigned = client.post(f"/api/v1/matches/{match['id']}/resign", headers=seats[1]).json()
    assert resigned["status"] == "active" and resigned["eliminated"] == [1]
    rng = random.Random(5)
    state = resigned
    while state["status"] == "active":
        assert state["to_move"] != 1, "the resigned seat's turns are played for it"
        mover = seats[state["to_move"]]
        mine = client.get(f"/api/v1/matches/{match['id']}", headers=mover).json()
        state = client.post(f"/api/v1/matches/{match['id']}/moves",
                            json={"move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]},
                            headers=mover).json()
    assert state["result"]["ranking"][-1] == [1]
    assert 1 not in state["result"]["winners"]
    moves = client.get(f"/api/v1/matches/{match['id']}/moves").json()
    assert any(m["seat"] == 1 for m in moves), "seat 1 still placed cards, automatically"


def test_a_built_in_bot_never_counts_as_gone(client: TestClient) -> None:
    """The built-in bots are the server itself: no socket, yet always there to move."""
    clock = FakeClock()
    with timesource.use(clock):
        client.app.state.presence._started_at = clock()
        light = make_guest(client, "Light")
        match = client.post("/api/v1/matches", json={
            "game": "stairs", "seat": 1, "bot": "easy",
            "time_control": {"kind": "realtime", "minutes": 10}}, headers=light).json()
        assert match["status"] == "active"
        # Past the claim delay, inside the first-move limit (the bot's first move is not played
        # here): later, the clock keeper may abort the match first, a different refusal.
        client.app.state.settings.claim_after_seconds = CLAIM_AFTER
        clock.advance(2 * CLAIM_AFTER)
        claim = client.post(f"/api/v1/matches/{match['id']}/claim-victory", headers=light)
    assert claim.status_code == 409 and claim.json()["code"] == "cannot_claim"
