"""Pages: home in English and Japanese, creating and joining through forms, readable errors."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from games import registry
from tests.databases import sqlite_database


@pytest.fixture
def browser(tmp_path) -> TestClient:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "pages.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as client:
        yield client


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def test_home_lists_every_game_with_a_create_form(browser: TestClient) -> None:
    html = browser.get("/").text
    for game in registry.ids():
        assert f'id="create-{game}"' in html


def test_language_follows_the_browser_and_the_switcher(browser: TestClient) -> None:
    english = browser.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).text
    japanese = browser.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).text
    assert 'lang="en"' in english and "Create a game" in english
    assert 'lang="ja"' in japanese and "対局を作る" in japanese
    switched = browser.get("/lang/ja?next=/rules", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/rules"
    assert 'lang="ja"' in browser.get("/rules", headers={"Accept-Language": "en"}).text


def test_switcher_never_redirects_off_site(browser: TestClient) -> None:
    response = browser.get("/lang/en?next=//evil.example/x", follow_redirects=False)
    assert response.headers["location"] == "/"


def test_create_and_join_through_the_forms(browser: TestClient, tmp_path) -> None:  # type: ignore[no-untyped-def]
    token = csrf_of(browser.get("/").text)
    created = browser.post("/play", data={"csrf": token, "game": "stairs", "name": "Aiko",
                                          "seat": "0"}, follow_redirects=False)
    assert created.status_code == 303
    path = created.headers["location"]
    page = browser.get(path).text
    assert "Aiko" in page and "Join this match" not in page

    friend = TestClient(browser.app)
    friend_token = csrf_of(friend.get(path).text)
    assert "Join this match" in friend.get(path).text
    joined = friend.post(f"{path}/join", data={"csrf": friend_token, "name": "Ben"},
                         follow_redirects=False)
    assert joined.status_code == 303
    match = friend.get(f"/api/v1/matches/{path.rsplit('/', 1)[1]}").json()
    assert match["status"] == "active" and match["your_seat"] == 1
    assert [s["user"]["name"] for s in match["seats"]] == ["Aiko", "Ben"]


def test_forms_without_the_csrf_token_are_refused(browser: TestClient) -> None:
    browser.get("/")
    response = browser.post("/play", data={"game": "stairs", "name": "X"})
    assert response.status_code == 403 and "reload" in response.text


def test_missing_match_is_a_readable_404_page(browser: TestClient) -> None:
    response = browser.get("/m/doesnotexist")
    assert response.status_code == 404
    assert "text/html" in response.headers["content-type"] and "no match" in response.text


def test_rules_pages_exist_in_both_languages(browser: TestClient) -> None:
    for game in registry.ids():
        for language in ("en", "ja"):
            response = browser.get(f"/rules/{game}?lang={language}")
            assert response.status_code == 200, (game, language)
            if (registry.get(game).folder() / "diagrams.json").exists():
                assert "<figure" in response.text and "<svg" in response.text


def test_home_lists_your_games_with_yours_to_move_first(browser: TestClient) -> None:
    token = csrf_of(browser.get("/").text)
    browser.post("/play", data={"csrf": token, "game": "sight", "name": "Aiko", "seat": "0",
                                "mode": "bot", "bot": "easy"})
    browser.post("/play", data={"csrf": token, "game": "stairs", "seat": "0", "mode": "private"})
    html = browser.get("/").text
    assert 'id="my-games"' in html
    first, second = html.index("Sight —"), html.index("Stairs —")
    assert first < second, "the game where it is your turn comes first"
    assert "Your turn" in html[first:second]


def test_numbers_in_other_scripts_in_a_form_are_not_a_server_error(browser: TestClient) -> None:
    """``str.isdigit`` accepts "²" and "١٢", which ``int`` refuses: the form must not 500."""
    token = csrf_of(browser.get("/").text)
    for odd in ("²", "١٢", "9" * 40):
        answer = browser.post("/play", data={"csrf": token, "game": "scalas", "name": "Aiko",
                                             "seat": odd, "players": odd, "size": odd},
                              follow_redirects=False)
        assert answer.status_code in (303, 422), (odd, answer.status_code, answer.text[:300])
