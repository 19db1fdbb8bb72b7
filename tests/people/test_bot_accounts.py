"""Bot accounts: the one-way upgrade, BOT marks in payloads and pages, challenges."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import make_guest, start_match


def make_account(client: TestClient, username: str) -> dict[str, str]:
    response = client.post("/api/v1/accounts", json={"username": username,
                                                      "password": "correct horse"})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def make_bot(client: TestClient, username: str) -> dict[str, str]:
    headers = make_account(client, username)
    upgraded = client.post("/api/v1/bot/upgrade", headers=headers)
    assert upgraded.status_code == 200, upgraded.text
    return headers


def test_an_account_without_games_becomes_a_bot_for_good(client: TestClient) -> None:
    headers = make_account(client, "stepper")
    upgraded = client.post("/api/v1/bot/upgrade", headers=headers)
    assert upgraded.status_code == 200 and upgraded.json()["kind"] == "bot"
    assert client.get("/api/v1/me", headers=headers).json()["kind"] == "bot"
    again = client.post("/api/v1/bot/upgrade", headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "already_bot"


def test_a_guest_cannot_become_a_bot(client: TestClient) -> None:
    response = client.post("/api/v1/bot/upgrade", headers=make_guest(client, "Gus"))
    assert response.status_code == 403 and response.json()["code"] == "bot_needs_account"


def test_an_account_that_played_cannot_become_a_bot(client: TestClient) -> None:
    headers = make_account(client, "veteran")
    client.post("/api/v1/matches", json={"game": "stairs"}, headers=headers)
    response = client.post("/api/v1/bot/upgrade", headers=headers)
    assert response.status_code == 409 and response.json()["code"] == "account_has_games"
    assert client.get("/api/v1/me", headers=headers).json()["kind"] == "account"


def test_upgrading_needs_a_caller(client: TestClient) -> None:
    assert client.post("/api/v1/bot/upgrade").status_code == 401


def test_a_bot_is_marked_in_match_payloads(client: TestClient) -> None:
    bot, human = make_bot(client, "stepper"), make_guest(client, "Hana")
    match = start_match(client, bot, human)
    kinds = [seat["user"]["kind"] for seat in match["seats"]]
    assert kinds == ["bot", "guest"]


def test_a_bot_accepts_a_casual_challenge(client: TestClient) -> None:
    bot, human = make_bot(client, "stepper"), make_account(client, "hana")
    challenge = client.post("/api/v1/challenges", headers=human,
                            json={"user": "stepper", "game": "sight"})
    assert challenge.status_code == 201, challenge.text
    accepted = client.post(f"/api/v1/challenges/{challenge.json()['id']}/accept", headers=bot)
    assert accepted.status_code == 200 and accepted.json()["match_id"]
    match = client.get(f"/api/v1/matches/{accepted.json()['match_id']}", headers=bot).json()
    assert match["status"] == "active" and match["your_seat"] is not None


def test_bots_are_listed_built_in_first(client: TestClient) -> None:
    make_bot(client, "stepper")
    bots = client.get("/api/v1/bots").json()
    assert [b["builtin_level"] for b in bots[:3]] == ["easy", "medium", "hard"]
    assert bots[3]["username"] == "stepper" and bots[3]["kind"] == "bot"
    assert all(b["kind"] == "bot" for b in bots)


def test_bots_page_and_profile_show_the_bot_mark(client: TestClient) -> None:
    make_bot(client, "stepper")
    page = client.get("/bots").text
    assert page.count('class="badge bot-badge"') == 4 and 'data-bot="stepper"' in page
    profile = client.get("/u/stepper").text
    assert "bot-badge" in profile
    japanese = client.get("/bots", headers={"Accept-Language": "ja"}).text
    assert "ボット" in japanese


def test_a_bot_plays_a_rated_challenge_and_gets_a_rating(client: TestClient) -> None:
    bot, human = make_bot(client, "stepper"), make_account(client, "hana")
    challenge = client.post("/api/v1/challenges", headers=human,
                            json={"user": "stepper", "game": "sight", "rated": True})
    assert challenge.status_code == 201, challenge.text
    match_id = client.post(f"/api/v1/challenges/{challenge.json()['id']}/accept",
                           headers=bot).json()["match_id"]
    assert client.get(f"/api/v1/matches/{match_id}").json()["rated"] is True
    assert client.post(f"/api/v1/matches/{match_id}/resign", headers=human).status_code == 200
    ratings = client.get("/api/v1/users/stepper").json()["ratings"]
    assert ratings["sight"]["games"] == 1 and ratings["sight"]["mu"] > 25


def test_a_bot_plays_rated_quick_play(client: TestClient) -> None:
    bot, human = make_bot(client, "stepper"), make_account(client, "hana")
    waiting = client.post("/api/v1/quick-play", headers=bot, json={"game": "stairs"})
    assert waiting.status_code == 200 and waiting.json()["status"] == "open", waiting.text
    paired = client.post("/api/v1/quick-play", headers=human, json={"game": "stairs"}).json()
    assert paired["status"] == "matched"
    match = client.get(f"/api/v1/matches/{paired['match_id']}", headers=bot).json()
    assert match["rated"] is True and match["your_seat"] in (0, 1)


def test_a_built_in_bot_accepts_a_challenge_at_once(client: TestClient) -> None:
    human = make_account(client, "hana")
    response = client.post("/api/v1/challenges", headers=human,
                           json={"user": "bot-easy", "game": "stairs"})
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "matched" and response.json()["match_id"]
    match = client.get(f"/api/v1/matches/{response.json()['match_id']}").json()
    assert match["status"] == "active"
    assert {seat["user"]["kind"] for seat in match["seats"]} == {"account", "bot"}
