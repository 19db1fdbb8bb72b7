"""Moderation across instances: two web servers sharing PostgreSQL and Redis, the moderator
granted by the command. A line hidden on A leaves the reader's socket on B; the author hears of
it on B; a mute set on B refuses chat on A at once; an account closed on A loses its token, its
socket and its sign-in on B, while its name stays taken and its games stay."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live.cluster import cluster, open_socket, receive_until, wait_for
from tests.live.doors import socket_ends

pytestmark = pytest.mark.postgres
PASSWORD = "correct horse"


def _account(base: str, username: str) -> tuple[int, dict[str, str], str]:
    made = httpx.post(f"{base}/api/v1/accounts", json={"username": username,
                                                        "password": PASSWORD}, timeout=10)
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    return made.json()["user"]["id"], {"Authorization": f"Bearer {token}"}, token


def _grant(database_url: str, username: str) -> None:
    """``python -m app.accounts.moderators grant``, as an operator runs it."""
    env = {**os.environ, "STEPWELL_DATABASE_URL": database_url}
    done = subprocess.run([sys.executable, "-m", "app.accounts.moderators", "grant", username,
                           "trusted"], env=env, capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert f"{username}: moderator granted" in done.stdout


def _act(base: str, moderator: dict[str, str], path: str, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/v1/moderation/{path}", headers=moderator,
                        json={"reason": "insults in chat", **body}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_moderators_acts_on_one_instance_take_effect_on_the_other(
        cluster_database: str, cluster_redis: tuple[str, str], tmp_path: Path) -> None:
    with cluster(cluster_database, cluster_redis, tmp_path, bots_enabled="false") as topology:
        a, b = topology.web(), topology.web()
        _mod_id, mod, _ = _account(a, "warden")
        troll_id, troll, troll_token = _account(a, "rascal")
        _victim_id, victim, victim_token = _account(b, "patient")
        assert httpx.get(f"{b}/api/v1/moderation/reports", headers=mod).status_code == 403
        _grant(cluster_database, "warden")
        assert httpx.get(f"{b}/api/v1/moderation/reports", headers=mod).status_code == 200

        match = httpx.post(f"{a}/api/v1/matches", json={"game": "stairs", "seat": 0},
                           headers=troll, timeout=10).json()
        httpx.post(f"{a}/api/v1/matches/{match['id']}/join", headers=victim, timeout=10)
        path = f"/api/v1/matches/{match['id']}/ws"
        with open_socket(b, path, victim_token) as reader, \
                open_socket(b, "/api/v1/stream/event/ws", troll_token) as troll_events, \
                open_socket(b, path, troll_token) as troll_socket:
            receive_until(reader, lambda m: m.get("type") == "state")
            receive_until(troll_socket, lambda m: m.get("type") == "state")
            line = httpx.post(f"{a}/api/v1/matches/{match['id']}/chat", headers=troll,
                              json={"room": "players", "text": "you are a fool"}, timeout=10)
            assert line.status_code == 201, line.text
            line_id = line.json()["id"]
            receive_until(reader, lambda m: m.get("type") == "chatLine" and m["id"] == line_id)
            reported = httpx.post(f"{b}/api/v1/matches/{match['id']}/chat/{line_id}/report",
                                  headers=victim, timeout=10)
            assert reported.status_code == 201, reported.text
            (case,) = httpx.get(f"{b}/api/v1/moderation/reports", headers=mod, timeout=10).json()
            assert case["line"]["id"] == line_id and case["author"]["id"] == troll_id

            _act(a, mod, f"chat/{line_id}/hide")
            hidden = receive_until(reader, lambda m: m.get("type") == "chatHidden")
            assert hidden["id"] == line_id
            notice = receive_until(troll_events, lambda m: m.get("type") == "moderation")
            assert notice["notice"]["action"] == "hide_line"
            assert httpx.get(f"{b}/api/v1/matches/{match['id']}/chat?room=players",
                             headers=victim, timeout=10).json() == []

            muted = _act(b, mod, f"users/{troll_id}/mute", minutes=60)
            refused = httpx.post(f"{a}/api/v1/matches/{match['id']}/chat", headers=troll,
                                 json={"room": "players", "text": "still here"}, timeout=10)
            assert refused.status_code == 403 and refused.json()["code"] == "chat_muted"
            assert refused.json()["until"] == muted["details"]["until"]
            receive_until(troll_events, lambda m: m.get("type") == "moderation"
                          and m["notice"]["action"] == "mute")

            assert httpx.get(f"{b}/api/v1/me", headers=troll, timeout=10).status_code == 200
            closed_at = time.monotonic()
            _act(a, mod, f"users/{troll_id}/close", reason="repeated insults")
            assert socket_ends(troll_socket, closed_at).code == 4401
            assert socket_ends(troll_events, closed_at).code == 4401
        wait_for(lambda: httpx.get(f"{b}/api/v1/me", headers=troll,
                                   timeout=10).status_code == 401)
        login = httpx.post(f"{b}/api/v1/login", json={"username": "rascal",
                                                      "password": PASSWORD}, timeout=10)
        assert login.status_code == 403 and login.json()["code"] == "account_closed"
        assert "repeated insults" in login.json()["message"]
        taken = httpx.post(f"{b}/api/v1/accounts", json={"username": "Rascal",
                                                         "password": PASSWORD}, timeout=10)
        assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
        kept = httpx.get(f"{b}/api/v1/matches/{match['id']}", timeout=10).json()
        assert kept["seats"][0]["user"]["id"] == troll_id
        assert kept["result"]["reason"] == "resigned", "the game in play was resigned"
        log = httpx.get(f"{b}/api/v1/moderation/log", params={"user_id": troll_id},
                        headers=mod, timeout=10).json()
        assert [(act["action"], act["moderator"]["username"]) for act in log] == [
            ("close", "warden"), ("mute", "warden"), ("hide_line", "warden")]
