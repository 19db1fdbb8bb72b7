"""A person's rating history per game (the points, the best win and worst loss) and head to
head between two people: through the API and on the profile page, on both databases; sealed
tables left out for everyone not seated at them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import update

from app.db.models import Match
from tests.conftest import make_guest, start_match
from tests.lobby.test_lobby import make_account


def _rated(client: TestClient, first: dict[str, str], second: dict[str, str],
           game: str = "stairs", rated: bool = True) -> str:
    """A started match from a seek: ``first`` in seat 0, ``second`` in seat 1."""
    seek = client.post("/api/v1/seeks", json={"game": game, "rated": rated, "seat": 0},
                       headers=first).json()
    accepted = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=second)
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["match_id"])


def _lose(client: TestClient, match_id: str, loser: dict[str, str]) -> None:
    answer = client.post(f"/api/v1/matches/{match_id}/resign", headers=loser)
    assert answer.status_code == 200, answer.text


def _draw(client: TestClient, match_id: str, first: dict[str, str],
          second: dict[str, str]) -> None:
    offered = client.post(f"/api/v1/matches/{match_id}/offers/draw", headers=first)
    assert offered.status_code == 200, offered.text
    accepted = client.post(f"/api/v1/matches/{match_id}/offers/draw/accept", headers=second)
    assert accepted.status_code == 200, accepted.text
    assert client.get(f"/api/v1/matches/{match_id}").json()["result"]["winners"] in ([], [0, 1])


def _expected(outcomes: list[str]) -> list[tuple[float, float, float]]:
    """(mu before, mu after, sigma after) of the first player over a series of two-player games
    (``win``/``loss``/``draw`` from the first player's side) against one opponent, by openskill
    itself."""
    model = PlackettLuce()
    mine, theirs = model.rating(), model.rating()
    steps = []
    for outcome in outcomes:
        ranks = {"win": [1, 2], "loss": [2, 1], "draw": [1, 1]}[outcome]
        before = mine.mu
        [[mine], [theirs]] = model.rate([[mine], [theirs]], ranks=ranks)
        steps.append((before, mine.mu, mine.sigma))
    return steps


def test_the_history_has_a_point_per_rated_game_where_openskill_put_the_rating(
        client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    played = []
    for outcome in ("win", "win", "loss", "draw"):  # Scalas has draws
        match_id = _rated(client, aiko, ben, game="scalas")
        if outcome == "draw":
            _draw(client, match_id, aiko, ben)
        else:
            _lose(client, match_id, ben if outcome == "win" else aiko)
        played.append(match_id)
    casual = _rated(client, aiko, ben, game="scalas", rated=False)
    _lose(client, casual, ben)  # a casual game leaves no point

    answer = client.get("/api/v1/users/aiko/rating-history")
    assert answer.status_code == 200, answer.text
    [scalas] = answer.json()
    assert scalas["game"] == "scalas"
    points = scalas["points"]
    assert [p["match_id"] for p in points] == played
    for point, (before, after, sigma) in zip(points, _expected(["win", "win", "loss", "draw"]),
                                             strict=True):
        assert point["mu"] == pytest.approx(after)
        assert point["sigma"] == pytest.approx(sigma)
        assert point["rating"] == round(after, 1)
        assert point["delta"] == round(round(after, 1) - round(before, 1), 1)
    assert [p["delta"] > 0 for p in points[:3]] == [True, True, False]
    assert points == sorted(points, key=lambda p: p["at"])
    rating = client.get("/api/v1/users/aiko").json()["ratings"]["scalas"]
    assert rating["mu"] == pytest.approx(points[-1]["mu"]) and rating["games"] == 4
    # each point is the change the match's own result reports for that seat
    for point in points:
        change = client.get(f"/api/v1/matches/{point['match_id']}").json()["result"]
        assert change["rating_changes"][0]["after"] == point["rating"]

    # ben was at 25 and then higher only after aiko had beaten him twice: the best win is the
    # first game (ben at 25.0 before it), the worst loss the third (ben lowest before it)
    ben_points = client.get("/api/v1/users/ben/rating-history").json()[0]["points"]
    assert scalas["best_win"]["match_id"] == played[0]
    assert scalas["best_win"]["opponent"]["username"] == "ben"
    assert scalas["best_win"]["opponent_rating"] == 25.0
    assert scalas["worst_loss"]["match_id"] == played[2]
    assert scalas["worst_loss"]["opponent_rating"] == ben_points[1]["rating"]


def test_the_history_filters_by_game_and_refuses_unknown_games_and_people(
        client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    _lose(client, _rated(client, aiko, ben, game="sight"), ben)
    _lose(client, _rated(client, aiko, ben), aiko)
    every = client.get("/api/v1/users/aiko/rating-history").json()
    assert [h["game"] for h in every] == ["sight", "stairs"]
    sight = client.get("/api/v1/users/aiko/rating-history", params={"game": "sight"}).json()
    assert sight == [every[0]] and sight[0]["worst_loss"] is None
    assert sight[0]["best_win"]["opponent"]["name"] == "ben"
    assert client.get("/api/v1/users/aiko/rating-history", params={"game": "scalas"}).json() == []
    unknown = client.get("/api/v1/users/aiko/rating-history", params={"game": "chess"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_game"
    nobody = client.get("/api/v1/users/nobody/rating-history")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_user"
    guest = make_guest(client, "Gus")
    guest_id = client.get("/api/v1/me", headers=guest).json()["id"]
    assert client.get(f"/api/v1/users/{guest_id}/rating-history").json() == []


def test_head_to_head_counts_every_finished_game_together_per_game(client: TestClient) -> None:
    aiko, ben, cleo = (make_account(client, n) for n in ("aiko", "ben", "cleo"))
    results = []
    for game, rated, outcome in [("stairs", True, "win"), ("stairs", False, "win"),
                                 ("stairs", True, "loss"), ("scalas", False, "draw"),
                                 ("scalas", True, "win")]:
        match_id = _rated(client, aiko, ben, game=game, rated=rated)
        if outcome == "draw":
            _draw(client, match_id, aiko, ben)
        else:
            _lose(client, match_id, ben if outcome == "win" else aiko)
        results.append(match_id)
    start_match(client, aiko, ben)  # in play: not counted
    _lose(client, _rated(client, aiko, cleo), cleo)  # another opponent: not counted

    answer = client.get("/api/v1/users/aiko/head-to-head/ben")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["user"]["username"] == "aiko" and body["other"]["username"] == "ben"
    assert body["games"] == {"scalas": {"wins": 1, "draws": 1, "losses": 0},
                             "stairs": {"wins": 2, "draws": 0, "losses": 1}}
    assert body["total"] == {"wins": 3, "draws": 1, "losses": 1}
    assert [g["id"] for g in body["last"]] == list(reversed(results))
    assert [g["outcome"] for g in body["last"]] == ["win", "draw", "loss", "win", "win"]
    assert [g["rated"] for g in body["last"]] == [True, False, True, False, True]
    mirrored = client.get("/api/v1/users/ben/head-to-head/aiko").json()
    assert mirrored["total"] == {"wins": 1, "draws": 1, "losses": 3}
    assert client.get("/api/v1/users/ben/head-to-head/cleo").json()["total"] == {
        "wins": 0, "draws": 0, "losses": 0}
    same = client.get("/api/v1/users/aiko/head-to-head/AIKO")
    assert same.status_code == 422 and same.json()["code"] == "same_person"
    assert client.get("/api/v1/users/aiko/head-to-head/nobody").json()["code"] == "no_user"


def _seal(client: TestClient, match_id: str) -> None:
    factory: Any = client.app.state.session_factory  # type: ignore[attr-defined]
    with factory() as session:
        session.execute(update(Match).where(Match.id == match_id).values(sealed=True))
        session.commit()


def test_a_sealed_table_stays_out_of_history_and_head_to_head_for_outsiders(
        client: TestClient) -> None:
    aiko, ben, cleo = (make_account(client, n) for n in ("aiko", "ben", "cleo"))
    opened = _rated(client, aiko, ben)
    _lose(client, opened, ben)
    sealed = _rated(client, aiko, ben)
    _lose(client, sealed, ben)
    _seal(client, sealed)

    def history(headers: dict[str, str] | None) -> list[str]:
        answer = client.get("/api/v1/users/aiko/rating-history", headers=headers).json()
        return [p["match_id"] for p in answer[0]["points"]]

    assert history(None) == [opened]
    assert history(cleo) == [opened]
    assert history(ben) == history(aiko) == [opened, sealed]
    outsider = client.get("/api/v1/users/aiko/head-to-head/ben", headers=cleo).json()
    assert outsider["total"]["wins"] == 1 and [g["id"] for g in outsider["last"]] == [opened]
    seated = client.get("/api/v1/users/aiko/head-to-head/ben", headers=ben).json()
    assert seated["total"]["wins"] == 2
    page = client.get("/u/aiko").text
    assert sealed not in page and 'data-games="1"' in page


def _token(client: TestClient, owner: dict[str, str], scopes: list[str]) -> dict[str, str]:
    made = client.post("/api/v1/tokens", headers=owner,
                       json={"description": "stats", "scopes": scopes})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def test_a_read_scoped_token_reads_history_and_head_to_head(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    _lose(client, _rated(client, aiko, ben), ben)
    play_only = _token(client, aiko, ["play"])
    refused = client.get("/api/v1/users/aiko/rating-history", headers=play_only)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    refused = client.get("/api/v1/users/aiko/head-to-head/ben", headers=play_only)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    reader = _token(client, aiko, ["read"])
    assert client.get("/api/v1/users/aiko/rating-history", headers=reader).status_code == 200
    assert client.get("/api/v1/users/aiko/head-to-head/ben", headers=reader).status_code == 200
    bad = client.get("/api/v1/users/aiko/rating-history",
                     headers={"Authorization": "Bearer nonsense"})
    assert bad.status_code == 401


def _sign_in(client: TestClient, username: str) -> None:
    login = client.get("/login")
    csrf = login.text.split('name="csrf" value="')[1].split('"')[0]
    answer = client.post("/login", data={"csrf": csrf, "username": username,
                                         "password": "correct horse"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def test_the_profile_page_draws_the_history_and_head_to_head_for_a_signed_in_viewer(
        client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    won = _rated(client, aiko, ben)
    _lose(client, won, ben)
    _lose(client, _rated(client, aiko, ben), aiko)
    visitor = client.get("/u/ben").text
    assert '<svg class="rating-graph" id="rating-graph-stairs"' in visitor
    assert "Rating history: Stairs" in visitor and 'data-games="2"' in visitor
    assert 'id="head-to-head"' not in visitor
    assert f'href="/m/{won}"' in visitor  # ben's worst loss, and a recent game
    _sign_in(client, "aiko")
    as_aiko = client.get("/u/ben").text
    assert 'id="head-to-head"' in as_aiko and "You against ben" in as_aiko
    row = as_aiko.split('<tr data-game="stairs"><td>Stairs</td>')[1].split("</tr>")[0]
    assert row == '<td class="outcome-win">1</td><td>0</td><td class="outcome-loss">1</td>'
    assert 'id="head-to-head"' not in client.get("/u/aiko").text  # one's own profile
    japanese = client.get("/u/ben", headers={"Accept-Language": "ja"}).text
    assert "レーティングの推移" in japanese
