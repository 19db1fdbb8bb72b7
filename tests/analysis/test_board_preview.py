"""``POST /api/v1/analysis/board/preview``: the analysis board's move preview — the view the
board shows once the move is played (asked of ``/analysis/board`` itself), the move's changes in
the caller's language, from a move list or a signed state, and refused moves with the reason the
match's move endpoint gives."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from games import registry
from tests.games.previews import check_items

BOARD = "/api/v1/analysis/board"
PREVIEW = "/api/v1/analysis/board/preview"


@pytest.mark.parametrize(("game", "players"), [("stairs", 2), ("sight", 2), ("scalas", 2),
                                               ("town", 2), ("town", 4)])
def test_the_boards_preview_is_the_board_after_the_move(shared_client: TestClient, game: str,
                                                        players: int) -> None:
    client = shared_client
    rng = random.Random(game)
    position = {"game": game, "players": players, "seed": 9}
    moves: list[str] = []
    for _ in range(16):
        board = client.post(BOARD, json={**position, "moves": moves}).json()
        if board["status"] != "active":
            break
        move = rng.choice(board["legal_moves"])
        answer = client.post(PREVIEW, json={**position, "moves": moves, "move": move})
        assert answer.status_code == 200, answer.text
        preview = answer.json()
        assert (preview["ply"], preview["move"]) == (board["ply"], move)
        check_items(registry.get(game), preview["changes"])
        after = client.post(BOARD, json={**position, "moves": moves, "move": move}).json()
        assert preview["view"] == after["view"]
        signed = client.post(PREVIEW, json={"state": board["state"], "move": move}).json()
        assert signed == preview
        moves = after["moves"]


def test_a_refused_move_is_the_move_endpoints_reason_and_the_language_is_yours(
        shared_client: TestClient) -> None:
    client = shared_client
    refused = client.post(PREVIEW, json={"game": "stairs", "move": "b1-c2"})
    assert refused.status_code == 422
    assert refused.json()["code"] == "illegal_move"
    assert refused.json()["reason"] == {"code": "not_your_piece", "params": {"square": "b1"}}
    missing = client.post(PREVIEW, json={"game": "stairs"})
    assert missing.status_code == 422 and missing.json()["code"] == "invalid_request"
    japanese = client.post(PREVIEW, json={"game": "sight", "move": "c3"},
                           headers={"Accept-Language": "ja"}).json()
    assert japanese["changes"][0] == {"kind": "place", "targets": ["c3"],
                                      "message": "c3 に白のコマを置きます",
                                      "params": {"point": "c3", "colour": "light"}}
