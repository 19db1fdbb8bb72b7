"""Seeds are 128-bit numbers: every door that shows or takes one writes it as a decimal string
(a JSON number loses digits past 2**53 in most clients), and an old game record — a 31-bit seed
under an older rules version — still opens on the board with the deal it was played with."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from app.db.models import Match
from app.match.game_records import parse_text
from games import registry
from tests.conftest import make_guest

BOARD = "/api/v1/analysis/board"
TOWN = registry.get("town")
BIG = 2**128 - 12345


def _finished_town(client: TestClient, app: Any) -> tuple[str, int]:
    """A two-player Town match played to its end through the API; (id, its stored seed)."""
    players = [make_guest(client, name) for name in ("Ann", "Ben")]
    match = client.post("/api/v1/matches", json={"game": "town"}, headers=players[0]).json()
    match = client.post(f"/api/v1/matches/{match['id']}/join", headers=players[1]).json()
    rng = random.Random(3)
    seats = {client.get(f"/api/v1/matches/{match['id']}", headers=p).json()["your_seat"]: p
             for p in players}
    while match["status"] == "active":
        mover = seats[match["to_move"]]
        mine = client.get(f"/api/v1/matches/{match['id']}", headers=mover).json()
        match = client.post(f"/api/v1/matches/{match['id']}/moves", headers=mover, json={
            "move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]}).json()
    with app.state.session_factory() as session:
        seed = session.get(Match, match["id"]).seed  # type: ignore[union-attr]
    return match["id"], seed


def test_a_finished_matchs_seed_is_a_decimal_string_everywhere(shared_client: TestClient) -> None:
    client = shared_client
    match_id, seed = _finished_town(client, client.app)
    assert seed.bit_length() > 64  # a JSON number would have lost it
    record = client.get(f"/api/v1/matches/{match_id}/export").json()
    assert record["seed"] == str(seed)
    text = client.get(f"/api/v1/matches/{match_id}/export", params={"format": "text"}).text
    assert parse_text(text).seed == seed and f'[Seed "{seed}"]' in text
    imported = client.post("/api/v1/analysis/import", json={"text": text}).json()
    assert imported["seed"] == str(seed) and imported["rules_version"] == 3
    opened = client.post(BOARD, json={"game": "town", "seed": imported["seed"],
                                      "moves": imported["moves"]})
    assert opened.status_code == 200, opened.text
    assert opened.json()["status"] == "finished"
    again = client.post(BOARD, json={"state": opened.json()["state"]})  # the signed token
    assert again.status_code == 200 and again.json()["view"] == opened.json()["view"]
    from_match = client.post(BOARD, json={"match": match_id, "moves": imported["moves"]})
    assert from_match.status_code == 200 and from_match.json()["view"] == opened.json()["view"]


def test_the_board_deals_a_big_seed_exactly_and_refuses_what_is_not_a_seed(
        shared_client: TestClient) -> None:
    client = shared_client
    shown = client.post(BOARD, json={"game": "town", "seed": str(BIG)})
    assert shown.status_code == 200, shown.text
    assert shown.json()["view"] == TOWN.new_state(2, seed=BIG).view(0)
    small = client.post(BOARD, json={"game": "town", "seed": 77}).json()  # integers still work
    assert small["view"] == TOWN.new_state(2, seed=77).view(0)
    for bad in ("-1", "12a", "1" * 79, str(2**256), 2**53 + 1, -1, 1.5, True):
        refused = client.post(BOARD, json={"game": "town", "seed": bad})
        assert refused.status_code == 422, (bad, refused.text)
        assert set(refused.json()) >= {"code", "message"}


def test_an_old_version_record_opens_on_the_board_with_its_old_deal(
        shared_client: TestClient) -> None:
    """A record exported before rules version 3 (a 31-bit seed, ``Rules 2``) imports and replays,
    and the board, told its rules version, deals what version 2 dealt."""
    client = shared_client
    seed, rng = 1_234_567_890, random.Random(8)
    state = TOWN.replay_start(2, 2, None, seed)
    moves = []
    for _ in range(10):
        moves.append(rng.choice(state.legal_moves()))
        state = state.play(moves[-1])
    text = "\n".join([
        '[Format "stepwell-record 1"]', '[Game "town"]', '[Seats "2"]', '[Options "{}"]',
        '[Rules "2"]', f'[Seed "{seed}"]', "",
        " ".join(f"{ply}. {move}" for ply, move in enumerate(moves, start=1))])
    imported = client.post("/api/v1/analysis/import", json={"text": text})
    assert imported.status_code == 200, imported.text
    assert imported.json()["seed"] == str(seed) and imported.json()["rules_version"] == 2
    opened = client.post(BOARD, json={"game": "town", "seed": str(seed), "rules_version": 2,
                                      "moves": moves})
    assert opened.status_code == 200, opened.text
    assert opened.json()["view"] == state.view(state.to_move)
    bad_seed = client.post("/api/v1/analysis/import",
                           json={"text": text.replace(str(seed), "12x")})
    assert bad_seed.status_code == 422 and bad_seed.json()["code"] == "invalid_record"
