"""Counts on pages take their plural form: "1 game played", "2 games played"; Japanese has one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import start_match
from tests.lobby.test_lobby import make_account


def test_a_profile_counts_games_with_the_right_plural(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    first = start_match(client, aiko, ben)
    assert client.post(f"/api/v1/matches/{first['id']}/resign", headers=ben).status_code == 200
    page = client.get("/u/aiko?lang=en").text
    assert "1 game played" in page and "1 games played" not in page
    second = start_match(client, aiko, ben)
    assert client.post(f"/api/v1/matches/{second['id']}/resign", headers=ben).status_code == 200
    assert "2 games played" in client.get("/u/aiko?lang=en").text
    assert "2局対局" in client.get("/u/aiko?lang=ja").text
