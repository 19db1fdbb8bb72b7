"""Chat lines on the NDJSON match stream (`chatLine`), each room only to its readers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.protocol.messages import AccountOfferEvent, ChatLineMessage, YourTurnEvent
from tests.live.helpers import StreamReader, account, guest, live_server


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("chatstream"), STEPWELL_BOTS_ENABLED="false") as url:
        yield url


def test_chat_lines_reach_the_match_stream_of_their_room_only(base: str) -> None:
    alice, bob, dave = guest(base, "Alice"), guest(base, "Bob"), account(base, "dave")
    match_id = httpx.post(f"{base}/api/v1/matches", headers=alice,
                          json={"game": "stairs", "seat": 0}).json()["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    player = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", bob)
    watcher = StreamReader(f"{base}/api/v1/matches/{match_id}/stream")
    try:
        player.next_of("gameFull")
        watcher.next_of("gameFull")
        chat = f"{base}/api/v1/matches/{match_id}/chat"
        assert httpx.post(chat, headers=alice, json={"room": "players", "text": "gl"}
                          ).status_code == 201
        assert httpx.post(chat, headers=dave, json={"room": "spectators", "phrase": "hello"}
                          ).status_code == 201
        heard = watcher.next_of("chatLine")
        assert (heard["room"], heard["phrase"], heard["user"]["name"]) == (
            "spectators", "hello", "dave")
        mine = player.next_of("chatLine")
        ChatLineMessage.model_validate(mine)
        assert (mine["room"], mine["text"]) == ("players", "gl")
        httpx.post(chat, headers=alice, json={"room": "players", "text": "again"})
        assert player.next_of("chatLine")["text"] == "again"
    finally:
        player.close()
        watcher.close()


def test_the_account_stream_says_your_turn_once_per_ply_and_offers_to_you(base: str) -> None:
    alice, bob = account(base, "alice17"), account(base, "bob17")
    match_id = httpx.post(f"{base}/api/v1/matches", headers=alice, json={
        "game": "stairs", "seat": 0, "time_control": {"kind": "correspondence", "days": 3}}
                          ).json()["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    events = StreamReader(f"{base}/api/v1/stream/event", bob)
    try:
        assert events.next_of("gameStart")["game"]["id"] == match_id
        state = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=alice).json()
        httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=alice,
                   json={"move": state["legal_moves"][0], "ply": 0})
        turn = events.next_of("yourTurn")
        assert turn["game"]["id"] == match_id and turn["game"]["ply"] == 1
        assert turn["game"]["opponents"] == ["alice17"] and turn["game"]["url"] == f"/m/{match_id}"
        assert turn["game"]["time_control"]["kind"] == "correspondence"
        YourTurnEvent.model_validate(turn)
        httpx.post(f"{base}/api/v1/matches/{match_id}/offers/takeback", headers=alice)
        offer = events.next_of("offer")
        assert (offer["kind"], offer["game"]["id"]) == ("takeback", match_id)
        AccountOfferEvent.model_validate(offer)
        mine = httpx.get(f"{base}/api/v1/me/games", headers=bob).json()
        assert [(g["id"], g["your_turn"]) for g in mine] == [(match_id, True)]
    finally:
        events.close()
