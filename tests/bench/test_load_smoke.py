"""bench/load.py still works: a few seconds of tiny fan-out and closed-loop load on SQLite, with the
bare baseline server, must commit moves, deliver them and see no error. Timings are never checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# aiohttp is in the test extra; a worktree whose venv predates that gets told, not a traceback.
pytest.importorskip("aiohttp", reason="the test extra now includes aiohttp: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[2]


def test_load_client_commits_moves_without_errors(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--db", "sqlite", "--matches", "2",
         "--spectators", "1", "--rate", "4", "--closed-loop", "2", "--duration", "1.5", "--drain", "0.5",
         "--no-baseline", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {row["kind"]: row for row in json.loads(out.read_text())}
    assert set(rows) == {"fan-out", "closed loop"}, rows.keys()
    for row in rows.values():
        values, notes = row["values"], row["notes"]
        assert values["committed"] > 0, notes
        assert values["errors"] == 0, notes
        assert values["setup errors"] == 0, notes
        assert values["delivered %"] > 0, notes
    assert rows["fan-out"]["values"]["sockets"] == 6
    assert "p99 ms" in done.stdout and "committed" in done.stdout
