"""Cursor pagination: each growing list comes a page at a time, `Link: rel="next"` leads through
every item once, in order, and a cursor that is not ours is a 422."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.db.models import utcnow
from app.tournaments.models import Tournament
from tests.conftest import make_guest, start_match
from tests.lobby.test_lobby import make_account

pytestmark = pytest.mark.both_databases  # the database is under test here


def _pages(client: TestClient, url: str, headers: dict[str, str] | None = None
           ) -> list[list[dict[str, Any]]]:
    """Every page of ``url``, following ``Link: rel="next"`` to the end."""
    pages = []
    next_url: str | None = url
    while next_url is not None:
        answer = client.get(next_url, headers=headers)
        assert answer.status_code == 200, answer.text
        pages.append(answer.json())
        link = answer.headers.get("link")
        found = re.fullmatch(r'<([^>]+)>; rel="next"', link) if link else None
        assert link is None or found, link
        next_url = found.group(1) if found else None
        assert len(pages) < 50, "the pages never end"
    return pages


def _check(pages: list[list[dict[str, Any]]], whole: list[Any], limit: int,
           ident: Callable[[dict[str, Any]], Any] = lambda item: item["id"]) -> None:
    assert all(len(page) == limit for page in pages[:-1]) and 0 < len(pages[-1]) <= limit
    assert [ident(item) for page in pages for item in page] == whole


def test_my_matches_page_through_every_match_once(client: TestClient, alice: dict[str, str],
                                                   bob: dict[str, str]) -> None:
    for _ in range(5):
        played = start_match(client, alice, bob)
        client.post(f"/api/v1/matches/{played['id']}/resign", headers=bob).raise_for_status()
    whole = [m["id"] for m in client.get("/api/v1/me/matches", headers=alice).json()]
    assert len(whole) == 5 and "link" not in client.get("/api/v1/me/matches", headers=alice).headers
    _check(_pages(client, "/api/v1/me/matches?limit=2", alice), whole, 2)


def test_games_in_play_page_yours_to_move_first(client: TestClient, alice: dict[str, str],
                                                bob: dict[str, str]) -> None:
    for seat in (0, 1, 0, 1, 0):
        start_match(client, alice, bob, seat=seat)
    whole = client.get("/api/v1/me/games", headers=alice).json()
    assert [g["your_turn"] for g in whole] == [True] * 3 + [False] * 2
    _check(_pages(client, "/api/v1/me/games?limit=2", alice), [g["id"] for g in whole], 2)


def test_seeks_and_challenges_page_oldest_first(client: TestClient) -> None:
    people = [make_guest(client, f"P{i}") for i in range(5)]
    made = [client.post("/api/v1/seeks", json={"game": "stairs"}, headers=p).json()["id"]
            for p in people]
    _check(_pages(client, "/api/v1/seeks?limit=2"), made, 2)
    aiko = make_account(client, "aiko")
    for name in ("ben", "chie", "dan"):
        make_account(client, name)
    sent = [client.post("/api/v1/challenges", json={"user": name, "game": "sight"},
                        headers=aiko).json()["id"] for name in ("ben", "chie", "dan")]
    _check(_pages(client, "/api/v1/challenges?limit=1", aiko), sent, 1)


def test_bots_and_leaderboards_page(client: TestClient) -> None:
    bots = [b["username"] for b in client.get("/api/v1/bots").json()]
    _check(_pages(client, "/api/v1/bots?limit=2"), bots, 2, lambda b: b["username"])
    players = {name: make_account(client, name) for name in ("rania", "robin", "rocco", "rudy")}
    for challenger, challenged in (("rania", "robin"), ("rocco", "rudy")):
        sent = client.post("/api/v1/challenges", headers=players[challenger],
                           json={"user": challenged, "game": "sight", "rated": True}).json()
        started = client.post(f"/api/v1/challenges/{sent['id']}/accept",
                              headers=players[challenged]).json()
        client.post(f"/api/v1/matches/{started['match_id']}/resign",
                    headers=players[challenged]).raise_for_status()
    board = [row["user"]["id"] for row in client.get("/api/v1/leaderboards/sight").json()]
    assert len(board) == 4
    _check(_pages(client, "/api/v1/leaderboards/sight?limit=3"), board, 3,
           lambda row: row["user"]["id"])


def test_a_cursor_that_is_not_ours_or_a_limit_out_of_range_is_refused(
        client: TestClient, alice: dict[str, str]) -> None:
    for query in ("cursor=%%%", "cursor=bm90IGpzb24", "cursor=WzEsMl0", "cursor=e30",
                  "limit=0", "limit=101"):
        answer = client.get(f"/api/v1/me/matches?{query}", headers=alice)
        assert answer.status_code == 422, (query, answer.text)
        assert answer.json()["code"] in ("invalid_cursor", "invalid_request"), answer.text
    client.post("/api/v1/seeks", json={"game": "stairs"}, headers=alice).raise_for_status()
    other_lists_cursor = "WzEsMCwiQnVpbHQiXQ"  # [1, 0, "Built"]: a bot list's key
    assert client.get(f"/api/v1/seeks?cursor={other_lists_cursor}").status_code == 422


def test_finished_tournaments_go_on_page_after_page(client: TestClient) -> None:
    """Upcoming and running tournaments come whole on the first page; the finished ones,
    latest first, page on (two of them start at the same moment: the id breaks the tie)."""
    start = utcnow()
    with client.app.state.session_factory() as session:
        for index, starts in enumerate([0, 1, 1, 2, 3]):
            session.add(Tournament(id=f"Fin{index}", name=f"Old {index}", kind="swiss",
                                   game="stairs", rounds=3, status="finished",
                                   starts_at=start - timedelta(days=10 - starts)))
        session.add(Tournament(id="Soon", name="Soon", kind="swiss", game="stairs", rounds=3,
                               starts_at=start + timedelta(days=1)))
        session.commit()
    whole = client.get("/api/v1/tournaments").json()
    assert [t["id"] for t in whole["upcoming"]] == ["Soon"]
    finished = [t["id"] for t in whole["finished"]]
    assert finished == ["Fin4", "Fin3", "Fin2", "Fin1", "Fin0"]
    pages, url = [], "/api/v1/tournaments?limit=2"
    while url:
        answer = client.get(url)
        pages.append(answer.json())
        found = re.fullmatch(r'<([^>]+)>; rel="next"', answer.headers.get("link", ""))
        url = found.group(1) if found else ""
    assert [t["id"] for page in pages for t in page["finished"]] == finished
    assert [len(page["upcoming"]) for page in pages] == [1, 0, 0]
