"""Processes and databases for ``bench/load.py``: fresh databases, server processes started and
watched (CPU time and RSS from /proc), and the bare database write loop used as a baseline.

Everything here is local to this machine: servers bind 127.0.0.1 on free ports, PostgreSQL is
the local server, and each run works in a schema of its own that it drops at the end.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
POSTGRES = os.environ.get("STEPWELL_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("STEPWELL_BENCH_REDIS", "redis://127.0.0.1:6379/0")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def connections_to(pid: int, port: int) -> int:
    """Established TCP connections of a process to ``port`` (e.g. Redis's), from /proc."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[2].rsplit(":", 1)[1], 16) == port \
                        and fields[9] in inodes:
                    count += 1
    return count


@dataclass
class Database:
    """A freshly migrated database for one run: a SQLite file or a PostgreSQL schema."""

    kind: str
    url: str
    schema: str | None = None
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="stepwell-bench-")))

    @classmethod
    def fresh(cls, kind: str, migrate: bool = True) -> Database:
        if kind == "sqlite":
            folder = Path(tempfile.mkdtemp(prefix="stepwell-bench-"))
            database = cls(kind, f"sqlite:///{folder / 'stepwell.db'}", folder=folder)
        else:
            from sqlalchemy import create_engine, text

            schema = f"bench_{uuid.uuid4().hex[:10]}"
            engine = create_engine(POSTGRES)
            with engine.begin() as connection:
                connection.execute(text(f'create schema "{schema}"'))
            engine.dispose()
            database = cls(kind, f"{POSTGRES}?options=-csearch_path%3D{schema}", schema=schema)
        if migrate:
            from app.db.migrate import upgrade

            upgrade(database.url)
        return database

    def drop(self) -> None:
        if self.schema:
            from sqlalchemy import create_engine, text

            engine = create_engine(POSTGRES)
            with engine.begin() as connection:
                connection.execute(text(f'drop schema if exists "{self.schema}" cascade'))
            engine.dispose()
        shutil.rmtree(self.folder, ignore_errors=True)


class Server:
    """One server process (the app or the bare baseline) on a free port, its log in a file.

    Both kinds run under the same uvicorn options, those of Stepwell's own commands (make run,
    the Dockerfile: no per-message deflate). Keep-alive is 75 s (nginx's default) rather than
    uvicorn's 5 s: at 0.2 moves/s a player's connection idles exactly 5 s between moves, and the
    client then races the server's close and reconnects in bursts, which measures the benchmark."""

    def __init__(self, label: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.label = label
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log = log.open("w")
        self.process = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
             "--no-access-log", "--backlog", "4096", "--timeout-keep-alive", "75",
             "--ws-per-message-deflate", "false"],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        self.pid = self.process.pid

    @classmethod
    def app(cls, label: str, database_url: str, folder: Path, redis_url: str | None = None,
            extra_env: dict[str, str] | None = None) -> Server:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY") and not k.startswith("STEPWELL_")}
        # Rate limits off: hundreds of guests from one address are the test, not an abuse of it.
        env.update({"STEPWELL_DATABASE_URL": database_url, "STEPWELL_SECRET_KEY": "bench",
                    "STEPWELL_BOTS_ENABLED": "false", "STEPWELL_RATE_LIMIT_SCALE": "0"})
        if redis_url:
            env["STEPWELL_REDIS_URL"] = redis_url
        env.update(extra_env or {})
        return cls(label, [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory"], env,
                   folder / f"{label.replace(' ', '_')}.log")

    @classmethod
    def bare(cls, folder: Path) -> Server:
        return cls("bare", [sys.executable, "-m", "uvicorn", "bare_server:app", "--app-dir", "bench"],
                   dict(os.environ), folder / "bare.log")

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/v1/games", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.label} server did not answer within {timeout} s")

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def rss(self) -> int:
        return rss_kib(self.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()

    def py_spy_dump(self, folder: Path) -> Path | None:
        """All threads' stacks (py-spy dump) into a file, or None when py-spy is missing or refused."""
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if not Path(spy).exists():
            return None
        target = folder / f"py-spy-{self.label.replace(' ', '_')}-{int(time.time())}.txt"
        done = subprocess.run([spy, "dump", "--pid", str(self.pid)], capture_output=True, text=True,
                              timeout=60, check=False)
        target.write_text(done.stdout + done.stderr)
        return target

    def py_spy_profile(self, folder: Path, seconds: float) -> tuple[Path, list[str]] | None:
        """Sample the thread holding the GIL for ``seconds`` (py-spy record --gil, raw collapsed
        stacks) and say where the CPU went, by the package of the innermost frame: '45 %
        sqlalchemy', … Only the GIL holder: threads waiting for the database or for the GIL
        itself are not work (sampling every thread counted them and hid where the CPU went)."""
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if not Path(spy).exists():
            return None
        target = folder / f"profile-{self.label.replace(' ', '_')}-{int(time.time())}.txt"
        subprocess.run([spy, "record", "--pid", str(self.pid), "--duration", str(max(1, int(seconds))),
                        "--format", "raw", "--rate", "400", "--nonblocking", "--gil",
                        "--output", str(target)],
                       capture_output=True, timeout=seconds + 60, check=False)
        if not target.exists():
            return None
        return target, summarize_profile(target)

    def log_summary(self, top: int = 4) -> list[str]:
        """The server log's exceptions, most frequent first: '<count> × <last line of traceback>'."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        counts: collections.Counter[str] = collections.Counter()
        for block in text.split("Traceback (most recent call last):")[1:]:
            lines = [line for line in block.splitlines() if line and not line.startswith((" ", "\t"))]
            if lines:
                counts[re.sub(r"0x[0-9a-f]+", "0x…", lines[0])[:160]] += 1
        return [f"{n} × {line}" for line, n in counts.most_common(top)]


# Innermost frames that are waits, not work (py-spy samples them as active): network waits in
# psycopg, lock and queue waits, the event loop's own poll.
WAITING = re.compile(r"^(Connection\.wait|wait|wait_c|Condition\.wait|Event\.wait|Queue\.get|"
                     r"Runner\.run|select|poll|_run_once|Lock\.acquire|acquire) \(")


def frame_package(frame: str) -> str:
    """'execute (sqlalchemy/engine/base.py:1412)' → 'sqlalchemy'; the project's own code by its
    top folder (app/…, games/…); the standard library as 'stdlib'."""
    match = re.search(r"\((.*?):\d+\)\s*$", frame)
    path = match.group(1) if match else frame
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    parts = Path(path).parts
    for top in ("app", "games", "bench"):
        if top in parts:
            return "/".join(parts[parts.index(top):parts.index(top) + 2]).removesuffix(".py")
    head = parts[0].removesuffix(".py") if parts else path
    if path.startswith("<") or "python3." in path or head in sys.stdlib_module_names:
        return "stdlib"
    return head


def summarize_profile(path: Path) -> list[str]:
    """Where a py-spy raw profile's CPU went, by the package of the innermost frame, waits apart."""
    by_package: collections.Counter[str] = collections.Counter()
    by_frame: collections.Counter[str] = collections.Counter()
    waiting = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not (stack and count.isdigit()):
            continue
        leaf = stack.rsplit(";", 1)[-1].strip()
        if WAITING.search(leaf):
            waiting += int(count)
            continue
        by_package[frame_package(leaf)] += int(count)
        by_frame[re.sub(r":\d+\)$", ")", leaf)] += int(count)
    busy = sum(by_package.values()) or 1
    shares = [f"{100 * n / busy:.0f} % {name}" for name, n in by_package.most_common(10)]
    hot = [f"{100 * n / busy:.0f} % {name}" for name, n in by_frame.most_common(6)]
    total = busy + waiting
    return [f"busy {100 * busy / total:.0f} % of samples", *shares, "hottest: " + "; ".join(hot)]


def stairs_state_text() -> str:
    """A Stairs snapshot as JSON text, the size of what a match row holds."""
    from games import registry

    return json.dumps(registry.get("stairs").new_state(players=2, seed=1).to_json())


def bare_write_loop(database: Database, clients: int, seconds: float) -> int:
    """Committed 'moves' of ``clients`` threads, each on its own row, for ``seconds``: per move one
    SELECT … FOR UPDATE (SQLite: BEGIN IMMEDIATE + SELECT), one INSERT into a moves-like table and
    one UPDATE of the match row, in one transaction. The floor any move path pays in writes."""
    snapshot = stairs_state_text()
    commits = [0] * clients
    stop = threading.Event()
    if database.kind == "sqlite":
        path = str(database.folder / "bare-loop.db")

        def connect():  # type: ignore[no-untyped-def]
            connection = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA foreign_keys=ON")
            return connection

        begin, lock = "BEGIN IMMEDIATE", "SELECT ply, state FROM bench_matches WHERE id = ?"
        insert = "INSERT INTO bench_moves (match_id, ply, seat, move, at) VALUES (?, ?, ?, ?, ?)"
        update = "UPDATE bench_matches SET ply = ?, version = version + 1, state = ? WHERE id = ?"
    else:
        import psycopg

        def connect():  # type: ignore[no-untyped-def]
            return psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test",
                                   options=f"-csearch_path={database.schema}", autocommit=True)

        begin, lock = "BEGIN", "SELECT ply, state FROM bench_matches WHERE id = %s FOR UPDATE"
        insert = "INSERT INTO bench_moves (match_id, ply, seat, move, at) VALUES (%s, %s, %s, %s, %s)"
        update = "UPDATE bench_matches SET ply = %s, version = version + 1, state = %s WHERE id = %s"
    setup = connect()
    for statement in (
        "CREATE TABLE bench_matches (id VARCHAR(32) PRIMARY KEY, ply INTEGER NOT NULL, "
        "version INTEGER NOT NULL, state TEXT NOT NULL)",
        "CREATE TABLE bench_moves (id INTEGER PRIMARY KEY "
        + ("" if database.kind == "sqlite" else "GENERATED ALWAYS AS IDENTITY ")
        + ", match_id VARCHAR(32) NOT NULL REFERENCES bench_matches(id), ply INTEGER NOT NULL, "
        "seat INTEGER NOT NULL, move VARCHAR(40) NOT NULL, at TIMESTAMP NOT NULL)",
    ):
        setup.execute(statement)
    marker = "?" if database.kind == "sqlite" else "%s"
    for index in range(clients):
        setup.execute(f"INSERT INTO bench_matches VALUES ({marker}, 0, 0, {marker})", (f"m{index}", snapshot))
    setup.close()

    def run(index: int) -> None:
        connection = connect()
        match_id = f"m{index}"
        while not stop.is_set():
            connection.execute(begin)
            ply = connection.execute(lock, (match_id,)).fetchone()[0]
            connection.execute(insert, (match_id, ply, ply % 2, "a1-b2",
                                        time.strftime("%Y-%m-%d %H:%M:%S")))
            connection.execute(update, (ply + 1, snapshot, match_id))
            connection.execute("COMMIT")
            commits[index] += 1
        connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return sum(commits)
