"""The puzzles' API and pages: next, by id (with the solution), attempts judged move by move,
ratings for accounts only (once per puzzle), the daily puzzle, and the miner on a real match."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.db.session import make_engine, make_session_factory
from app.puzzles.jobs import mine_once
from app.puzzles.mine import Candidate, self_play_line
from app.puzzles.service import PuzzleService
from games.puzzles import best_defence
from tests.accounts.test_api_tokens import make_account, make_token
from tests.analysis.helpers import play_game
from tests.conftest import make_guest
from tests.puzzles.test_reprove import MINED

API = "/api/v1/puzzles"


def store_collection(database_url: str) -> None:
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        PuzzleService(session).store([Candidate(
            p["game"], p["options"], p["players"], p["rules_version"], p["moves"], p["seat"],
            p["solution"], p["goal"], p["plies"], p["themes"], 25.0) for p in MINED], "selfplay")
    engine.dispose()


def solve(client: TestClient, puzzle_id: int, headers: dict[str, str] | None = None
          ) -> dict[str, Any]:
    """Play the stored solution through the attempts API, as the page does."""
    tree = client.get(f"{API}/{puzzle_id}").json()["solution"]
    line: list[str] = []
    while True:
        assert "move" in tree
        line.append(tree["move"])
        answer = client.post(f"{API}/{puzzle_id}/attempts", json={"moves": line},
                             headers=headers or {})
        assert answer.status_code == 200, answer.text
        verdict = answer.json()
        if verdict["status"] != "continue":
            return verdict
        tree = tree["next"]
        for reply in verdict["reply"]:
            tree = tree["replies"][reply] if "replies" in tree else tree["next"]
        line += verdict["reply"]


def first_id(client: TestClient, game: str) -> int:
    return int(client.get(f"{API}/next", params={"game": game}).json()["id"])


def test_next_hides_the_solution_and_by_id_shows_it(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    for game in ("stairs", "sight", "scalas"):
        shown = client.get(f"{API}/next", params={"game": game}).json()
        assert shown["game"] == game and shown["solution"] is None and shown["moves"]
        full = client.get(f"{API}/{shown['id']}").json()
        assert full["moves"] == shown["moves"] and full["solution"]["move"]
    assert client.get(f"{API}/next", params={"game": "town"}).json()["code"] == "no_puzzle_game"
    assert client.get(f"{API}/99999").status_code == 404


def test_a_guest_solves_unrated(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    guest = make_guest(client, "Gus")
    for game in ("stairs", "sight", "scalas"):
        verdict = solve(client, first_id(client, game), guest)
        assert verdict["status"] == "correct" and verdict["rated"] is False
        assert verdict["rating"] is None


def test_an_account_is_rated_once_per_puzzle(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    owner = make_account(client, "solver")
    puzzle_id = first_id(client, "sight")
    before = client.get(f"{API}/{puzzle_id}").json()["rating"]
    verdict = solve(client, puzzle_id, owner)
    assert verdict["rated"] and verdict["rating"]["change"] > 0
    assert verdict["puzzle_rating"]["change"] < 0
    after = client.get(f"{API}/{puzzle_id}").json()
    assert after["rating"] < before and after["attempts"] == 1 and after["solved"] == 1
    again = solve(client, puzzle_id, owner)
    assert again["status"] == "correct" and again["rated"] is False
    for _ in range(10):  # the next puzzle for the account is never the one it tried
        assert client.get(f"{API}/next", params={"game": "sight"}, headers=owner).json()["id"] \
            != puzzle_id


def test_a_wrong_move_fails_and_an_illegal_one_is_refused(client: TestClient,
                                                           database_url: str) -> None:
    store_collection(database_url)
    owner = make_account(client, "misser")
    puzzle_id = first_id(client, "stairs")
    full = client.get(f"{API}/{puzzle_id}").json()
    from games import registry
    state = registry.get("stairs").new_state(2, full["options"], 0)
    for move in full["moves"]:
        state = state.play(move)
    wrong = next(m for m in state.legal_moves() if m != full["solution"]["move"])
    answer = client.post(f"{API}/{puzzle_id}/attempts", json={"moves": [wrong]}, headers=owner)
    assert answer.json()["status"] == "incorrect" and answer.json()["rating"]["change"] < 0
    illegal = client.post(f"{API}/{puzzle_id}/attempts", json={"moves": ["zz9"]}, headers=owner)
    assert illegal.status_code == 422 and illegal.json()["code"] == "illegal_move"


def test_every_defence_of_the_tree_may_be_played(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    for puzzle_id in range(1, len(MINED) + 1):
        tree = client.get(f"{API}/{puzzle_id}").json()["solution"]
        line = [tree["move"]]
        node = tree["next"]
        if "replies" not in node or len(node["replies"]) < 2:
            continue
        other = next(m for m in node["replies"] if m != best_defence(node))
        answer = client.post(f"{API}/{puzzle_id}/attempts", json={"moves": [*line, other]})
        assert answer.status_code == 200 and answer.json()["status"] in ("continue", "correct")


def test_giving_up_and_read_only_tokens(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    owner = make_account(client, "reader")
    reader = make_token(client, owner, ["read"])
    puzzle_id = first_id(client, "scalas")
    assert solve(client, puzzle_id, reader)["rated"] is False
    gave_up = client.post(f"{API}/{puzzle_id}/attempts", json={"moves": [], "gave_up": True},
                          headers=owner).json()
    assert gave_up["status"] == "incorrect" and gave_up["rated"] and gave_up["reply"] == []


def test_hint_names_the_square_of_the_next_move(client: TestClient, database_url: str) -> None:
    store_collection(database_url)
    puzzle_id = first_id(client, "stairs")
    move = client.get(f"{API}/{puzzle_id}").json()["solution"]["move"]
    hint = client.post(f"{API}/{puzzle_id}/hint", json={"moves": []}).json()
    assert hint["square"] == move.split("-")[0]


def test_daily_is_one_puzzle_for_everyone_and_on_the_home_page(client: TestClient,
                                                              database_url: str) -> None:
    assert client.get(f"{API}/daily").status_code == 404
    store_collection(database_url)
    daily = client.get(f"{API}/daily").json()
    assert client.get(f"{API}/daily", headers=make_guest(client, "Other")).json()["id"] == \
        daily["id"]
    assert daily["solution"] is None
    assert f'href="/puzzle/{daily["id"]}"' in client.get("/").text


def test_the_page_carries_the_position_but_not_the_solution(client: TestClient,
                                                             database_url: str) -> None:
    store_collection(database_url)
    puzzle_id = first_id(client, "sight")
    page = client.get(f"/puzzle/{puzzle_id}")
    assert page.status_code == 200
    data = json.loads(re.search(r'id="puzzle-data">(.*?)</script>', page.text, re.S)[1])  # type: ignore[index]
    assert data["id"] == puzzle_id and data["moves"] and "solution" not in data
    assert '"replies"' not in page.text and '"next"' not in page.text
    assert client.get("/puzzles/sight", follow_redirects=False).status_code == 303


def test_the_miner_finds_puzzles_in_finished_matches(client: TestClient, database_url: str
                                                     ) -> None:
    moves = self_play_line("sight", 3)
    finished = play_game(client, make_guest(client, "A"), make_guest(client, "B"), moves,
                         game="sight")
    assert finished["status"] == "finished"
    engine = make_engine(database_url)
    factory = make_session_factory(engine)
    assert asyncio.run(mine_once(factory, None)) >= 1
    assert asyncio.run(mine_once(factory, None)) == 0  # each match is searched once
    engine.dispose()
    found = client.get(f"{API}/next", params={"game": "sight"}).json()
    assert found["match_id"] == finished["id"] and found["source"] == "game"
