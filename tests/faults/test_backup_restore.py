"""The backup and restore of docs/operations.md, run as written on the topology's own PostgreSQL:
a game is played, dumped with the documented pg_dump, restored into a fresh database with the
documented commands, and an instance started on the restored database serves the match and every
move as the live site did."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.faults.topology import ROOT, Topology
from tests.live.cluster import guest
from tests.live.server import live_server

pytestmark = pytest.mark.faults


def documented(heading: str) -> str:
    """The first ```sh block under ``heading`` in docs/operations.md."""
    text = (ROOT / "docs/operations.md").read_text()
    found = re.search(rf"^{re.escape(heading)}\n.*?^```sh\n(.*?)^```", text, re.M | re.S)
    assert found, f"docs/operations.md has a sh block under {heading!r}"
    return found[1]


def run(script: str, folder: Path, env: dict[str, str]) -> None:
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"


def test_the_documented_backup_restores_every_match_and_move(
        deployed: Topology, tmp_path: Path) -> None:
    base = deployed.base
    light, _ = guest(base, "Saved")
    dark, _ = guest(base, "Kept")
    match = httpx.post(f"{base}/api/v1/matches", headers=light, timeout=10,
                       json={"game": "stairs", "seat": 0}).json()
    httpx.post(f"{base}/api/v1/matches/{match['id']}/join", headers=dark,
               timeout=10).raise_for_status()
    for turn in range(6):
        mover = (light, dark)[turn % 2]
        mine = httpx.get(f"{base}/api/v1/matches/{match['id']}", headers=mover, timeout=10).json()
        if not mine["legal_moves"]:
            mover = (light, dark)[1 - turn % 2]  # a forced pass changed whose turn it is
            mine = httpx.get(f"{base}/api/v1/matches/{match['id']}", headers=mover,
                             timeout=10).json()
        played = httpx.post(f"{base}/api/v1/matches/{match['id']}/moves", headers=mover,
                            timeout=10, json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
        assert played.status_code == 200, played.text
    httpx.post(f"{base}/api/v1/matches/{match['id']}/resign", headers=light,
               timeout=10).raise_for_status()
    live = httpx.get(f"{base}/api/v1/matches/{match['id']}", timeout=10).json()
    live_moves = httpx.get(f"{base}/api/v1/matches/{match['id']}/moves", timeout=10).json()
    assert live["status"] == "finished" and len(live_moves) >= 6

    tools = str(deployed.postgres.bin)  # the server's own version of pg_dump and pg_restore
    env = {**os.environ, **deployed.postgres.libpq_env("stepwell"),
           "PATH": f"{tools}:{os.environ.get('PATH', '')}"}
    run(documented("### Back up"), tmp_path, env)
    dumps = list(tmp_path.glob("stepwell-*.dump"))
    assert len(dumps) == 1, dumps
    run(documented("### Restore"), tmp_path,
        {**env, "RESTORE_DB": "stepwell_restored", "DUMP": dumps[0].name})

    restored = deployed.postgres.url("stepwell_restored")
    with live_server(restored, tmp_path, bots_enabled="false", analysis_workers="0",
                     background_jobs="off") as server:
        again = httpx.get(f"{server}/api/v1/matches/{match['id']}", timeout=10).json()
        moves = httpx.get(f"{server}/api/v1/matches/{match['id']}/moves", timeout=10).json()
    assert moves == live_moves
    assert {key: again[key] for key in ("status", "ply", "version", "result", "seats", "view")} \
        == {key: live[key] for key in ("status", "ply", "version", "result", "seats", "view")}
