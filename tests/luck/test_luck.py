"""What luck did: for a finished Town game, what a bot that sees every secret scores from each
seat of the same deal beside what the seat scored. Deterministic for a given game, computed by
the job (never in a request), and never shown before the game is over or while it is sealed."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Match, MatchLuck
from app.kernel.settings import Settings
from app.luck.compute import _Sighted, full_sight_move, luck_report
from app.luck.jobs import compute, run_luck
from app.luck.service import LuckService
from app.main import create_app
from games import registry
from tests.conftest import start_match, start_table
from tests.playing import play_out, random_moves

ITERATIONS = 20  # small: the tests check the plumbing and the determinism, not the strength
VERSION = registry.get("town").rules_version


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              background_jobs="off"))
    with TestClient(app) as test_client:
        yield test_client


def _play_out(client: TestClient, match_id: str, seed: int) -> None:
    """Every seat plays random legal moves through the match service until the game ends."""
    app: Any = client.app
    play_out(app.state.session_factory, match_id, random_moves(seed))


def _work_once(client: TestClient) -> str | None:
    """What the job does for one game, in this process."""
    app: Any = client.app
    with app.state.session_factory() as session:
        work = LuckService(session).next_work()
        if work is None:
            return None
        report = compute(work, ITERATIONS)
        LuckService(session).finish(work["match_id"], report)
        return work["match_id"]


def test_the_full_sight_bot_sees_the_true_deal() -> None:
    state = registry.get("town").new_state(players=3, seed=7)
    sighted = _Sighted(state)
    assert sighted.determinize(0, random.Random(1)) is state
    assert state.determinize(0, random.Random(1)).to_json() != state.to_json()  # an honest one
    move = full_sight_move(state, 0, ITERATIONS, 3)
    assert move in state.legal_moves()


def test_a_report_is_the_same_for_the_same_game() -> None:
    first = luck_report("town", VERSION, 2, {}, 123456789, "abcdefgh", [6, 4], ITERATIONS)
    second = luck_report("town", VERSION, 2, {}, 123456789, "abcdefgh", [6, 4], ITERATIONS)
    assert first == second
    start = registry.get("town").new_state(players=2, seed=123456789).to_json()
    assert [s["start_card"] for s in first["seats"]] == start["start_cards"]
    assert [s["scored"] for s in first["seats"]] == [6, 4]
    for seat in first["seats"]:
        assert seat["difference"] == seat["scored"] - seat["full_sight"]
        assert seat["full_sight"] > 0
    assert first["iterations"] == ITERATIONS and first["opponent"] == "easy"


def test_the_job_reports_on_a_finished_game_once(client: TestClient) -> None:
    match_id, seats = start_table(client, "town", 2)
    pending = client.get(f"/api/v1/matches/{match_id}/luck", headers=seats[0])
    assert pending.status_code == 409 and pending.json()["code"] == "match_not_over"
    assert _work_once(client) is None  # nothing to do while it is played
    _play_out(client, match_id, 1)
    waiting = client.get(f"/api/v1/matches/{match_id}/luck")
    assert waiting.status_code == 200 and waiting.json()["status"] == "pending"
    assert _work_once(client) == match_id
    assert _work_once(client) is None  # claimed once
    report = client.get(f"/api/v1/matches/{match_id}/luck").json()
    assert report["status"] == "done" and len(report["seats"]) == 2
    app: Any = client.app
    with app.state.session_factory() as session:
        match = session.get(Match, match_id)
        assert match is not None
        scores = match.result["scores"]  # type: ignore[index]
        expected = luck_report("town", match.rules_version, 2, dict(match.options), int(match.seed), match_id,
                               list(scores), ITERATIONS)
    assert report["seats"] == expected["seats"]  # the same on every run
    assert [s["scored"] for s in report["seats"]] == list(scores)
    page = client.get(f"/m/{match_id}")
    assert "What luck did" in page.text


def test_other_games_have_no_report(client: TestClient, alice: dict[str, str],
                                    bob: dict[str, str]) -> None:
    match = start_match(client, alice, bob)
    answer = client.get(f"/api/v1/matches/{match['id']}/luck", headers=alice)
    assert answer.status_code == 409 and answer.json()["code"] == "no_luck_report"
    missing = client.get("/api/v1/matches/nosuchmatch/luck")
    assert missing.status_code == 404


def test_a_sealed_game_shows_no_report_even_to_its_player(client: TestClient) -> None:
    guest = client.post("/api/v1/guests", json={"name": "Aiko"}).json()
    headers = {"Authorization": f"Bearer {guest['token']}"}
    started = client.post("/api/v1/daily/town/play", json={"players": 2, "seat": 0},
                          headers=headers)
    match_id = started.json()["you"]["match_id"]
    _play_out(client, match_id, 2)
    assert _work_once(client) == match_id  # computed, stored on the server
    for viewer in (headers, {}):
        refused = client.get(f"/api/v1/matches/{match_id}/luck", headers=viewer)
        assert refused.status_code == 403 and refused.json()["code"] == "match_sealed"
    page = client.get(f"/m/{match_id}", headers=headers)
    assert "full_sight" not in page.text


def test_the_background_job_computes_and_stores(client: TestClient) -> None:
    match_id, _ = start_table(client, "town", 2)
    _play_out(client, match_id, 3)
    app: Any = client.app

    async def run() -> None:
        with ThreadPoolExecutor(1) as pool:
            job = asyncio.create_task(run_luck(app.state.session_factory, 1, ITERATIONS,
                                               poll_seconds=0.05, executor=pool))
            for _ in range(600):
                await asyncio.sleep(0.1)
                with app.state.session_factory() as session:
                    status = session.scalar(select(MatchLuck.status)
                                            .where(MatchLuck.match_id == match_id))
                if status == "done":
                    break
            job.cancel()
            with pytest.raises(asyncio.CancelledError):
                await job

    asyncio.run(run())
    assert client.get(f"/api/v1/matches/{match_id}/luck").json()["status"] == "done"
