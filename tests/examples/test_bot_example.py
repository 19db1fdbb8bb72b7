"""examples/bot.py against a live server: it accepts a challenge from another user and plays the
game to its end through the streams."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live.helpers import account, live_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("example"), STEPWELL_BOTS_ENABLED="false") as url:
        yield url


def _bot_token(base: str, username: str) -> str:
    headers = account(base, username)
    assert httpx.post(f"{base}/api/v1/bot/upgrade", headers=headers).status_code == 200
    return headers["Authorization"].split()[1]


def _play_randomly_until_over(base: str, match_id: str, headers: dict[str, str],
                              seconds: float = 90) -> dict[str, object]:
    rng = random.Random(1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=headers).json()
        if match["status"] in ("finished", "aborted"):
            return match  # type: ignore[no-any-return]
        if match["legal_moves"]:
            httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=headers,
                       json={"move": rng.choice(match["legal_moves"]), "ply": match["ply"]})
        else:
            time.sleep(0.05)
    raise AssertionError(f"match {match_id} did not finish in {seconds} s")


@pytest.mark.parametrize("game", ["sight", "town"])
def test_example_bot_accepts_a_challenge_and_finishes_the_game(base: str, game: str) -> None:
    username = f"example-{game}"
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--server", base, "--token", _bot_token(base, username),
         "--games", "1", "--level", "easy"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        assert "playing as" in process.stdout.readline()
        human = account(base, f"human-{game}")
        challenge = httpx.post(f"{base}/api/v1/challenges", headers=human,
                               json={"user": username, "game": game})
        assert challenge.status_code == 201, challenge.text
        deadline = time.monotonic() + 10
        while not (mine := httpx.get(f"{base}/api/v1/me/matches", headers=human).json()):
            assert time.monotonic() < deadline, "the bot did not accept the challenge"
            time.sleep(0.1)
        match_id = mine[0]["id"]
        final = _play_randomly_until_over(base, match_id, human)
        assert final["status"] == "finished"
        assert process.wait(timeout=30) == 0, process.stdout.read()
        output = process.stdout.read()
        assert "refused" not in output and f"{match_id}: finished" in output
    finally:
        if process.poll() is None:
            process.kill()


def test_two_example_bots_play_each_other_through_a_challenge(base: str) -> None:
    answering = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--server", base, "--token", _bot_token(base, "robot-b"),
         "--games", "1", "--level", "random"], stdout=subprocess.PIPE, text=True)
    try:
        assert answering.stdout is not None and "playing as" in answering.stdout.readline()
        challenging = subprocess.run(
            [sys.executable, str(EXAMPLE), "--server", base, "--token", _bot_token(base, "robot-a"),
             "--games", "1", "--level", "easy", "--challenge", "robot-b", "--game", "sight"],
            capture_output=True, text=True, timeout=90)
        assert challenging.returncode == 0, challenging.stderr
        assert ": finished" in challenging.stdout and "refused" not in challenging.stdout
        assert answering.wait(timeout=30) == 0
    finally:
        if answering.poll() is None:
            answering.kill()


def test_example_bot_keeps_challenging_after_accepting_a_challenge(base: str) -> None:
    human = account(base, "human-c")
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--server", base, "--token", _bot_token(base, "robot-c"),
         "--games", "2", "--level", "random", "--challenge", "human-c", "--game", "sight"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None and "playing as" in process.stdout.readline()
        sent = httpx.post(f"{base}/api/v1/challenges", headers=human,
                          json={"user": "robot-c", "game": "sight"})
        assert sent.status_code == 201
        for game_number in (1, 2):
            deadline = time.monotonic() + 15
            while True:  # game 1: the bot accepted ours; game 2: we accept the bot's
                mine = [m for m in httpx.get(f"{base}/api/v1/me/matches", headers=human).json()
                        if m["status"] == "active"]
                if mine:
                    break
                if game_number == 2:
                    for offer in httpx.get(f"{base}/api/v1/challenges", headers=human).json():
                        if offer["creator"]["username"] == "robot-c":
                            httpx.post(f"{base}/api/v1/challenges/{offer['id']}/accept",
                                       headers=human)
                            break
                assert time.monotonic() < deadline, f"game {game_number} did not start"
                time.sleep(0.2)
            assert _play_randomly_until_over(base, mine[0]["id"], human)["status"] == "finished"
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()

