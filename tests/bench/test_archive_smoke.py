"""bench/archive.py still works: a few hundred generated games in a scratch schema, every typical
search through the app's code and the bare SQL finding the same page. Timings are never checked."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests import servers

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.postgres
def test_the_archive_bench_runs_on_a_few_games() -> None:
    server = servers.require_postgres("the archive bench's smoke test")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "archive.py"), "--games", "400", "--users", "40",
         "--repeat", "1", "--server", server, "--schema", f"bench_{uuid.uuid4().hex[:8]}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "heaviest player, newest first" in done.stdout and "bare:" in done.stdout
    assert "ix_archive_entries_user_finished" in done.stdout
