"""Rough edges a newcomer meets on the server-rendered pages: /lobby, finding a player, the fuller
challenge form, and what a page says without JavaScript."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.site.test_pages import browser, csrf_of  # noqa: F401 (the fixture


def _sign_up(client: TestClient, username: str) -> str:
    token = csrf_of(client.get("/signup").text)
    client.post("/signup", data={"csrf": token, "username": username, "password": "a long password"})
    return csrf_of(client.get("/").text)


def test_lobby_leads_to_the_lobby_on_the_home_page(browser: TestClient) -> None:  # noqa: F811
    response = browser.get("/lobby", follow_redirects=False)
    assert response.status_code == 301 and response.headers["location"] == "/#lobby"


def test_players_page_finds_accounts_and_offers_a_challenge(browser: TestClient) -> None:  # noqa: F811
    other = TestClient(browser.app)
    _sign_up(other, "kaede")
    _sign_up(browser, "riku")
    html = browser.get("/players", params={"q": "kae"}).text
    assert "@kaede" in html and 'href="/u/' in html and "#challenge" in html
    assert "Nobody found" in browser.get("/players", params={"q": "zzz"}).text
    assert "プレイヤーを探す" in browser.get("/players", headers={"Accept-Language": "ja"}).text


def test_the_challenge_form_sends_clock_options_and_colour(browser: TestClient) -> None:  # noqa: F811
    other = TestClient(browser.app)
    _sign_up(other, "kaede")
    token = _sign_up(browser, "riku")
    kaede = browser.get("/api/v1/users/kaede").json()["user"]["id"]
    form = browser.get(f"/u/{kaede}").text
    assert 'name="clock"' in form and 'name="seat"' in form and 'name="stairs:opt_swap"' in form
    sent = browser.post(f"/u/{kaede}/challenge", data={
        "csrf": token, "game": "stairs", "clock": "rt:5:3", "seat": "1", "stairs:opt_swap": "on",
        "sight:opt_whatever": "ignored"}, follow_redirects=False)
    assert sent.status_code == 303
    challenge = browser.get("/api/v1/challenges").json()[0]
    assert challenge["time_control"]["minutes"] == 5 and challenge["options"]["swap"] is True
    accepted = other.post(f"/api/v1/challenges/{challenge['id']}/accept",
                          headers={"X-CSRF-Token": csrf_of(other.get("/").text)}).json()
    assert browser.get(f"/api/v1/matches/{accepted['match_id']}").json()["your_seat"] == 1


def test_pages_that_need_javascript_say_so_without_it(browser: TestClient) -> None:  # noqa: F811
    token = csrf_of(browser.get("/").text)
    path = browser.post("/play", data={"csrf": token, "game": "stairs", "name": "Aiko", "seat": "0"},
                        follow_redirects=False).headers["location"]
    for page in (path, "/", "/watch"):
        html = browser.get(page).text
        assert "<noscript>" in html and "JavaScript" in html, page
    assert "JavaScript が必要" in browser.get(path, headers={"Accept-Language": "ja"}).text
