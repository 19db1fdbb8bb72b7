"""``POST /api/v1/matches/{id}/preview``: who may ask (the seat to move only, with the `play`
scope), a refused move's reason (the move endpoint's), the caller's language, the cache (never a
preview of another position), and Town previews that do not depend on the hidden cards."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from app.match import PreviewOut
from games import registry
from tests.conftest import make_guest, start_match
from tests.games.previews import check_items
from tests.http.test_gate import _account, _token


def _preview(client: TestClient, match_id: str, headers: dict[str, str], move: str,
             **body: Any) -> Any:
    return client.post(f"/api/v1/matches/{match_id}/preview", json={"move": move, **body},
                       headers=headers)


def test_the_seat_to_move_previews_a_move_without_playing_it(
        client: TestClient, match: dict[str, Any], alice: dict[str, str]) -> None:
    answer = _preview(client, match["id"], alice, "A1 B2")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    PreviewOut.model_validate(body)  # the documented answer (encoded once, not re-validated)
    assert (body["ply"], body["move"]) == (0, "a1-b2")
    assert set(body) == {"ply", "move", "view", "changes"}
    check_items(registry.get("stairs"), body["changes"])
    assert [c["kind"] for c in body["changes"]][:2] == ["lands", "uncovers"]
    assert body["changes"][0] == {
        "kind": "lands", "targets": ["a1", "b2"],
        "message": "the light piece climbs from a1 onto b2, to height 2, covering a light piece",
        "params": {"from": "a1", "to": "b2", "colour": "light", "height": 2, "covers": "light",
                   "movable": False}}
    now = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()
    assert (now["ply"], now["version"]) == (0, match["version"])  # nothing was played
    played = client.post(f"/api/v1/matches/{match['id']}/moves", json={"move": "a1-b2", "ply": 0},
                         headers=alice)
    after = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()
    assert played.status_code == 200 and body["view"] == after["view"]


def test_only_the_seat_to_move_may_preview(client: TestClient, match: dict[str, Any],
                                           alice: dict[str, str], bob: dict[str, str]) -> None:
    match_id = match["id"]
    waiting = _preview(client, match_id, bob, "b1-c2")
    assert waiting.status_code == 403 and waiting.json()["code"] == "not_your_turn"
    spectator = _preview(client, match_id, make_guest(client, "Carol"), "a1-b2")
    assert spectator.status_code == 403 and spectator.json()["code"] == "not_a_player"
    anonymous = client.post(f"/api/v1/matches/{match_id}/preview", json={"move": "a1-b2"})
    assert anonymous.status_code == 401
    nobody = _preview(client, "nosuchid", alice, "a1-b2")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_match"
    assert _preview(client, match_id, alice, "").status_code == 422


def test_previewing_needs_the_play_scope(client: TestClient) -> None:
    dana, eve = _account(client, "dana"), make_guest(client, "Eve")
    match = start_match(client, dana, eve, seat=0)
    reader = _preview(client, match["id"], _token(client, dana, ["read"]), "a1-b2")
    assert reader.status_code == 403 and reader.json()["code"] == "missing_scope"
    player = _preview(client, match["id"], _token(client, dana, ["play"]), "a1-b2")
    assert player.status_code == 200, player.text


def test_a_refused_move_gets_the_move_endpoints_reason(
        client: TestClient, match: dict[str, Any], alice: dict[str, str]) -> None:
    for text in ("b1-c2", "a1-c3", "pass", "zz", "a1"):
        previewed = _preview(client, match["id"], alice, text, ply=0)
        played = client.post(f"/api/v1/matches/{match['id']}/moves",
                             json={"move": text, "ply": 0}, headers=alice)
        assert previewed.status_code == played.status_code == 422, (text, previewed.text)
        assert previewed.json() == played.json()
        assert previewed.json()["code"] == "illegal_move"
    stale = _preview(client, match["id"], alice, "a1-b2", ply=3)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_ply"


def test_messages_come_in_the_callers_language(
        client: TestClient, match: dict[str, Any], alice: dict[str, str]) -> None:
    japanese = _preview(client, match["id"], {**alice, "Accept-Language": "ja"}, "a1-b2").json()
    english = _preview(client, match["id"], alice, "a1-b2").json()
    assert japanese["changes"][0]["message"] == \
        "白のコマが a1 から b2 に上がって高さ 2 になり、白のコマを覆います"
    standing = next(c for c in japanese["changes"] if c["kind"] == "standing")
    assert standing["message"] == "最高の高さ 2（白 1、黒 0）：白がリードを保ちます（最も高い駒）"
    assert [c["params"] for c in japanese["changes"]] == [c["params"] for c in english["changes"]]


def test_a_preview_is_cached_per_position_and_never_shown_for_another(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    """The same question asked twice is answered from the cache; after a takeback the same ply
    holds another position, and its preview is that position's."""
    match = start_match(client, alice, bob, seat=0)
    match_id = match["id"]
    cache = client.app.state.preview_cache  # type: ignore[attr-defined]
    first = _preview(client, match_id, alice, "a1-b2").json()
    held = len(cache)
    assert _preview(client, match_id, alice, "A1B2").json() == first
    assert len(cache) == held
    reply = "a6-b5"
    _play(client, match_id, alice, "a1-b2", 0)
    earlier = _preview(client, match_id, bob, reply).json()
    client.post(f"/api/v1/matches/{match_id}/offers/takeback", headers=alice)
    client.post(f"/api/v1/matches/{match_id}/offers/takeback/accept", headers=bob)
    _play(client, match_id, alice, "c1-d2", 0)
    later = _preview(client, match_id, bob, reply).json()
    assert earlier["ply"] == later["ply"] == 1
    assert later["view"] != earlier["view"]
    _play(client, match_id, bob, reply, 1)
    assert client.get(f"/api/v1/matches/{match_id}", headers=bob).json()["view"] == later["view"]


def _play(client: TestClient, match_id: str, headers: dict[str, str], move: str,
          ply: int) -> None:
    played = client.post(f"/api/v1/matches/{match_id}/moves", json={"move": move, "ply": ply},
                         headers=headers)
    assert played.status_code == 200, played.text


def test_a_finished_match_previews_nothing(client: TestClient, match: dict[str, Any],
                                           alice: dict[str, str]) -> None:
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=alice)
    over = _preview(client, match["id"], alice, "a1-b2")
    assert over.status_code == 409 and over.json()["code"] == "match_not_active"


def _deal(rng: random.Random, path: list[str], event: list[str], starts: list[int]
          ) -> dict[str, Any]:
    """A fixed deal whose offer cards are ``path[0]`` and ``event[0]``, the rest shuffled."""
    rest_path, rest_event = path[1:], event[1:]
    rng.shuffle(rest_path)
    rng.shuffle(rest_event)
    return {"path_deck": [path[0], *rest_path], "event_deck": [event[0], *rest_event],
            "start_cards": starts}


def test_town_previews_are_the_same_whatever_the_hidden_cards(client: TestClient) -> None:
    """Two deals that agree on all the first builder sees (the offer, its own start card) and
    differ in both deck orders and the other seat's start card: every legal first move
    previews alike."""
    rng = random.Random(5)
    path, event = [f"P{i}" for i in range(1, 15)], [f"E{i}" for i in range(1, 15)]
    rng.shuffle(path)
    rng.shuffle(event)
    ann, ben = make_guest(client, "Ann"), make_guest(client, "Ben")
    matches = [start_match(client, ann, ben, game="town", seat=0,
                           options=_deal(rng, path, event, [3, other])) for other in (5, 6)]
    legal = client.get(f"/api/v1/matches/{matches[0]['id']}", headers=ann).json()["legal_moves"]
    assert legal
    for move in legal:
        first, second = (_preview(client, m["id"], ann, move).json() for m in matches)
        assert first == second, move
        assert None in first["view"]["offer"] or not first["view"]["deck_sizes"]["path"]
