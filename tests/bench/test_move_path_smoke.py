"""bench/move_path.py still works: one game each way on SQLite, the same number of moves played
cold and warm (the same seeded game). Timings are never checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_move_path_plays_the_same_game_cold_and_warm() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "move_path.py"), "--games", "1",
                           "--db", "sqlite"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("sqlite ")]
    moves = {row[1]: int(row[2]) for row in rows if row[1] in ("cold", "warm") and row[2].isdigit()}
    assert set(moves) == {"cold", "warm"} and moves["cold"] == moves["warm"] > 0, done.stdout
