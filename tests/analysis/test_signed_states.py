"""Signed analysis-board states (the board takes the move list, or a state it signed): every
board answer carries one; sent back with a move it gives the engine's position without replaying
the line; altered, foreign, expired or foreign-game tokens are refused with a JSON error; and a
token never carries what its holder may not see (a live match's seed, a live Town deal)."""

from __future__ import annotations

import base64
import random
import zlib
from datetime import datetime
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.analysis import board, signed
from app.db.models import Match
from app.kernel.timesource import FakeClock, use
from games import registry
from tests.analysis.games import stairs_game_with_passes
from tests.conftest import make_guest, start_match

BOARD = "/api/v1/analysis/board"


def payload_of(token: str) -> dict[str, Any]:
    """What anyone holding the token can read (it is signed, not encrypted)."""
    body = token.split(".")[0]
    return dict(orjson.loads(zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))))


def post(client: TestClient, **body: Any) -> Any:
    return client.post(BOARD, json=body)


@pytest.mark.parametrize(("game", "players"), [("stairs", 2), ("sight", 2), ("scalas", 2),
                                               ("town", 2), ("town", 3), ("town", 4)])
def test_a_signed_state_plays_on_like_the_move_list(shared_client: TestClient, game: str,
                                                    players: int) -> None:
    """Random legal games to their end, one move a request from the last answer's token: each
    answer is the one the full move list gives, and the engine's own state after those moves
    (legal moves, view, result)."""
    rng = random.Random(f"signed-{game}-{players}")
    state, applied = registry.get(game).new_state(players, {}, 11), 0
    answer = post(shared_client, game=game, players=players, seed=11).json()
    for _ in range(400):
        if answer["status"] == "finished":
            break
        move = rng.choice(answer["legal_moves"])
        stepped = post(shared_client, game=game, state=answer["state"], move=move)
        assert stepped.status_code == 200, stepped.text
        listed = post(shared_client, game=game, players=players, seed=11,
                      moves=answer["moves"], move=move).json()
        answer = stepped.json()
        assert {k: v for k, v in answer.items() if k != "state"} == \
               {k: v for k, v in listed.items() if k != "state"}
        for played in answer["moves"][applied:]:
            state = state.play(played)
        applied = len(answer["moves"])
        assert answer["legal_moves"] == ([] if state.is_over else state.legal_moves())
        hidden = registry.get(game).hidden_information
        assert answer["view"] == state.view(state.to_move if hidden else None)
        assert answer["to_move"] == (None if state.is_over else state.to_move)
    assert state.is_over and answer["status"] == "finished"
    assert state.result is not None and answer["result"] == state.result.to_json()


def test_a_long_line_is_not_replayed_when_its_state_is_given(
        shared_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    line = stairs_game_with_passes()[:40]
    answer = post(shared_client, game="stairs", moves=line).json()
    assert len(answer["moves"]) >= 40
    calls = {"replay": 0, "start": 0}
    real_replay, real_start = board.replay, board.Start.state

    def counting_replay(*args: Any) -> Any:
        calls["replay"] += 1
        return real_replay(*args)

    def counting_start(self: board.Start) -> Any:
        calls["start"] += 1
        return real_start(self)

    monkeypatch.setattr(board, "replay", counting_replay)
    monkeypatch.setattr(board.Start, "state", counting_start)
    move = answer["legal_moves"][0]
    stepped = post(shared_client, game="stairs", state=answer["state"], move=move)
    assert stepped.status_code == 200, stepped.text
    assert stepped.json()["moves"][:len(answer["moves"])] == answer["moves"]
    assert calls == {"replay": 0, "start": 0}
    hint = shared_client.post("/api/v1/analysis/hint", json={"state": stepped.json()["state"]})
    assert hint.status_code == 200 and hint.json()["move"] in stepped.json()["legal_moves"]
    assert calls == {"replay": 0, "start": 0}
    post(shared_client, game="stairs", moves=[*answer["moves"], move])  # the list way replays
    assert calls == {"replay": 1, "start": 1}


def _refusal(answer: Any, code: str) -> None:
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"]


def test_altered_and_foreign_tokens_are_refused(shared_client: TestClient) -> None:
    token = post(shared_client, game="stairs", moves=["b6-a5"]).json()["state"]
    body, mac = token.split(".")
    other = payload_of(token) | {"mv": ["c6-d5"]}
    forged_body = base64.urlsafe_b64encode(zlib.compress(orjson.dumps(other))).rstrip(b"=").decode()
    foreign_key = signed.key_from("another-server's-secret")
    start, state, line = board.Start("stairs", 2, {}, 0), registry.get("stairs").new_state(2, {}, 0), \
        board.Line()
    for bad in (f"{forged_body}.{mac}",                       # the moves changed, old signature
                f"{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{mac}",
                f"{body}.{mac[::-1]}", body, "not-a-token", "ü.ü", f"{body}.{mac}é",
                signed.sign(foreign_key, start, state, line)):  # another server's secret
        _refusal(post(shared_client, state=bad, move="c6-d5"), "invalid_state")
    wrong_game = post(shared_client, game="town", state=token)
    _refusal(wrong_game, "state_wrong_game")
    both = post(shared_client, state=token, moves=["b6-a5"])
    _refusal(both, "invalid_request")


def test_an_expired_token_is_refused(shared_client: TestClient) -> None:
    clock = FakeClock(datetime(2026, 11, 1, 12, 0, 0))
    with use(clock):
        token = post(shared_client, game="sight").json()["state"]
        clock.advance(6 * 86400)
        assert post(shared_client, state=token).status_code == 200
        clock.advance(2 * 86400)
        _refusal(post(shared_client, state=token), "state_expired")


def test_a_token_never_carries_what_its_holder_may_not_see(shared_client: TestClient) -> None:
    client = shared_client
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    town = start_match(client, alice, bob, "town")
    refused = post(client, match=town["id"])  # a live deal: no position, no token
    assert refused.status_code == 403 and "state" not in refused.json()
    stairs = start_match(client, alice, bob)
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        seed = session.get(Match, stairs["id"]).seed
    live = payload_of(post(client, match=stairs["id"], moves=["b6-a5"]).json()["state"])
    assert live["s"] is None and live["mv"] == ["b6-a5"]  # the live match's seed stays home
    assert str(seed) not in orjson.dumps(live).decode()
    client.post(f"/api/v1/matches/{town['id']}/resign", headers=bob)
    finished = post(client, match=town["id"]).json()
    assert payload_of(finished["state"])["s"] is not None  # over: the whole record is public
    with pytest.raises(AssertionError):  # and nothing else may make one for a live Town deal
        signed.sign(b"k", board.Start("town", 2, {}, 1, disclosed=False),
                    registry.get("town").new_state(2, {}, 1), board.Line())


def test_the_last_move_names_its_mover(shared_client: TestClient) -> None:
    first = post(shared_client, game="stairs", move="b6-a5").json()
    assert first["last_move"] == {"ply": 1, "move": "b6-a5", "seat": 0}
    second = post(shared_client, game="stairs", state=first["state"], move="c6-d5").json()
    assert second["last_move"] == {"ply": 2, "move": "c6-d5", "seat": 1}
