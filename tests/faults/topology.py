"""The deployed topology on this machine, with servers of its own that the fault tests may stop:
Debian nginx (a config generated from ``deploy/nginx.conf``) in front of two uvicorn web
instances, two workers (a leader and a stand-by), a PostgreSQL cluster (``initdb``/``pg_ctl`` in
a temporary folder) and a redis-server, each on a free port.

The machine's shared PostgreSQL (5432) and Redis (6379) are never touched: everything here is
started by the test and only it is stopped or restarted. The first web instance reaches Redis
through a TCP relay of the test's (:class:`RedisProxy`), which passes everything through unless
the kill test holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.live.server import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
REDIS = shutil.which("redis-server")
CLAIM_AFTER_SECONDS = 3.0
SETTINGS = {
    "STEPWELL_SECRET_KEY": "fault-tests",
    "STEPWELL_LOG_FORMAT": "json",
    "STEPWELL_RATE_LIMIT_SCALE": "0",  # every player comes from one address here
    "STEPWELL_CLAIM_AFTER_SECONDS": str(CLAIM_AFTER_SECONDS),
    "STEPWELL_ANALYSIS_WORKERS": "0",
    "STEPWELL_DB_POOL_SIZE": "4",
    # sockets stay where nginx put them: a socket moved by rebalancing reads its match again,
    # which would hide an announcement the kill test must see arrive (tests/http/test_rebalance.py
    # covers rebalancing)
    "STEPWELL_REBALANCE_SECONDS": "0",
}
"""The environment of every process (besides its database and Redis)."""
START_SECONDS = 60.0
"""How long a server may take to answer after it is started (a busy machine)."""


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries (Debian keeps them off the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def missing_tools() -> list[str]:
    return [name for name, path in (("nginx", NGINX), ("redis-server", REDIS),
                                    ("initdb", postgres_bin())) if path is None]


def _wait(check: Callable[[], bool], what: str, seconds: float = START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up within {seconds:.0f} s")
        time.sleep(0.05)


def _as_postgres() -> dict[str, Any]:
    """PostgreSQL refuses to run as root: under root its commands run as the postgres user."""
    return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}


class OwnPostgres:
    """A PostgreSQL cluster in ``folder``, listening on 127.0.0.1 and a free port."""

    def __init__(self) -> None:
        binaries = postgres_bin()
        assert binaries is not None
        self.bin = binaries
        # not under pytest's folders: those are private to the user running the tests
        self.folder = folder = Path(tempfile.mkdtemp(prefix="stepwell-faults-pg-"))
        self.data = folder / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([str(self.bin / tool), *args], check=False, capture_output=True,
                              text=True, timeout=120, cwd=self.folder, **_as_postgres())
        assert done.returncode == 0, f"{tool} failed: {done.stderr or done.stdout}"

    def url(self, database: str = "stepwell", driver: str = "postgresql+psycopg") -> str:
        return f"{driver}://postgres@127.0.0.1:{self.port}/{database}"

    def libpq_env(self, database: str = "stepwell") -> dict[str, str]:
        """The environment the documented pg_dump/pg_restore commands read."""
        return {"PGHOST": "127.0.0.1", "PGPORT": str(self.port), "PGUSER": "postgres",
                "PGDATABASE": database}

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "postgres.log"),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        """A fast shutdown: open sessions are ended, as in a restart for an upgrade."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def answers(self) -> bool:
        done = subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p",
                               str(self.port)], check=False, timeout=10)
        return done.returncode == 0

    def create_database(self, name: str) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


class OwnRedis:
    """A redis-server on a free port, keeping nothing on disk (a restart loses every key)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert REDIS is not None
        self.process = subprocess.Popen(
            [REDIS, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(self.answers, "redis-server")

    def answers(self) -> bool:
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    close = stop


class Process:
    """A web instance or a worker: one command line and environment, restartable."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log_dir: Path,
                 port: int | None = None) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.log_dir = log_dir
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> None:
        self.starts += 1
        log = (self.log_dir / f"{self.name}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(self.command, env=self.env, cwd=ROOT, stdout=log,
                                        stderr=subprocess.STDOUT)
        log.close()
        if wait:
            self.wait_ready()

    def ready(self) -> bool:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited; see {self.log_dir}/{self.name}-{self.starts}.log")
        if self.port is None:
            return True
        try:
            return httpx.get(f"{self.base}/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_ready(self) -> None:
        _wait(self.ready, self.name)

    def terminate(self, seconds: float = 30) -> int | None:
        """SIGTERM and wait for the exit (a deploy's stop); its exit status."""
        if self.process is None:
            return None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
            raise AssertionError(f"{self.name} did not exit within {seconds} s of SIGTERM") from None
        finally:
            self.process = None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def close(self) -> None:
        if self.alive():
            with contextlib.suppress(Exception):
                self.terminate(seconds=15)
        self.kill()


def nginx_config(template: str, folder: Path, listen: int, upstreams: list[int]) -> str:
    """``deploy/nginx.conf`` for this machine: the Docker name ``app`` becomes the instances'
    ports (with the same ``max_fails``/``fail_timeout``), Docker's resolver goes, nginx listens
    on ``listen`` and keeps its pid, logs and temporary files in ``folder``."""
    found = re.search(r"^\s*server\s+app:8000\s+resolve\s*([^;]*);\s*$", template, re.M)
    assert found, "deploy/nginx.conf names its upstream `server app:8000 resolve …;`"
    servers = "\n".join(f"    server 127.0.0.1:{port} {found[1]};" for port in upstreams)
    config = template.replace(found[0], servers)
    config = re.sub(r"^\s*resolver\s[^;]*;\s*$", "", config, flags=re.M)
    config, listens = re.subn(r"listen\s+80\s*;", f"listen 127.0.0.1:{listen};", config)
    assert listens == 1, "deploy/nginx.conf listens on port 80 once"
    here = {"client_body_temp_path": "body", "proxy_temp_path": "proxy",
            "fastcgi_temp_path": "fastcgi", "uwsgi_temp_path": "uwsgi", "scgi_temp_path": "scgi"}
    paths = "".join(f"  {name} {folder / sub};\n" for name, sub in here.items())
    config = config.replace("http {", "http {\n" + paths
                            + f"  access_log {folder / 'access.log'};\n", 1)
    return (f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
            + config)


class Nginx:
    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        assert NGINX is not None
        self.folder = folder
        self.port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o777)  # nginx's workers run as an unprivileged user when started by root
        self.config = folder / "nginx.conf"
        self.config.write_text(nginx_config((ROOT / "deploy/nginx.conf").read_text(), folder,
                                            self.port, upstreams))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert NGINX is not None
        checked = subprocess.run([NGINX, "-t", "-p", str(self.folder), "-c", str(self.config),
                                  "-e", str(self.folder / "error.log")],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.config), "-e",
             str(self.folder / "error.log")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def answers() -> bool:
            assert self.process is not None and self.process.poll() is None, "nginx exited"
            try:
                return httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        _wait(answers, "nginx")

    def close(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: let the workers finish
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None


class RedisProxy:
    """A TCP relay between one process and Redis whose forwarding the test can hold: what the
    process sends while held is kept back, and thrown away if the process dies meanwhile. So a
    committed move's publication can be caught between the commit and Redis, and the process
    killed there."""

    def __init__(self, redis_port: int) -> None:
        self.redis_port = redis_port
        self.port = free_port()
        self.flowing = threading.Event()
        self.flowing.set()
        self._generation = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def hold(self) -> None:
        self.flowing.clear()

    def release(self, drop: bool = False) -> None:
        """Let commands through again; ``drop``: what was held is thrown away with its
        connection (its process is dead: it never reached Redis)."""
        if drop:
            self._generation += 1
        self.flowing.set()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def _relay(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
                     ) -> None:
        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.redis_port)
        except OSError:
            client_out.close()
            return

        async def upstream() -> None:  # the process's commands: held while not flowing
            while data := await client_in.read(65536):
                generation = self._generation
                while not self.flowing.is_set():
                    await asyncio.sleep(0.01)
                if generation != self._generation:
                    return  # dropped while held: it goes nowhere
                server_out.write(data)
                await server_out.drain()

        async def downstream() -> None:
            while data := await server_in.read(65536):
                client_out.write(data)
                await client_out.drain()

        tasks = [asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())]
        with contextlib.suppress(Exception):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for writer in (client_out, server_out):
            writer.close()

    def close(self) -> None:
        async def shut() -> None:
            if self._server is not None:
                self._server.close()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shut(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


class Topology:
    """Everything a deploy runs, on this machine; ``close`` ends what it started."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.closers: list[Callable[[], None]] = []
        self.postgres = OwnPostgres()
        self.closers.append(self.postgres.close)
        self.postgres.start()
        self.postgres.create_database("stepwell")
        from app.db.migrate import upgrade

        upgrade(self.postgres.url())
        (folder / "redis").mkdir()
        self.redis = OwnRedis(folder / "redis")
        self.closers.append(self.redis.close)
        self.redis.start()
        self.logs = folder / "logs"
        self.logs.mkdir()
        # web0 reaches Redis through a relay that only the kill test ever holds (it lets a
        # publication be caught between commit and Redis); a restart of web0 keeps it
        self.relay = RedisProxy(self.redis.port)
        self.closers.append(self.relay.close)
        self.webs = [self._web(i) for i in range(2)]
        self.workers = [self._worker(i) for i in range(2)]
        for process in [*self.webs, *self.workers]:
            self.closers.append(process.close)
            process.start(wait=False)
        for process in self.webs:
            process.wait_ready()
        self.nginx = Nginx(folder / "nginx", [web.port for web in self.webs if web.port])
        self.closers.append(self.nginx.close)
        self.nginx.start()

    def env(self, **overrides: str) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items()
               if not key.startswith("STEPWELL_") and key not in ("DATABASE_URL", "REDIS_URL",
                                                                  "SECRET_KEY")}
        return {**env, **SETTINGS, "STEPWELL_DATABASE_URL": self.postgres.url(),
                "STEPWELL_REDIS_URL": self.redis.url, **overrides}

    def _web(self, index: int) -> Process:
        port = free_port()
        command = [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory",
                   "--host", "127.0.0.1", "--port", str(port), "--proxy-headers",
                   "--forwarded-allow-ips", "*", "--no-access-log",
                   "--ws-per-message-deflate", "false", "--timeout-graceful-shutdown", "15"]
        redis = {"STEPWELL_REDIS_URL": self.relay.url} if index == 0 else {}
        return Process(f"web{index}", command,
                       self.env(STEPWELL_BACKGROUND_JOBS="off", **redis), self.logs, port)

    def _worker(self, index: int) -> Process:
        return Process(f"worker{index}", [sys.executable, "-m", "app.worker"],
                       self.env(STEPWELL_BOT_WORKERS="1"), self.logs)

    @property
    def base(self) -> str:
        """Where players go: nginx."""
        return self.nginx.base

    def healthy(self) -> None:
        """Every server up and answering (a test leaves the topology as it found it)."""
        if not self.postgres.answers():
            self.postgres.start()
        self.relay.release()
        if not self.redis.answers():
            self.redis.start()
        for process in self.webs:
            if not process.alive():
                process.start(wait=False)
        for process in self.workers:
            if not process.alive():
                process.start(wait=False)
        for process in self.webs:
            process.wait_ready()

    def close(self) -> None:
        for process in [*self.webs, *self.workers]:  # all at once: their drains overlap
            if process.alive() and process.process is not None:
                process.process.send_signal(signal.SIGTERM)
        for process in [*self.webs, *self.workers]:
            if process.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.process.wait(timeout=20)
        for close in reversed(self.closers):
            with contextlib.suppress(Exception):
                close()
