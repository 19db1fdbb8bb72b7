"""The archive search (`GET /api/v1/games/search`, the `/archive` page) and the bulk export
(`GET /api/v1/games/export`): each filter against generated games on both databases, paging,
sealed matches and secret options, the export against the archive stream, bad input."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import ArchiveEntry, Match, MatchPlayer
from app.http.paging import PageRequest
from app.kernel.settings import Settings
from app.main import create_app
from app.match.archive_index import entry_rows
from app.people import archive_search
from games import registry
from tests.conftest import make_guest, start_match

pytestmark = pytest.mark.both_databases  # the database is under test here

GAMES = ("stairs", "sight", "scalas")
REASONS = ("resigned", "time_out", "highest_piece")
START = datetime(2026, 1, 1, 12)


def _me(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/v1/me", headers=headers).json()["id"])


def _generate(client: TestClient, users: list[int], count: int = 60) -> list[dict[str, Any]]:
    """``count`` finished two-seat games among ``users``, stored as the finishing commit stores
    them (the match, its seats, its archive rows); the expected answers are computed from this
    list in Python."""
    rng = random.Random(7)
    games = []
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        for number in range(count):
            first, second = rng.sample(users, 2)
            game = GAMES[number % 3]
            winner = None if number % 11 == 0 else rng.randrange(2)
            result = {"winners": [] if winner is None else [winner],
                      "ranking": [[0, 1]] if winner is None else [[winner], [1 - winner]],
                      "reason": "draw_agreed" if winner is None else rng.choice(REASONS)}
            options = {"stairs": {"swap": number % 2 == 0}, "sight": {"priority": "movable"},
                       "scalas": {"size": 5 + number // 3 % 3}}[game]
            ended = START + timedelta(hours=7 * number + rng.randrange(5))
            match_id = f"gen{number:05d}"
            session.add(Match(id=match_id, game=game, options=options, seed=number, num_seats=2,
                              status="finished", rated=number % 3 == 0, ply=0, version=1,
                              announced_version=1, snapshot=registry.get(game).new_state(
                                  players=2, options=options, seed=number).to_json(),
                              result=result, created_at=ended, started_at=ended,
                              finished_at=ended, updated_at=ended,
                              players=[MatchPlayer(seat=0, user_id=first),
                                       MatchPlayer(seat=1, user_id=second)]))
            session.flush()
            seats = [MatchPlayer(seat=0, user_id=first), MatchPlayer(seat=1, user_id=second)]
            session.execute(ArchiveEntry.__table__.insert(),
                            entry_rows(match_id, game, number % 3 == 0, result, ended, seats))
            games.append({"id": match_id, "game": game, "seats": [first, second],
                          "winner": winner, "reason": result["reason"], "options": options,
                          "rated": number % 3 == 0, "ended": ended})
        session.commit()
    return games


def _walk(client: TestClient, params: dict[str, Any], limit: int = 7,
          headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every game of a search, page by page through the `Link` headers."""
    found: list[dict[str, Any]] = []
    url: str | None = "/api/v1/games/search"
    query: Any = {**params, "limit": limit}
    while url:
        answer = client.get(url, params=query, headers=headers or {})
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert len(page) <= limit
        found += page
        link = answer.headers.get("link")
        if link:
            target = link.split(";")[0].strip("<>")
            url, query = urlsplit(target).path, parse_qs(urlsplit(target).query)
        else:
            url = None
    return found


def _outcome(game: dict[str, Any], user: int) -> str:
    if game["winner"] is None:
        return "draw"
    return "win" if game["seats"][game["winner"]] == user else "loss"


def _expected(games: list[dict[str, Any]], keep: Any) -> list[str]:
    chosen = [g for g in games if keep(g)]
    chosen.sort(key=lambda g: (g["ended"], g["id"]), reverse=True)
    return [g["id"] for g in chosen]


@pytest.fixture
def generated(client: TestClient) -> tuple[list[int], list[dict[str, Any]]]:
    users = [_me(client, make_guest(client, name)) for name in ("Ann", "Ben", "Cay", "Dot")]
    return users, _generate(client, users)


def test_each_filter_finds_exactly_the_generated_games_newest_first(
        client: TestClient, generated: tuple[list[int], list[dict[str, Any]]]) -> None:
    (ann, ben, _, _), games = generated
    week = (START + timedelta(days=5), START + timedelta(days=9))
    cases: list[tuple[dict[str, Any], Any]] = [
        ({}, lambda g: True),
        ({"player": ann}, lambda g: ann in g["seats"]),
        ({"player": ann, "opponent": ben}, lambda g: {ann, ben} == set(g["seats"])),
        ({"player": ben, "opponent": ann}, lambda g: {ann, ben} == set(g["seats"])),
        ({"player": ann, "opponent": ben, "result": "win"},
         lambda g: {ann, ben} == set(g["seats"]) and _outcome(g, ann) == "win"),
        ({"player": ben, "opponent": ann, "result": "win"},
         lambda g: {ann, ben} == set(g["seats"]) and _outcome(g, ben) == "win"),
        ({"player": ann, "game": "sight"}, lambda g: ann in g["seats"] and g["game"] == "sight"),
        ({"game": "scalas"}, lambda g: g["game"] == "scalas"),
        ({"game": "stairs", "option": "swap=true"},
         lambda g: g["game"] == "stairs" and g["options"]["swap"]),
        ({"game": "scalas", "option": "size=6"},
         lambda g: g["game"] == "scalas" and g["options"]["size"] == 6),
        ({"rated": "true"}, lambda g: g["rated"]),
        ({"player": ann, "rated": "false"}, lambda g: ann in g["seats"] and not g["rated"]),
        *[({"player": ann, "result": result},
           lambda g, result=result: ann in g["seats"] and _outcome(g, ann) == result)
          for result in ("win", "loss", "draw")],
        ({"reason": "time_out"}, lambda g: g["reason"] == "time_out"),
        ({"player": ben, "reason": "draw_agreed"},
         lambda g: ben in g["seats"] and g["reason"] == "draw_agreed"),
        ({"from": week[0].date().isoformat(), "to": week[1].date().isoformat()},
         lambda g: week[0].date() <= g["ended"].date() <= week[1].date()),
        ({"player": ben, "from": week[0].date().isoformat()},
         lambda g: ben in g["seats"] and g["ended"].date() >= week[0].date()),
    ]
    for params, keep in cases:
        found = _walk(client, params)
        expected = _expected(games, keep)
        assert expected, params  # every case finds something
        assert [g["id"] for g in found] == expected, params
        if "player" in params:
            assert all(g["outcome"] == _outcome(next(x for x in games if x["id"] == g["id"]),
                                                params["player"]) for g in found), params


def test_a_page_carries_the_game_and_its_replay(
        client: TestClient, generated: tuple[list[int], list[dict[str, Any]]]) -> None:
    (ann, _, _, _), games = generated
    first = client.get("/api/v1/games/search", params={"player": ann, "limit": 1})
    game = first.json()[0]
    stored = next(g for g in games if g["id"] == game["id"])
    assert game["replay_url"] == f"/m/{game['id']}"
    assert [p["user_id"] for p in game["players"]] == stored["seats"]
    assert game["finished_at"] == stored["ended"].isoformat() + "Z"
    assert game["options"] == stored["options"] and game["rated"] == stored["rated"]
    assert client.get(game["replay_url"]).status_code == 200
    assert 'rel="next"' in first.headers["link"]


def test_playing_and_resigning_writes_the_archive_rows(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob)
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        rows = session.execute(select(ArchiveEntry.seat, ArchiveEntry.user_id,
                                      ArchiveEntry.outcome, ArchiveEntry.finished_at)
                               .where(ArchiveEntry.match_id == match["id"])
                               .order_by(ArchiveEntry.seat)).all()
        ended = session.get(Match, match["id"]).finished_at  # type: ignore[union-attr]
    alice_id, bob_id = _me(client, alice), _me(client, bob)
    assert [(r.seat, r.user_id, r.outcome) for r in rows] == [(0, alice_id, "win"),
                                                               (1, bob_id, "loss")]
    assert all(r.finished_at == ended for r in rows)
    found = client.get("/api/v1/games/search", params={"player": bob_id, "result": "loss"}).json()
    assert [g["id"] for g in found] == [match["id"]]
    unfinished = start_match(client, alice, bob)
    assert unfinished["id"] not in {g["id"] for g in _walk(client, {"player": alice_id})}


def _seal(client: TestClient, match_id: str) -> None:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        found = session.get(Match, match_id)
        assert found is not None
        found.sealed = True
        session.commit()


def test_a_sealed_match_shows_only_to_its_players_in_search_and_export(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    carol = make_guest(client, "Carol")
    match = start_match(client, alice, bob)
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    _seal(client, match["id"])
    alice_id, bob_id = _me(client, alice), _me(client, bob)
    for params in ({"player": alice_id}, {"player": alice_id, "opponent": bob_id},
                   {"player": bob_id, "result": "loss"}, {}, {"game": "stairs"}):
        assert match["id"] in [g["id"] for g in _walk(client, params, headers=alice)], params
        for outsider in (carol, {}):
            assert match["id"] not in [g["id"] for g in _walk(client, params, headers=outsider)]
        export = client.get("/api/v1/games/export", params=params, headers=carol)
        assert match["id"] not in export.text
    page = client.get("/archive", params={"player": alice_id}, headers=carol)
    assert page.status_code == 200 and match["id"] not in page.text


def test_options_that_fix_hidden_information_cannot_be_searched(client: TestClient) -> None:
    for params in ({"game": "town", "option": "start_cards=[1]"},
                   {"game": "town", "option": "path_deck=x"},
                   {"game": "stairs", "option": "seed=1"}):
        answer = client.get("/api/v1/games/search", params=params)
        assert answer.status_code == 422 and answer.json()["code"] == "bad_option", params


@pytest.mark.parametrize("params, status, code", [
    ({"opponent": "1"}, 422, "player_needed"),
    ({"result": "win"}, 422, "player_needed"),
    ({"result": "won", "player": "1"}, 422, "invalid_request"),
    ({"option": "swap=true"}, 422, "game_needed"),
    ({"game": "stairs", "option": "swap=maybe"}, 422, "bad_option"),
    ({"game": "stairs", "option": "swap"}, 422, "bad_option"),
    ({"game": "chess"}, 404, "no_game"),
    ({"player": "nobody-at-all"}, 404, "no_user"),
    ({"reason": "boredom"}, 422, "bad_reason"),
    ({"from": "2026-02-01", "to": "2026-01-01"}, 422, "bad_range"),
    ({"from": "yesterday"}, 422, "invalid_request"),
    ({"rated": "perhaps"}, 422, "invalid_request"),
    ({"cursor": "not-ours"}, 422, "invalid_cursor"),
    ({"cursor": "WzEsMiwzXQ"}, 422, "invalid_cursor"),
    ({"limit": 0}, 422, "invalid_request"),
])
def test_bad_input_is_a_4xx_json_error(client: TestClient, params: dict[str, Any], status: int,
                                       code: str) -> None:
    for path in ("/api/v1/games/search", "/api/v1/games/export"):
        if path.endswith("export") and ("cursor" in params or "limit" in params):
            continue
        answer = client.get(path, params=params)
        assert answer.status_code == status, (path, params, answer.text)
        body = answer.json()
        assert body["code"] == code and body["message"], (path, params, body)


def test_the_export_is_the_archive_streams_records_in_json_and_text(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    for game in ("stairs", "sight", "stairs"):
        match = start_match(client, alice, bob, game=game)
        client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    alice_id = _me(client, alice)
    stream = client.get(f"/api/v1/users/{alice_id}/games")
    export = client.get("/api/v1/games/export", params={"player": alice_id})
    assert export.status_code == 200
    assert export.headers["content-disposition"].startswith("attachment;")
    assert export.headers["content-type"].startswith("application/x-ndjson")
    assert export.text == stream.text and len(export.text.splitlines()) == 3
    text = client.get("/api/v1/games/export", params={"player": alice_id, "format": "text"})
    assert text.headers["content-type"].startswith("text/plain")
    records = [json.loads(line) for line in stream.text.splitlines()]
    singles = [client.get(f"/api/v1/matches/{r['match_id']}/export?format=text").text
               for r in records]
    assert text.text == "".join(single + "\n" for single in singles)
    only_sight = client.get("/api/v1/games/export", params={"player": alice_id, "game": "sight"})
    assert [json.loads(line)["game"] for line in only_sight.text.splitlines()] == ["sight"]


def test_the_export_is_rate_limited(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, secret_key="limits",
                              rate_limit_scale=1.0, bots_enabled=False, rate_exports="3/minute"))
    with TestClient(app) as client:
        answers = [client.get("/api/v1/games/export").status_code for _ in range(5)]
        assert answers[:3] == [200] * 3 and answers[3:] == [429, 429]
        refused = client.get("/api/v1/games/export")
        assert refused.json()["code"] == "rate_limited" and refused.headers["retry-after"]
        assert client.get("/api/v1/games/search").status_code == 200  # searching is not


def test_the_search_page_finds_pages_and_links_the_export(
        client: TestClient, generated: tuple[list[int], list[dict[str, Any]]]) -> None:
    (ann, _, _, _), games = generated
    page = client.get("/archive", params={"player": ann, "game": "stairs"})
    assert page.status_code == 200
    expected = _expected(games, lambda g: ann in g["seats"] and g["game"] == "stairs")
    for match_id in expected[:25]:
        assert f'href="/m/{match_id}"' in page.text
    assert f"/api/v1/games/export?player={ann}&amp;game=stairs&amp;format=text" in page.text
    assert 'name="option"' in page.text  # the chosen game's options are offered
    bad = client.get("/archive", params={"from": "soon"})
    assert bad.status_code == 422 and 'id="archive-error"' in bad.text
    everything = client.get("/archive")
    assert 'id="archive-next"' in everything.text  # 60 games: more than a page
    following = everything.text.split('id="archive-next"')[0].rsplit('href="', 1)[1].split('"')[0]
    second = client.get(following.replace("&amp;", "&"))
    newest = _expected(games, lambda g: True)
    assert f'href="/m/{newest[25]}"' in second.text and f'href="/m/{newest[24]}"' not in second.text


def test_walking_the_opponents_games_finds_what_walking_the_players_does(
        client: TestClient, generated: tuple[list[int], list[dict[str, Any]]]) -> None:
    """A player + opponent search walks the games of whichever of the two has played fewer:
    both ways give the same pages, the outcome always the player's."""
    (ann, ben, cay, _), _ = generated
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        for player, opponent in ((ann, ben), (ben, ann), (cay, ann)):
            for result in (None, "win", "loss"):
                search = archive_search.GameSearch(player_id=player, opponent_id=opponent,
                                                   result=result)
                pages = []
                for by_opponent in (False, True):
                    statement = archive_search.found_ids_statement(
                        search, None, PageRequest(100), by_opponent)
                    pages.append([tuple(row) for row in session.execute(statement)])
                assert pages[0] == pages[1] and pages[0], (player, opponent, result)


def test_a_game_ended_by_its_last_move_is_in_the_archive(
        client: TestClient, alice: dict[str, str], bob: dict[str, str]) -> None:
    """The move that ends a game (on PostgreSQL played again in a transaction: it writes the
    archive rows) indexes both seats with the result it stored."""
    match = start_match(client, alice, bob, game="scalas")
    seats = {0: alice, 1: bob}
    rng = random.Random(3)
    state = match
    while state["status"] == "active":
        mine = client.get(f"/api/v1/matches/{match['id']}", headers=seats[state["to_move"]]).json()
        answer = client.post(f"/api/v1/matches/{match['id']}/moves", headers=seats[state["to_move"]],
                             json={"move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["status"] == "finished"
    winners = state["result"]["winners"]
    for seat, headers in seats.items():
        found = client.get("/api/v1/games/search", params={"player": _me(client, headers)}).json()
        assert [g["id"] for g in found] == [match["id"]]
        expected = "draw" if not winners else ("win" if seat in winners else "loss")
        assert found[0]["outcome"] == expected and found[0]["winners"] == winners
