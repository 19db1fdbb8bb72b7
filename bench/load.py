"""Stepwell's own load client: fan-out, closed-loop and idle-socket runs against the real server,
each beside a bare baseline measured in the same invocation, on SQLite or PostgreSQL.

  fan-out      M matches × (2 players + W spectators), R moves/s per match, random legal Stairs
               moves: delivery p50/p95/p99 (move sent → each socket has that ply), errors by kind,
               moves sent/committed, server CPU ms per move. Baseline: bench/bare_server.py (an
               in-memory Starlette broadcast server) driven by the same client code.
  closed loop  C clients, each playing its own match as fast as answers come back: committed
               moves/s, server CPU ms per move. Baselines: a plain sqlite3/psycopg loop doing the
               same writes per move (SELECT … FOR UPDATE, INSERT, UPDATE), and the bare server.
  idle         N sockets watching matches at rest: RSS per socket, CPU at rest, messages sent.

The machine is shared and small, so figures are noisy: read the ratios to the baseline of the
same run. Run by hand (never as a timed test), e.g.

  .venv/bin/python bench/load.py --db sqlite --matches 100 --spectators 3 --rate 1
  .venv/bin/python bench/load.py --db postgres --matches 1000 --spectators 0 --rate 0.2
  .venv/bin/python bench/load.py --db both --closed-loop 16
  .venv/bin/python bench/load.py --idle-sockets 10000
  .venv/bin/python bench/load.py --db postgres --instances 2 --matches 100 --spectators 3 --rate 1

The servers are started here (uvicorn, free ports, fresh database, bots off, rate limits off:
``STEPWELL_RATE_LIMIT_SCALE=0``, since every guest comes from one address) unless ``--url`` is
given. Needs the bench extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_client import Api, Stats, closed_loop, fan_out, idle_sockets, make_tables, percentile
from load_servers import REDIS, Database, Server, bare_write_loop, connections_to


@dataclass
class Row:
    """One line of a result table."""

    scenario: str
    target: str
    kind: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit (servers started from here inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Targets:
    """The servers of one row: started here (and stopped after) or given by --url."""

    def __init__(self, args: argparse.Namespace, label: str, servers: list[Server],
                 database: Database | None, bases: list[str] | None = None,
                 pids: list[int] | None = None) -> None:
        self.args, self.label, self.servers, self.database = args, label, servers, database
        self.redis: str | None = None
        self.bases = bases or [server.base for server in servers]
        self.pids = pids if pids is not None else [server.pid for server in servers]

    @classmethod
    def bare(cls, args: argparse.Namespace, folder: Path) -> Targets:
        server = Server.bare(folder)
        server.wait_ready()
        return cls(args, "bare server", [server], None)

    @classmethod
    def app(cls, args: argparse.Namespace, db: str, instances: int) -> Targets:
        if args.url:
            return cls(args, "stepwell (--url)", [], None, bases=args.url, pids=args.server_pid or [])
        database = Database.fresh(db)
        redis = REDIS if instances > 1 or args.redis else None
        extra = {}
        if redis:  # the instances of a run share keys and channels no other run or test uses
            extra["STEPWELL_REDIS_PREFIX"] = f"bench-{database.folder.name}:"
        extra.update(item.split("=", 1) for item in args.server_env)
        label = f"stepwell {db}" + (f" ×{instances}" if instances > 1 else " +redis" if redis else "")
        servers = [Server.app(f"{label} {i}" if instances > 1 else label, database.url, database.folder,
                              redis, extra) for i in range(instances)]
        try:
            for server in servers:
                server.wait_ready()
        except Exception:
            for server in servers:
                server.stop()
            database.drop()
            raise
        targets = cls(args, label, servers, database)
        targets.redis = redis
        return targets

    def cpu(self) -> float | None:
        from load_servers import cpu_seconds

        return sum(cpu_seconds(pid) for pid in self.pids) if self.pids else None

    def rss(self) -> int | None:
        from load_servers import rss_kib

        return sum(rss_kib(pid) for pid in self.pids) if self.pids else None

    def stop(self, row: Row) -> None:
        for server in self.servers:
            row.notes += [f"server log ({server.label}): {line}" for line in server.log_summary()]
            server.stop()
        if self.database and not self.args.keep:
            self.database.drop()


def window(targets: Targets) -> tuple[float, float | None]:
    return client_cpu(), targets.cpu()


def close_window(row: Row, targets: Targets, start: tuple[float, float | None], wall: float,
                 moves: int) -> None:
    client, server = start
    row.values["client CPU %"] = 100 * (client_cpu() - client) / wall
    end = targets.cpu()
    if server is not None and end is not None:
        row.values["srv CPU %"] = 100 * (end - server) / wall
        if moves:
            row.values["CPU ms/move"] = 1000 * (end - server) / moves


def add_stats(row: Row, stats: Stats) -> None:
    v = row.values
    v.update({"sched": stats.scheduled or None, "sent": stats.sent, "acked": stats.acked,
              "committed": stats.committed,
              "delivered %": 100 * stats.delivered / stats.expected_deliveries
              if stats.expected_deliveries else None,
              "p50 ms": percentile(stats.delivery_ms, 0.50), "p95 ms": percentile(stats.delivery_ms, 0.95),
              "p99 ms": percentile(stats.delivery_ms, 0.99), "max ms": percentile(stats.delivery_ms, 1.0),
              "ack p50": percentile(stats.ack_ms, 0.50), "ack p99": percentile(stats.ack_ms, 0.99),
              "errors": sum(stats.errors.values()), "setup errors": sum(stats.setup_errors.values())})
    if stats.errors:
        row.notes.append("errors: " + ", ".join(f"{k} ×{n}" for k, n in stats.errors.most_common()))
    if stats.setup_errors:
        row.notes.append("setup errors: " + ", ".join(f"{k} ×{n}" for k, n in
                                                    stats.setup_errors.most_common()))
    row.notes.append("messages received: " + ", ".join(f"{k} {n}" for k, n in stats.messages.most_common())
                     + f"; matches renewed {stats.renewed}")


async def spy_later(args: argparse.Namespace, targets: Targets, delay: float, row: Row) -> None:
    """Halfway through the window: each started server's Redis connections (when it has Redis)
    and, with --py-spy, a dump of its threads' stacks."""
    await asyncio.sleep(delay)
    if targets.redis:
        counts = [connections_to(server.pid, int(targets.redis.rsplit(":", 1)[1].split("/")[0]))
                  for server in targets.servers]
        row.values["redis conns"] = "/".join(map(str, counts))
    if args.profile:
        for server in targets.servers:
            result = await asyncio.to_thread(server.py_spy_profile, args.folder, min(args.profile, delay))
            if result:
                row.notes.append(f"profile ({server.label}, innermost frame's package): "
                                 + ", ".join(result[1]) + f" — {result[0]}")
    if not args.py_spy:
        return
    for server in targets.servers:
        path = await asyncio.to_thread(server.py_spy_dump, args.folder)
        row.notes.append(f"py-spy dump ({server.label}): {path}")


async def run_fan_out(args: argparse.Namespace, targets: Targets, scenario: str) -> Row:
    row = Row(scenario, targets.label, "fan-out")
    stats = Stats()
    apis = [Api(base, args.timeout) for base in targets.bases]
    try:
        tables = await make_tables(stats, apis, args.matches, args.spectators, compress=args.compress,
                                   moves_via=args.moves_via, timeout=args.timeout, seed=args.seed,
                                   setup_limit=args.setup_concurrency)
        row.values["matches"] = len(tables)
        row.values["sockets"] = sum(len(t.socks) for t in tables)
        start = window(targets)
        spy = asyncio.create_task(spy_later(args, targets, args.duration / 2, row))
        wall = await fan_out(tables, args.rate, args.duration, args.drain)
        close_window(row, targets, start, wall, stats.committed)
        await spy
        for table in tables:
            await table.close()
    finally:
        for api in apis:
            await api.close()
    add_stats(row, stats)
    return row


async def run_closed_loop(args: argparse.Namespace, targets: Targets, scenario: str) -> Row:
    row = Row(scenario, targets.label, "closed loop")
    stats = Stats()
    apis = [Api(base, args.timeout) for base in targets.bases]
    try:
        tables = await make_tables(stats, apis, args.closed_loop, 0, compress=args.compress,
                                   moves_via=args.moves_via, timeout=args.timeout, seed=args.seed,
                                   setup_limit=args.setup_concurrency)
        row.values["clients"] = len(tables)
        start = window(targets)
        spy = asyncio.create_task(spy_later(args, targets, args.duration / 2, row))
        wall = await closed_loop(tables, args.duration)
        close_window(row, targets, start, wall, stats.committed)
        await spy
        row.values["moves/s"] = stats.committed / wall
        for table in tables:
            await table.close()
    finally:
        for api in apis:
            await api.close()
    add_stats(row, stats)
    return row


async def run_idle(args: argparse.Namespace, targets: Targets, scenario: str) -> Row:
    row = Row(scenario, targets.label, "idle")
    stats = Stats()
    api = Api(targets.bases[0], args.timeout)
    try:
        await asyncio.sleep(1)
        rss_before = targets.rss()
        sockets = await idle_sockets(api, stats, args.idle_sockets, args.idle_per_match, args.compress,
                                     args.setup_concurrency)
        await asyncio.sleep(args.settle)
        opening = dict(stats.messages)
        rss_open = targets.rss()
        start = window(targets)
        began = time.monotonic()
        spy = asyncio.create_task(spy_later(args, targets, args.duration / 4, row))
        await asyncio.sleep(args.duration)
        wall = time.monotonic() - began
        close_window(row, targets, start, wall, 0)
        await spy
        at_rest = sum(stats.messages.values()) - sum(opening.values())
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        await asyncio.sleep(args.settle)
        rss_closed = targets.rss()
    finally:
        await api.close()
    v = row.values
    v["sockets"] = len(sockets)
    if rss_before is not None and rss_open is not None and sockets:
        v.update({"RSS MiB before": rss_before / 1024, "RSS MiB open": rss_open / 1024,
                  "KiB/socket": (rss_open - rss_before) / len(sockets),
                  "RSS MiB closed": (rss_closed or 0) / 1024})
    v["msgs opening"] = sum(opening.values())
    v["msgs at rest"] = at_rest
    v["setup errors"] = sum(stats.setup_errors.values())
    row.notes.append("messages while opening: " + ", ".join(f"{k} {n}" for k, n in opening.items()))
    if stats.setup_errors:
        row.notes.append("setup errors: " + ", ".join(f"{k} ×{n}" for k, n in
                                                    stats.setup_errors.most_common()))
    return row


def run_db_loop(args: argparse.Namespace, db: str) -> Row:
    row = Row("closed loop", f"bare {db} write loop", "closed loop")
    database = Database.fresh(db, migrate=False)
    try:
        before = client_cpu()
        began = time.monotonic()
        commits = bare_write_loop(database, args.closed_loop, args.duration)
        wall = time.monotonic() - began
        row.values.update({"clients": args.closed_loop, "committed": commits, "moves/s": commits / wall,
                           "client CPU %": 100 * (client_cpu() - before) / wall, "errors": 0})
    finally:
        database.drop()
    return row


async def with_targets(make, run, args: argparse.Namespace, scenario: str) -> Row:  # type: ignore[no-untyped-def]
    targets = await asyncio.to_thread(make)
    row = Row(scenario, targets.label)
    try:
        row = await run(args, targets, scenario)
    finally:
        targets.stop(row)
    return row


async def main_async(args: argparse.Namespace, folder: Path) -> list[Row]:
    rows: list[Row] = []
    databases = ["sqlite", "postgres"] if args.db == "both" else [args.db]

    def bare() -> Targets:
        return Targets.bare(args, folder)

    def app(db: str, instances: int = 1):  # type: ignore[no-untyped-def]
        return lambda: Targets.app(args, db, instances)

    def show(row: Row) -> Row:
        rows.append(row)
        print(f"  … {row.scenario}: {row.target} done", file=sys.stderr, flush=True)
        return row

    if args.fan_out:
        scenario = (f"fan-out {args.matches}×(2+{args.spectators}) @ {args.rate}/s, "
                    f"moves via {args.moves_via}")
        if not args.no_baseline:
            show(await with_targets(bare, run_fan_out, args, scenario))
        for db in databases:
            show(await with_targets(app(db), run_fan_out, args, scenario))
            if args.instances > 1:
                show(await with_targets(app(db, args.instances), run_fan_out, args, scenario))
    if args.closed_loop:
        scenario = f"closed loop, {args.closed_loop} clients, moves via {args.moves_via}"
        if not args.no_baseline:
            show(await with_targets(bare, run_closed_loop, args, scenario))
        for db in databases:
            if not args.no_baseline:
                show(await asyncio.to_thread(run_db_loop, args, db))
                rows[-1].scenario = scenario
            show(await with_targets(app(db), run_closed_loop, args, scenario))
    if args.idle_sockets:
        scenario = f"idle: {args.idle_sockets} sockets, {args.idle_per_match} a match"
        if not args.no_baseline:
            show(await with_targets(bare, run_idle, args, scenario))
        for db in databases:
            show(await with_targets(app(db), run_idle, args, scenario))
    return rows


def fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


COLUMNS = ["matches", "sockets", "clients", "sched", "sent", "acked", "committed", "moves/s", "delivered %",
           "p50 ms", "p95 ms", "p99 ms", "max ms", "ack p50", "ack p99", "errors", "setup errors",
           "CPU ms/move", "srv CPU %", "client CPU %", "redis conns", "RSS MiB before", "RSS MiB open",
           "KiB/socket", "RSS MiB closed", "msgs opening", "msgs at rest"]


def print_tables(rows: list[Row]) -> None:
    for scenario in dict.fromkeys(row.scenario for row in rows):
        group = [row for row in rows if row.scenario == scenario]
        present = {key for row in group for key in row.values}
        columns = [c for c in COLUMNS if c in present] + sorted(present - set(COLUMNS))
        cells = [["target", *columns]] + [[row.target, *(fmt(row.values.get(c)) for c in columns)]
                                          for row in group]
        widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
        print(f"\n## {scenario}")
        for index, line in enumerate(cells):
            print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                            for i, (cell, w) in enumerate(zip(line, widths, strict=True))))
            if index == 0:
                print("  ".join("-" * w for w in widths))
        for line in ratios(group):
            print(line)
        for row in group:
            for note in row.notes:
                print(f"  [{row.target}] {note}")


def ratios(group: list[Row]) -> list[str]:
    """Each server row against the baseline row of the same scenario."""
    lines = []
    bare = next((r for r in group if r.target == "bare server"), None)
    for row in group:
        if row.values.get("sched"):
            lines.append(f"  {row.target}: sent {100 * row.values['sent'] / row.values['sched']:.0f} % of "
                         "the scheduled moves (a player moves once it has seen the last ply)")
        if row is bare:
            continue
        if bare and row.values.get("p99 ms") and bare.values.get("p99 ms"):
            ratio = row.values["p99 ms"] / bare.values["p99 ms"]
            lines.append(f"  p99 {row.target} / bare server: {ratio:.2f}×")
        loop = next((r for r in group if r.target.startswith("bare ") and r.target.endswith("write loop")
                     and r.target.split()[1] in row.target and r is not row), None)
        if loop and row.values.get("moves/s") is not None and loop.values.get("moves/s"):
            lines.append(f"  moves/s {row.target} / {loop.target}: "
                         f"{100 * row.values['moves/s'] / loop.values['moves/s']:.0f} %")
    single = next((r for r in group if r.target.startswith("stepwell") and "×" not in r.target), None)
    for row in group:
        if single and "×" in row.target and row.values.get("p99 ms") and single.values.get("p99 ms"):
            lines.append(f"  p99 {row.target} / {single.target}: "
                         f"{row.values['p99 ms'] / single.values['p99 ms']:.2f}×")
    return lines


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--matches", type=int, help="fan-out: concurrent matches (default 100)")
    parser.add_argument("--spectators", type=int, default=3, help="fan-out: spectators per match")
    parser.add_argument("--rate", type=float, default=1.0, help="fan-out: moves per second per match")
    parser.add_argument("--closed-loop", type=int, default=0, metavar="C", help="closed loop with C clients")
    parser.add_argument("--idle-sockets", type=int, default=0, metavar="N", help="idle run with N sockets")
    parser.add_argument("--idle-per-match", type=int, default=50, help="idle: sockets per match")
    parser.add_argument("--instances", type=int, default=1,
                        help="also run the app as this many instances (PostgreSQL + Redis), beside one")
    parser.add_argument("--redis", action="store_true", help="give single instances REDIS_URL too")
    parser.add_argument("--moves-via", choices=["rest", "socket"], default="rest")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load per row")
    parser.add_argument("--drain", type=float, default=2.0,
                        help="seconds to wait for the last deliveries after the last answer")
    parser.add_argument("--settle", type=float, default=3.0, help="idle: seconds before measuring")
    parser.add_argument("--timeout", type=float, default=35.0,
                        help="client timeout per request (above the server's 30 s pool timeout)")
    parser.add_argument("--setup-concurrency", type=int, default=8)
    parser.add_argument("--no-compress", dest="compress", action="store_const", const=0, default=15,
                        help="do not offer permessage-deflate (browsers do, so the default does)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the baseline rows")
    parser.add_argument("--url", action="append", help="drive this running server instead (repeatable)")
    parser.add_argument("--server-pid", type=int, action="append", help="with --url: pid(s) for CPU/RSS")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for the started app servers")
    parser.add_argument("--py-spy", action="store_true", help="dump the servers' stacks mid-run")
    parser.add_argument("--profile", type=float, default=0, metavar="SECONDS",
                        help="sample the servers with py-spy for this long mid-run, CPU by package")
    parser.add_argument("--keep", action="store_true", help="keep the databases and logs")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.fan_out = args.matches is not None or not (args.closed_loop or args.idle_sockets)
    if args.matches is None:
        args.matches = 100
    if args.instances > 1 and args.db != "postgres":
        parser.error("--instances needs --db postgres (instances share one database)")
    if (args.instances > 1 or args.redis) and not args.url:
        import redis

        try:
            redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
        except redis.RedisError as error:
            parser.error(f"--instances/--redis need Redis at {REDIS}: {error}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    sockets = max(args.matches * (2 + args.spectators) if args.fan_out else 0, args.idle_sockets)
    limit = raise_file_limit(2 * sockets + 1024)
    if limit < sockets + 256:
        print(f"warning: open-file limit {limit} is below what {sockets} sockets need", file=sys.stderr)
    folder = args.folder = Database(kind="logs", url="").folder
    print(f"bench/load.py {' '.join(sys.argv[1:])}  (logs in {folder})", flush=True)
    rows = asyncio.run(main_async(args, folder))
    print_tables(rows)
    if args.json:
        args.json.write_text(json.dumps([row.__dict__ for row in rows], indent=1, default=str))


if __name__ == "__main__":
    main()
