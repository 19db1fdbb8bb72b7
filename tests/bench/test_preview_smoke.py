"""bench/preview.py still works: one Sight game on SQLite, a computed and a cached preview and a
move at every ply. Timings are never checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_preview_bench_times_a_preview_a_cached_one_and_a_move_per_ply(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "preview.py"), "--games", "1",
                           "--db", "sqlite", "--game", "sight", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    counts = {request: row["n"] for request, row in json.loads(out.read_text())["sqlite"]["all"].items()}
    assert set(counts) == {"move", "preview", "preview (cached)"}
    assert counts["move"] == counts["preview"] == counts["preview (cached)"] > 0, counts
