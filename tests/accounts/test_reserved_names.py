"""Reserved identities: nobody can sign up, play as a guest or rename themselves as a built-in
bot or the site's staff, in any case or Unicode look-alike; built-in bot seats are bound to the
bot users by id, so an account that already holds a bot's name is never seated as that bot.
Two usernames that look the same cannot both exist. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.accounts.reserved_names import is_reserved, skeleton
from app.db.models import User
from tests.conftest import make_guest
from tests.site.test_pages import csrf_of

PASSWORD = "correct horse"

RESERVED_USERNAMES = [
    "bot-hard", "BOT-HARD", "bot_easy", "Bot-Medium", "b0t-hard", "bot-anything", "bot_x",
    "bot", "admin", "Administrator", "moderator", "mod", "stepwell", "STEPWELL", "system",
    "root", "support", "staff", "_admin_", "adm1n", "r00t",
]
RESERVED_NAMES = [
    "Bot (hard)", "Bot (easy)", "bot hard", "BOT", "Bot 2", "ＡＤＭＩＮ", "ａｄｍｉｎ",
    "\u0410dmin",  # Cyrillic A
    "ad\u200bmin",  # zero-width space
    "a\u0301dmin",  # combining acute accent
    "Αdmin",  # Greek Alpha
    "ѕtерwеll",  # Cyrillic s, e, r, e
    "Ｓｔｅｐｗｅｌｌ", "S t e p w e l l", "mod", "Moderator", "𝐚𝐝𝐦𝐢𝐧", "ｂｏｔ-hard",
]
ORDINARY_NAMES = ["Alice", "Botond", "Modesty", "Rootbeer", "Aiko T.", "さくら", "Admiral",
                  "robot", "Abbot"]


def _register(client: TestClient, username: str, name: str | None = None,
              headers: dict[str, str] | None = None) -> Any:
    body = {"username": username, "password": PASSWORD} | ({"name": name} if name else {})
    return client.post("/api/v1/accounts", json=body, headers=headers or {})


@pytest.mark.parametrize("name", RESERVED_USERNAMES + RESERVED_NAMES)
def test_reserved_names_are_recognised_in_every_form(name: str) -> None:
    assert is_reserved(name), name


@pytest.mark.parametrize("name", ORDINARY_NAMES)
def test_ordinary_names_are_not_reserved(name: str) -> None:
    assert not is_reserved(name), name


def test_look_alikes_share_a_skeleton() -> None:
    assert skeleton("pаypаl") == skeleton("paypal") == skeleton("PAYPA1") == skeleton("ｐａｙｐａｌ")
    assert skeleton("modern") == skeleton("modem")
    assert skeleton("alice") != skeleton("alike")


def test_reserved_usernames_cannot_be_registered(client: TestClient) -> None:
    for username in [*RESERVED_USERNAMES, "ｂｏｔ-hard", "\u0430dmin"]:
        refused = _register(client, username)
        assert refused.status_code == 403, (username, refused.text)
        assert refused.json()["code"] == "reserved_name", username
        assert "reserved" in refused.json()["message"]
    assert _register(client, "botond").status_code == 201


def test_reserved_display_names_are_refused_for_accounts_and_guests(client: TestClient) -> None:
    for name in RESERVED_NAMES:
        guest = client.post("/api/v1/guests", json={"name": name})
        assert (guest.status_code, guest.json()["code"]) == (403, "reserved_name"), name
        account = _register(client, "someone", name=name)
        assert (account.status_code, account.json()["code"]) == (403, "reserved_name"), name
    japanese = client.post("/api/v1/guests", json={"name": "Bot (hard)"},
                           headers={"Accept-Language": "ja"})
    assert japanese.status_code == 403 and "予約" in japanese.json()["message"]


def test_a_guest_upgrading_cannot_take_a_reserved_username(client: TestClient) -> None:
    guest = make_guest(client, "Gus")
    refused = _register(client, "bot-hard", headers=guest)
    assert (refused.status_code, refused.json()["code"]) == (403, "reserved_name")
    assert client.get("/api/v1/me", headers=guest).json()["kind"] == "guest"


@pytest.mark.both_databases
def test_usernames_that_look_the_same_cannot_both_exist(client: TestClient) -> None:
    assert _register(client, "paypal").status_code == 201
    for look_alike in ("PAYPAL", "paypa1", "PAYPAI", "pAypAl"):
        taken = _register(client, look_alike)
        assert (taken.status_code, taken.json()["code"]) == (409, "username_taken"), look_alike
    assert _register(client, "modem").status_code == 201
    assert _register(client, "modern").json()["code"] == "username_taken"


def _impostor(client: TestClient, username: str) -> int:
    """An account that got a built-in bot's username before names were reserved."""
    app: Any = client.app
    with app.state.session_factory() as session:
        user = User(name="Impostor", kind="account", username=username)
        session.add(user)
        session.commit()
        return user.id


def test_a_bot_game_seats_the_built_in_bot_not_an_account_holding_its_name(
        client: TestClient) -> None:
    impostor = _impostor(client, "bot-hard")
    alice = make_guest(client, "Alice")
    created = client.post("/api/v1/matches", json={"game": "sight", "seat": 0, "bot": "hard"},
                          headers=alice)
    assert created.status_code == 201, created.text
    seat = created.json()["seats"][1]["user"]
    assert seat["id"] != impostor and seat["kind"] == "bot"
    again = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0, "bot": "hard"},
                        headers=alice).json()
    assert again["seats"][1]["user"]["id"] == seat["id"]  # one bot user per level


def test_challenging_a_built_in_bot_by_name_reaches_the_bot(client: TestClient) -> None:
    impostor = _impostor(client, "bot-easy")
    aiko = _register(client, "aiko").json()["token"]
    challenge = client.post("/api/v1/challenges", json={"user": "bot-easy", "game": "stairs"},
                            headers={"Authorization": f"Bearer {aiko}"})
    assert challenge.status_code == 201, challenge.text
    assert challenge.json()["target"]["id"] != impostor
    assert challenge.json()["target"]["kind"] == "bot" and challenge.json()["match_id"]
    profile = client.get("/api/v1/users/bot-easy").json()["user"]
    assert profile["id"] == challenge.json()["target"]["id"] and profile["builtin_bot"] is True


def test_the_signup_page_says_why_in_english_and_japanese(client: TestClient) -> None:
    for language, words in (("en", "reserved"), ("ja", "予約")):
        client.cookies.clear()
        headers = {"Accept-Language": language}
        token = csrf_of(client.get("/signup", headers=headers).text)
        page = client.post("/signup", headers=headers, data={
            "csrf": token, "username": "Admin", "password": "a long password"})
        assert page.status_code == 422 and words in page.text, page.text[-2000:]


def test_a_guest_cannot_rename_itself_to_a_reserved_name(client: TestClient) -> None:
    client.cookies.clear()
    token = csrf_of(client.get("/").text)
    client.post("/guest", data={"csrf": token, "name": "Gus"})
    renamed = client.post("/guest", data={"csrf": token, "name": "Ｂｏｔ (hard)"})
    assert renamed.status_code == 403 and "reserved" in renamed.text
    assert client.get("/api/v1/me").json()["name"] == "Gus"
