"""Computer analysis across instances: requests fired together at two web instances
sharing PostgreSQL and Redis make one analysis, run once by whichever instance leads the jobs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.live.cluster import cluster, guest, wait_for
from tests.live.server import run_async


def test_requests_at_two_instances_run_one_analysis(cluster_database: str,
                                                   cluster_redis: tuple[str, str],
                                                   tmp_path: Path) -> None:
    with cluster(cluster_database, cluster_redis, tmp_path, bots_enabled="false",
                 analysis_budget="50") as made:
        bases = [made.web(), made.web()]
        alice, _ = guest(bases[0], "Alice")
        bob, _ = guest(bases[1], "Bob")
        match = httpx.post(f"{bases[0]}/api/v1/matches", json={"game": "sight", "seat": 0},
                           headers=alice).json()
        httpx.post(f"{bases[1]}/api/v1/matches/{match['id']}/join", headers=bob)
        httpx.post(f"{bases[0]}/api/v1/matches/{match['id']}/resign", headers=bob)
        path = f"/api/v1/matches/{match['id']}/analysis"

        async def fire() -> list[int]:
            async with httpx.AsyncClient(timeout=30) as client:
                answers = await asyncio.gather(*(client.post(bases[i % 2] + path)
                                                 for i in range(8)))
            return [answer.status_code for answer in answers]

        statuses = run_async(fire)
        assert sorted(statuses) == [200] * 7 + [202], statuses

        def finished() -> dict[str, Any] | None:
            found = httpx.get(bases[1] + path).json()
            return found if found["status"] == "done" else None

        final = wait_for(finished)
        assert final["runs"] == 1 and final["total"] == 1
