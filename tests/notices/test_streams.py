"""NDJSON streams against a live server: the account event stream and one match's stream."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.live.helpers import StreamReader, account, guest, live_server
from tests.live.server import wait_for


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("streams"), STEPWELL_BOTS_ENABLED="false") as url:
        yield url


def _me(base: str, headers: dict[str, str]) -> dict[str, object]:
    return httpx.get(f"{base}/api/v1/me", headers=headers).json()  # type: ignore[no-any-return]


def test_event_stream_needs_a_caller(base: str) -> None:
    response = httpx.get(f"{base}/api/v1/stream/event")
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"


def test_challenge_start_and_finish_reach_the_event_stream(base: str) -> None:
    alice, bob = account(base, "alice1"), account(base, "bob1")
    events = StreamReader(f"{base}/api/v1/stream/event", bob)
    try:
        assert events.status == 200 and events.content_type.startswith("application/x-ndjson")
        assert events.content_encoding is None  # httpx accepts gzip; a live stream is never held in it
        challenge = httpx.post(f"{base}/api/v1/challenges", headers=alice,
                               json={"user": "bob1", "game": "stairs"}).json()
        got = events.next_of("challenge")
        assert got["challenge"]["id"] == challenge["id"]
        assert got["challenge"]["creator"]["name"] == "alice1"
        accepted = httpx.post(f"{base}/api/v1/challenges/{challenge['id']}/accept",
                              headers=bob).json()
        start = events.next_of("gameStart")
        assert start["game"]["id"] == accepted["match_id"] and start["game"]["your_seat"] in (0, 1)
        assert "view" not in start["game"]
        httpx.post(f"{base}/api/v1/matches/{accepted['match_id']}/resign", headers=alice)
        finish = events.next_of("gameFinish")
        assert finish["game"]["id"] == accepted["match_id"]
        assert finish["game"]["result"]["winners"] == [start["game"]["your_seat"]]
    finally:
        events.close()


def test_declined_challenge_reaches_the_challenger(base: str) -> None:
    alice, bob = account(base, "alice2"), account(base, "bob2")
    events = StreamReader(f"{base}/api/v1/stream/event", alice)
    try:
        challenge = httpx.post(f"{base}/api/v1/challenges", headers=alice,
                               json={"user": "bob2", "game": "sight"}).json()
        httpx.post(f"{base}/api/v1/challenges/{challenge['id']}/decline", headers=bob)
        declined = events.next_of("challengeDeclined")
        assert declined["challenge"]["id"] == challenge["id"]
        assert declined["challenge"]["status"] == "declined"
    finally:
        events.close()


def test_the_creator_of_a_private_match_hears_that_it_started(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    events = StreamReader(f"{base}/api/v1/stream/event", alice)
    try:
        created = httpx.post(f"{base}/api/v1/matches", headers=alice,
                             json={"game": "sight"}).json()
        httpx.post(f"{base}/api/v1/matches/{created['id']}/join", headers=bob)
        assert events.next_of("gameStart")["game"]["id"] == created["id"]
    finally:
        events.close()


def test_on_connect_the_stream_lists_games_in_play_and_open_challenges(base: str) -> None:
    alice, bob = account(base, "alice3"), account(base, "bob3")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice, json={"game": "sight"}).json()
    httpx.post(f"{base}/api/v1/matches/{created['id']}/join", headers=bob)
    challenge = httpx.post(f"{base}/api/v1/challenges", headers=alice,
                           json={"user": "bob3", "game": "stairs"}).json()
    events = StreamReader(f"{base}/api/v1/stream/event", bob)
    try:
        first = [events.next(), events.next()]
        assert first[0] == {"type": "gameStart", "game": first[0]["game"]}
        assert first[0]["game"]["id"] == created["id"]
        assert first[1]["type"] == "challenge" and first[1]["challenge"]["id"] == challenge["id"]
    finally:
        events.close()


def test_an_idle_stream_sends_keep_alive_lines(base: str) -> None:
    events = StreamReader(f"{base}/api/v1/stream/event", guest(base, "Idle"))
    try:
        wait_for(lambda: events.blank_lines >= 1 or events.ended.is_set())
        assert events.blank_lines >= 1 and events.lines.empty() and not events.ended.is_set()
    finally:
        events.close()


def test_match_stream_follows_one_game_to_its_end(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice,
                         json={"game": "stairs", "seat": 0}).json()
    match_id = created["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    stream = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", alice)
    watcher = StreamReader(f"{base}/api/v1/matches/{match_id}/stream")
    try:
        full = stream.next()
        assert full["type"] == "gameFull" and full["protocol"] == 1
        assert full["your_seat"] == 0 and full["legal_moves"] and full["status"] == "active"
        spectator = watcher.next()
        assert spectator["your_seat"] is None and spectator["legal_moves"] == []
        move = full["legal_moves"][0]
        played = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=alice,
                            json={"move": move, "ply": 0})
        assert played.status_code == 200
        state = stream.next_of("gameState")
        assert state["ply"] == 1 and state["last_move"]["move"] == move and not state["legal_moves"]
        assert watcher.next_of("gameState")["ply"] == 1
        httpx.post(f"{base}/api/v1/matches/{match_id}/resign", headers=bob)
        finish = stream.next_of("gameFinish")
        assert finish["status"] == "finished" and finish["result"]["winners"] == [0]
        assert stream.ended.wait(5), "the stream ends after gameFinish"
    finally:
        stream.close()
        watcher.close()


def test_match_stream_shows_what_the_seat_may_see_and_no_more(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice, json={"game": "town"}).json()
    httpx.post(f"{base}/api/v1/matches/{created['id']}/join", headers=bob)
    for headers in (alice, bob, None):
        stream = StreamReader(f"{base}/api/v1/matches/{created['id']}/stream", headers)
        try:
            full = stream.next()
        finally:
            stream.close()
        rest = httpx.get(f"{base}/api/v1/matches/{created['id']}", headers=headers or {}).json()
        assert full["view"] == rest["view"] and full["legal_moves"] == rest["legal_moves"]
        assert "snapshot" not in full and "seed" not in full


def test_match_stream_of_a_missing_match_is_404(base: str) -> None:
    response = httpx.get(f"{base}/api/v1/matches/nope/stream")
    assert response.status_code == 404 and response.json()["code"] == "no_match"


def test_offers_reach_the_match_stream(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice,
                         json={"game": "stairs", "seat": 0}).json()
    match_id = created["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    stream = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", bob)
    try:
        stream.next()
        move = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=alice).json()["legal_moves"][0]
        httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=alice,
                   json={"move": move, "ply": 0})
        offered = httpx.post(f"{base}/api/v1/matches/{match_id}/offers/takeback", headers=alice)
        assert offered.status_code == 200, offered.text
        offer = stream.next_of("offer")
        assert offer["offers"].get("takeback") == [0]
    finally:
        stream.close()


def test_opponent_gone_counts_down_to_the_claim(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice, json={
        "game": "stairs", "seat": 0, "time_control": {"kind": "realtime", "minutes": 5}}).json()
    match_id = created["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    bobs = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", bob)
    alices = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", alice)
    try:
        alices.next()
        bobs.next()
        bobs.close()  # the reader hangs up at the next keep-alive line (~6 s)
        gone = alices.next_of("opponentGone", timeout=15)
        assert gone["gone"] is True and gone["seats"] == [1]
        assert 0 <= gone["claim_win_in_seconds"] <= 60
    finally:
        alices.close()


def test_account_events_also_come_on_a_websocket(base: str) -> None:
    from websockets.sync.client import connect

    alice, bob = account(base, "alice4"), account(base, "bob4")
    token = bob["Authorization"].split()[1]
    with connect(f"{base.replace('http', 'ws')}/api/v1/stream/event/ws?token={token}") as ws:
        ws.send('{"type": "ping"}')
        assert '"pong"' in str(ws.recv(timeout=5))
        httpx.post(f"{base}/api/v1/challenges", headers=alice,
                   json={"user": "bob4", "game": "stairs"})
        assert '"challenge"' in str(ws.recv(timeout=5))


def test_revoking_a_token_ends_its_open_stream(base: str) -> None:
    owner = account(base, "revoker")
    created = httpx.post(f"{base}/api/v1/tokens", headers=owner,
                         json={"description": "bot", "scopes": ["read"]}).json()
    events = StreamReader(f"{base}/api/v1/stream/event",
                          {"Authorization": f"Bearer {created['token']}"})
    try:
        assert events.status == 200
        assert httpx.delete(f"{base}/api/v1/tokens/{created['id']}",
                            headers=owner).status_code == 204
        assert events.ended.wait(10), "the stream ends at the next keep-alive"
    finally:
        events.close()


def test_seek_and_rematch_starts_reach_the_event_stream(base: str) -> None:
    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    events = StreamReader(f"{base}/api/v1/stream/event", alice)
    try:
        seek = httpx.post(f"{base}/api/v1/seeks", headers=alice, json={"game": "sight"}).json()
        accepted = httpx.post(f"{base}/api/v1/seeks/{seek['id']}/accept", headers=bob).json()
        first = events.next_of("gameStart")["game"]
        assert first["id"] == accepted["match_id"]
        httpx.post(f"{base}/api/v1/matches/{first['id']}/resign", headers=alice)
        assert events.next_of("gameFinish")["game"]["id"] == first["id"]
        for player in (alice, bob):
            offered = httpx.post(f"{base}/api/v1/matches/{first['id']}/offers/rematch",
                                 headers=player)
            assert offered.status_code == 200, offered.text
        rematch = events.next_of("gameStart")["game"]
        assert rematch["id"] != first["id"] and rematch["status"] == "active"
    finally:
        events.close()


@pytest.mark.parametrize("how", ["challenge endpoint", "seek endpoint"])
def test_a_cancelled_challenge_reaches_the_challenged(base: str, how: str) -> None:
    suffix = "5" if how == "seek endpoint" else "8"
    alice, bob = account(base, f"alice{suffix}"), account(base, f"bob{suffix}")
    events = StreamReader(f"{base}/api/v1/stream/event", bob)
    try:
        challenge = httpx.post(f"{base}/api/v1/challenges", headers=alice,
                               json={"user": f"bob{suffix}", "game": "sight"}).json()
        assert events.next_of("challenge")["challenge"]["id"] == challenge["id"]
        cancel = (httpx.delete(f"{base}/api/v1/seeks/{challenge['id']}", headers=alice)
                  if how == "seek endpoint" else
                  httpx.post(f"{base}/api/v1/challenges/{challenge['id']}/cancel", headers=alice))
        assert cancel.status_code == 200, cancel.text
        cancelled = events.next_of("challengeCanceled")
        assert cancelled["challenge"]["id"] == challenge["id"] and cancelled["direction"] == "in"
        assert cancelled["challenge"]["status"] == "cancelled"
    finally:
        events.close()


def test_game_full_and_game_state_carry_every_move(base: str) -> None:
    """``moves`` follows the game through one move, a takeback, and a change that made two
    moves at once (a conditional reply, played in the same commit)."""
    from games import registry

    alice, bob = guest(base, "Alice"), guest(base, "Bob")
    created = httpx.post(f"{base}/api/v1/matches", headers=alice, json={
        "game": "stairs", "seat": 0, "time_control": {"kind": "correspondence", "days": 3}}).json()
    match_id = created["id"]
    httpx.post(f"{base}/api/v1/matches/{match_id}/join", headers=bob)
    players = (alice, bob)
    played: list[str] = []

    def play() -> str:
        state = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=alice).json()
        move = httpx.get(f"{base}/api/v1/matches/{match_id}",
                         headers=players[state["to_move"]]).json()["legal_moves"][0]
        answer = httpx.post(f"{base}/api/v1/matches/{match_id}/moves",
                            headers=players[state["to_move"]],
                            json={"move": move, "ply": state["ply"]})
        assert answer.status_code == 200, answer.text
        played.append(move)
        return move

    play()
    stream = StreamReader(f"{base}/api/v1/matches/{match_id}/stream", alice)
    try:
        assert stream.next_of("gameFull")["moves"] == played
        play()
        assert stream.next_of("gameState")["moves"] == played
        assert httpx.post(f"{base}/api/v1/matches/{match_id}/offers/takeback",
                          headers=bob).status_code == 200
        assert httpx.post(f"{base}/api/v1/matches/{match_id}/offers/takeback/accept",
                          headers=alice).status_code == 200
        played.pop()
        taken_back = stream.next_of("gameState")
        while taken_back["ply"] != len(played):
            taken_back = stream.next_of("gameState")
        assert taken_back["moves"] == played
        state = registry.get("stairs").new_state(2)
        for move in played:
            state = state.play(move)
        theirs = state.legal_moves()[0]
        reply = state.play(theirs).legal_moves()[0]
        lines = httpx.put(f"{base}/api/v1/matches/{match_id}/conditional", headers=alice,
                          json={"ply": len(played), "lines": [[theirs, reply]]})
        assert lines.status_code == 200, lines.text
        answer = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=bob,
                            json={"move": theirs, "ply": len(played)})
        assert answer.status_code == 200 and answer.json()["ply"] == len(played) + 2
        both = stream.next_of("gameState")
        assert both["ply"] == len(played) + 2
        assert both["moves"] == [*played, theirs, reply]
    finally:
        stream.close()


def test_a_town_challenge_reaches_everyone_and_starts_on_their_streams(base: str) -> None:
    """The creator hears of a challenge as sent (`out`), each invited player as an invitation
    (`in`); each accepts from their own stream, and the last acceptance starts the match."""
    people = {name: account(base, name) for name in ("aiko6", "ben6", "chie6")}
    streams = {name: StreamReader(f"{base}/api/v1/stream/event", headers)
               for name, headers in people.items()}
    try:
        sent = httpx.post(f"{base}/api/v1/challenges", headers=people["aiko6"],
                          json={"users": ["ben6", "chie6"], "game": "town"}).json()
        assert streams["aiko6"].next_of("challenge")["direction"] == "out"
        for name in ("ben6", "chie6"):
            event = streams[name].next_of("challenge")
            assert event["direction"] == "in" and event["challenge"]["id"] == sent["id"]
            assert event["challenge"]["seats"] == 3
            accepted = httpx.post(f"{base}/api/v1/challenges/{sent['id']}/accept",
                                  headers=people[name])
            assert accepted.status_code == 200, accepted.text
        starts = {name: stream.next_of("gameStart")["game"] for name, stream in streams.items()}
        assert len({game["id"] for game in starts.values()}) == 1
        assert sorted(game["your_seat"] for game in starts.values()) == [0, 1, 2]
    finally:
        for stream in streams.values():
            stream.close()


def test_a_decline_with_its_reason_reaches_the_creator_and_the_other_invitee(base: str) -> None:
    people = {name: account(base, name) for name in ("aiko7", "ben7", "chie7")}
    streams = {name: StreamReader(f"{base}/api/v1/stream/event", people[name])
               for name in ("aiko7", "ben7")}
    try:
        sent = httpx.post(f"{base}/api/v1/challenges", headers=people["aiko7"],
                          json={"users": ["ben7", "chie7"], "game": "town"}).json()
        httpx.post(f"{base}/api/v1/challenges/{sent['id']}/decline", headers=people["chie7"],
                   json={"reason": "later"}).raise_for_status()
        for name, direction in (("aiko7", "out"), ("ben7", "in")):
            declined = streams[name].next_of("challengeDeclined")
            assert declined["direction"] == direction
            assert declined["challenge"]["id"] == sent["id"]
            assert declined["challenge"]["decline_reason"] == "later"
            assert declined["challenge"]["declined_by"]["name"] == "chie7"
    finally:
        for stream in streams.values():
            stream.close()


def test_a_bots_quick_play_waits_while_its_event_stream_is_open(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A program following only its event stream counts as present: its quick-play wait
    outlives the grace period (a program without a stream loses its own meanwhile), and a
    player arriving later is paired with it."""
    with live_server(tmp_path_factory.mktemp("presence"), STEPWELL_BOTS_ENABLED="false",
                     STEPWELL_SEEK_GRACE_SECONDS="0.5") as short:
        bot, absent = account(short, "stepper9"), account(short, "absent9")
        assert httpx.post(f"{short}/api/v1/bot/upgrade", headers=bot).status_code == 200
        events = StreamReader(f"{short}/api/v1/stream/event", bot)
        try:
            waiting = httpx.post(f"{short}/api/v1/quick-play", headers=bot, json={"game": "sight"})
            assert waiting.status_code == 200 and waiting.json()["status"] == "open", waiting.text
            gone = httpx.post(f"{short}/api/v1/quick-play", headers=absent,
                              json={"game": "stairs"}).json()

            def open_ids() -> set[str]:
                return {seek["id"] for seek in httpx.get(f"{short}/api/v1/seeks").json()}

            wait_for(lambda: gone["id"] not in open_ids(), seconds=20)
            assert waiting.json()["id"] in open_ids()
            paired = httpx.post(f"{short}/api/v1/quick-play", headers=account(short, "hana9"),
                                json={"game": "sight"}).json()
            assert paired["status"] == "matched"
            assert events.next_of("gameStart")["game"]["id"] == paired["match_id"]
        finally:
            events.close()
