"""A game the project has never seen (tests/fixture_game, stacking tic-tac-toe with no board script,
no icon and no rules page) is registered at run time and must work everywhere: the engine
contract, the notation property, the catalogue, the home page, the match page in both languages,
the bots (MCTS in process, and the bot runner through the API) and its translated words."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel import i18n
from app.kernel.settings import Settings
from app.main import create_app
from games import Game, registry
from games.bots import LEVELS, choose_move
from tests.conftest import make_guest
from tests.contract import test_engines, test_notation
from tests.fixture_game import GAME as FIXTURE
from tests.games.properties import check_random_game


@pytest.fixture
def fifth_game() -> Iterator[Game]:
    registry.register(FIXTURE)
    try:
        yield FIXTURE
    finally:
        registry.unregister(FIXTURE.id)


def test_registering_adds_the_game_at_the_end_and_unregistering_removes_it() -> None:
    before = registry.ids()
    registry.register(FIXTURE)
    try:
        assert registry.ids() == [*before, FIXTURE.id] and registry.get(FIXTURE.id) is FIXTURE
        with pytest.raises(ValueError):
            registry.register(FIXTURE)
    finally:
        registry.unregister(FIXTURE.id)
    assert registry.ids() == before
    with pytest.raises(registry.UnknownGame):
        registry.get(FIXTURE.id)
    with pytest.raises(ValueError):
        registry.unregister(before[0])


def test_the_engine_contract_holds(fifth_game: Game) -> None:
    for seed in range(20):
        check_random_game(fifth_game, seed, options={"limit": 2 + seed % 2})
    test_engines.test_the_game_describes_itself(fifth_game)
    test_engines.test_views_hold_no_secret_of_another_seat(fifth_game)
    test_engines.test_random_games_keep_the_engine_contract(fifth_game)


def test_the_notation_properties_hold(fifth_game: Game) -> None:
    test_notation.test_every_legal_move_parses_to_itself_and_has_its_own_key(fifth_game)
    test_notation.test_case_spaces_and_dashes_name_the_same_move(fifth_game)
    test_notation.test_a_misspelt_move_is_a_legal_move_or_an_illegal_move_error(fifth_game)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_the_bots_play_it_to_the_end(fifth_game: Game, level: str) -> None:
    state = fifth_game.new_state(seed=1)
    rng = random.Random(level)
    while not state.is_over:
        budget = LEVELS["easy"] if level == "hard" else level  # hard's 2 s a move is not needed here
        state = state.play(choose_move(state, state.to_move, budget, seed=rng.randrange(1000)))
    assert state.result is not None


def test_mcts_takes_an_immediate_win(fifth_game: Game) -> None:
    state = fifth_game.new_state()
    for move in ("a1", "a2", "b1", "b2"):
        state = state.play(move)
    assert choose_move(state, 0, "medium", seed=3) == "c1"


def test_its_words_come_from_its_folder_in_both_languages(fifth_game: Game) -> None:
    token = i18n.current_language.set("ja")
    try:
        assert i18n.gettext(fifth_game.title) == "積み三目並べ"
        assert i18n.reason_label(fifth_game.id, "three_in_a_row") == "三つ並び"
    finally:
        i18n.current_language.reset(token)
    assert i18n.reason_label(fifth_game.id, "three_in_a_row") == "three in a row"


@pytest.fixture
def site(fifth_game: Game, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app with bots on; bots think in threads here, since a worker process would not have
    the game registered at run time (a game added by its registry line has no such problem)."""
    for pools in ("app.match.bot_runner", "app.jobs.runner"):
        monkeypatch.setattr(f"{pools}.spawn_pool",
                            lambda workers, *_, **__: ThreadPoolExecutor(workers))
    settings = Settings(database_url=database_url, secret_key="fifth", bots_enabled=True)
    with TestClient(create_app(settings)) as client:
        yield client


def test_the_catalogue_lists_it(site: TestClient, fifth_game: Game) -> None:
    games = {game["id"]: game for game in site.get("/api/v1/games").json()}
    assert list(games) == registry.ids()
    assert games[fifth_game.id]["title"] == "Stack-toe"
    assert games[fifth_game.id]["defaults"] == {"limit": 3}
    assert games[fifth_game.id]["can_draw"] is True
    assert games[fifth_game.id]["reasons"] == {"three_in_a_row": "three in a row",
                                               "board_full": "board full"}


@pytest.mark.parametrize(("language", "title", "option"),
                         [("en", "Stack-toe", "Stack limit"), ("ja", "積み三目並べ", "積める高さ")])
def test_home_and_match_pages_show_it(site: TestClient, fifth_game: Game, language: str,
                                      title: str, option: str) -> None:
    home = site.get(f"/?lang={language}")
    assert home.status_code == 200
    assert f'id="create-{fifth_game.id}"' in home.text and title in home.text
    assert option in home.text
    alice, bob = make_guest(site, "Alice"), make_guest(site, "Bob")
    created = site.post("/api/v1/matches", json={"game": fifth_game.id}, headers=alice).json()
    site.post(f"/api/v1/matches/{created['id']}/join", headers=bob)
    page = site.get(f"/m/{created['id']}?lang={language}")
    assert page.status_code == 200 and title in page.text
    assert f'lang="{language}"' in page.text


def _wait_for_ply(client: TestClient, match_id: str, ply: int) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = client.get(f"/api/v1/matches/{match_id}").json()
        if state["ply"] >= ply or state["status"] != "active":
            return state
        time.sleep(0.05)
    pytest.fail(f"the bot did not reach ply {ply}")


def test_a_bot_plays_it_through_the_api_to_the_end(site: TestClient, fifth_game: Game) -> None:
    human = make_guest(site, "Human")
    match = site.post("/api/v1/matches", json={"game": fifth_game.id, "seat": 0, "bot": "easy"},
                      headers=human).json()
    assert match["status"] == "active"
    while True:
        mine = site.get(f"/api/v1/matches/{match['id']}", headers=human).json()
        if mine["status"] != "active":
            break
        moved = site.post(f"/api/v1/matches/{match['id']}/moves",
                          json={"move": mine["legal_moves"][-1].upper(), "ply": mine["ply"]},
                          headers=human)
        assert moved.status_code == 200, moved.text
        _wait_for_ply(site, match["id"], mine["ply"] + 2)
    assert mine["status"] == "finished" and mine["result"]["reason"] in fifth_game.words.reasons
    seats = [move["seat"] for move in site.get(f"/api/v1/matches/{match['id']}/moves").json()]
    assert seats == [ply % 2 for ply in range(len(seats))]
