"""A leader worker killed outright (kill -9) mid bot game: the stand-by worker, whose bot pool is
already warm, takes the lock when it expires and the bot answers the human's next move, once.
Two worker processes, a web instance, PostgreSQL and Redis, all real. How fast is measured by
bench/failover.py, not asserted here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.jobs.runner import bot_count_key
from tests.live.cluster import Cluster, cluster, guest, wait_for


def _play_first_legal(base: str, match_id: str, headers: dict[str, str]) -> int:
    state = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=headers, timeout=10).json()
    response = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=headers, timeout=10,
                          json={"move": state["legal_moves"][0], "ply": state["ply"]})
    assert response.status_code == 200, response.text
    return int(state["ply"]) + 1


def _reached(base: str, match_id: str, ply: int) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        state = httpx.get(f"{base}/api/v1/matches/{match_id}", timeout=10).json()
        return state if state["ply"] >= ply else None
    return wait_for(check, seconds=60)  # type: ignore[no-any-return]


def _workers_connected(topology: Cluster, count: int) -> bool:
    """Each process names its Redis connections; the web instance is one of them."""
    return len(topology.connections_by_process()) >= count + 1


def _pool_processes(parent: int) -> list[int]:
    """The process pool's workers among ``parent``'s children (multiprocessing's spawn)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


def test_the_stand_by_answers_for_the_bots_after_the_leader_is_killed(
        postgres_database_url: str, cluster_redis: tuple[str, str], tmp_path: Path) -> None:
    with cluster(postgres_database_url, cluster_redis, tmp_path, background_jobs="off",
                 analysis_workers="0") as topology:
        web = topology.web()
        leader = topology.worker()
        first_term = wait_for(topology.leader_token, seconds=30)
        stand_by = topology.worker()
        wait_for(lambda: _workers_connected(topology, 2), seconds=30)
        wait_for(lambda: _pool_processes(stand_by.pid), seconds=30)  # warm before it leads
        human, _ = guest(web, "Human")
        match = httpx.post(f"{web}/api/v1/matches", headers=human, timeout=10,
                           json={"game": "stairs", "seat": 0, "bot": "easy"}).json()
        assert match["status"] == "active", match
        ply = _play_first_legal(web, match["id"], human)
        _reached(web, match["id"], ply + 1)  # the bot answers while the leader lives

        topology.kill(leader)
        ply = _play_first_legal(web, match["id"], human)  # nobody leads for now
        after = _reached(web, match["id"], ply + 1)

        assert stand_by.poll() is None
        assert topology.leader_token() not in (None, first_term), "the stand-by leads now"
        moves = httpx.get(f"{web}/api/v1/matches/{match['id']}/moves", timeout=10).json()
        assert [m["seat"] for m in moves] == [0, 1, 0, 1] and after["ply"] == 4
        counts = topology.redis.hgetall(bot_count_key(topology.prefix, match["id"]))
        assert {int(k): int(v) for k, v in counts.items()} == {1: 1, 3: 1}, "each ply once"
