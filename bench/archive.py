"""The archive search over many stored games, on PostgreSQL: the app's own query code
(``app/people/archive_search.py``) beside the bare hand-written SQL of the same search, in one run.

    .venv/bin/python bench/archive.py                 # 1,000,000 games (a few minutes to load)
    .venv/bin/python bench/archive.py --games 20000   # quicker
    .venv/bin/python bench/archive.py --keep          # keep the schema (and reuse it next time)

The games go into a scratch schema (``bench_archive``; dropped at the end unless ``--keep``)
migrated by the real migrations, through ``COPY``: users whose activity is skewed (a few bots
and regulars play most games, like a real site), two-seat games of the four games, a result and
end reason each, finished over two years, each with its ``archive_entries`` rows. Each search is
timed through ``archive_search.search`` (the query, then the page's rows: what the API answers)
and ``found_ids`` (the query alone), beside the bare SQL run through the driver, and its
``EXPLAIN ANALYZE`` says which index answered. Times in milliseconds, median and worst of
``--repeat`` runs, warm cache. Results: bench/results/archive.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, pool, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlalchemy.orm import Session, sessionmaker  # noqa: E402

from app.db.migrate import upgrade  # noqa: E402
from app.http.paging import PageRequest  # noqa: E402
from app.people import archive_search  # noqa: E402
from app.people.archive_search import GameSearch  # noqa: E402

DEFAULT_SERVER = os.environ.get("BENCH_DATABASE_URL",
                                "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SCHEMA = "bench_archive"
GAMES = ("stairs", "sight", "scalas", "town")
REASONS = ("resigned", "time_out", "highest_piece", "no_legal_move", "draw_agreed")
START = datetime(2025, 1, 1)
SPAN_SECONDS = 2 * 365 * 86400
PAGE = 20
INDEX_USED = re.compile(r"(?:Index (?:Only )?Scan (?:Backward )?using|Bitmap Index Scan on) (\w+)")


def schema_url(server: str, schema: str) -> str:
    return (make_url(server).update_query_dict({"options": f"-csearch_path={schema}"})
            .render_as_string(hide_password=False))


def _copy(cursor: Any, table: str, columns: str, rows: Iterator[str]) -> None:
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        buffer = io.StringIO()
        for row in rows:
            buffer.write(row)
            if buffer.tell() > 1 << 20:
                copy.write(buffer.getvalue())
                buffer = io.StringIO()
        copy.write(buffer.getvalue())


def generate(url: str, games: int, users: int, seed: int) -> dict[str, Any]:
    """Load ``games`` finished games among ``users`` users; returns facts the searches use."""
    rng = random.Random(seed)
    weights = [1.0 / (rank + 1) ** 0.9 for rank in range(users)]  # a few play most games
    cumulative, total = [], 0.0
    for weight in weights:
        total += weight
        cumulative.append(total)
    engine = create_engine(url, poolclass=pool.NullPool)
    raw = engine.raw_connection()
    cursor = raw.cursor()
    created = START.isoformat(sep=" ")
    _copy(cursor, "users", "id, name, kind, username, created_at, last_seen_at",
          (f"{uid}\tPlayer {uid}\t{'bot' if uid <= 3 else 'account'}\tp{uid}\t{created}\t"
           f"{created}\n" for uid in range(1, users + 1)))

    def pick() -> int:
        return rng.choices(range(1, users + 1), cum_weights=cumulative, k=1)[0]

    plan = []
    for number in range(games):
        first = pick()
        second = pick()
        while second == first:
            second = pick()
        game = GAMES[number % 4] if rng.random() < 0.5 else rng.choice(GAMES)
        ended = START + timedelta(seconds=rng.randrange(SPAN_SECONDS))
        draw = rng.random() < 0.05
        winner = None if draw else rng.randrange(2)
        reason = "draw_agreed" if draw else rng.choice(REASONS[:4])
        rated = rng.random() < 0.6
        swap = rng.random() < 0.3
        plan.append((f"g{number:010d}"[:12], first, second, game, ended, winner, reason, rated,
                     swap))

    def match_rows() -> Iterator[str]:
        for match_id, _, _, game, ended, winner, reason, rated, swap in plan:
            winners = "[]" if winner is None else f"[{winner}]"
            ranking = "[[0, 1]]" if winner is None else f"[[{winner}], [{1 - winner}]]"
            result = f'{{"winners": {winners}, "ranking": {ranking}, "reason": "{reason}"}}'
            options = f'{{"swap": {"true" if swap and game == "stairs" else "false"}}}'
            when = ended.isoformat(sep=" ")
            begun = (ended - timedelta(minutes=20)).isoformat(sep=" ")
            yield (f"{match_id}\t{game}\t{options}\t{rng.getrandbits(64)}\t2\tfinished\t"
                   f"{'t' if rated else 'f'}\t\\N\t\\N\t\\N\t\\N\t[]\t3\t3\t\\N\tf\t\\N\t1\t40\t"
                   f"{{}}\t{result}\t\\N\t{begun}\t{begun}\t{when}\t{when}\n")

    _copy(cursor, "matches",
          "id, game, options, seed, num_seats, status, rated, time_control, clock, deadline_at, "
          "offers, eliminated, version, announced_version, rematch_of, sealed, tournament_id, "
          "rules_version, ply, snapshot, result, created_by, created_at, started_at, "
          "finished_at, updated_at", match_rows())

    def player_rows() -> Iterator[str]:
        for match_id, first, second, _, ended, *_ in plan:
            when = ended.isoformat(sep=" ")
            yield f"{match_id}\t0\t{first}\t{when}\n{match_id}\t1\t{second}\t{when}\n"

    _copy(cursor, "match_players", "match_id, seat, user_id, joined_at", player_rows())

    def entry_rows() -> Iterator[str]:
        for match_id, first, second, game, ended, winner, _, rated, _ in plan:
            when, flag = ended.isoformat(sep=" "), "t" if rated else "f"
            for seat, user in ((0, first), (1, second)):
                outcome = "draw" if winner is None else ("win" if winner == seat else "loss")
                yield f"{match_id}\t{seat}\t{user}\t{game}\t{flag}\t{outcome}\t{when}\n"

    _copy(cursor, "archive_entries", "match_id, seat, user_id, game, rated, outcome, finished_at",
          entry_rows())
    raw.commit()
    cursor.execute("ANALYZE")
    raw.commit()
    raw.close()
    engine.dispose()
    return facts_of(url, users)


def facts_of(url: str, users: int) -> dict[str, Any]:
    """What :func:`generate` returns, read back from a kept schema."""
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        rows = connection.execute(text(
            "select least(a.user_id, b.user_id), greatest(a.user_id, b.user_id), count(*) "
            "from match_players a join match_players b on a.match_id = b.match_id "
            "and a.seat = 0 and b.seat = 1 where a.user_id <= 3 or b.user_id <= 3 "
            "group by 1, 2 order by 3 desc")).all()
    engine.dispose()
    return {"frequent_pair": (rows[0][0], rows[0][1]),
            "rare_pair": (rows[len(rows) // 2][0], rows[len(rows) // 2][1]),
            "typical": users // 20}


ENTRY_SQL = ("select e.match_id, e.finished_at, e.outcome from archive_entries e "
             "join matches m on m.id = e.match_id where e.user_id = %(player)s {more} "
             "and m.sealed = false order by e.finished_at desc, e.match_id desc limit 21")
BY_OPPONENT_SQL = (
    "select e.match_id, e.finished_at, e.outcome from archive_entries o "
    "join archive_entries e on e.match_id = o.match_id and e.user_id = %(player)s "
    "and e.seat <> o.seat join matches m on m.id = e.match_id where o.user_id = %(opponent)s "
    "and m.sealed = false order by o.finished_at desc, o.match_id desc limit 21")
"""The opponent has played far fewer games than the player: walk theirs (the app decides the
same by counting both, up to 2,000 each)."""
MATCH_SQL = ("select m.id, m.finished_at from matches m where m.status = 'finished' "
             "and m.finished_at is not null {more} and m.sealed = false "
             "order by m.finished_at desc, m.id desc limit 21")


def searches(facts: dict[str, Any]) -> list[tuple[str, GameSearch, str, dict[str, Any]]]:
    """(label, the app's search, the bare SQL, its parameters): the typical searches."""
    heavy, typical = 1, facts["typical"]
    frequent, rare = facts["frequent_pair"], facts["rare_pair"]
    year = datetime(2026, 3, 1), datetime(2026, 3, 8)
    opponent = ("and exists (select 1 from archive_entries o where o.match_id = e.match_id "
                "and o.user_id = %(opponent)s and o.seat <> e.seat)")
    return [
        ("heaviest player, newest first", GameSearch(player_id=heavy),
         ENTRY_SQL.format(more=""), {"player": heavy}),
        ("typical player, newest first", GameSearch(player_id=typical),
         ENTRY_SQL.format(more=""), {"player": typical}),
        ("heaviest player + game (town)", GameSearch(player_id=heavy, game="town"),
         ENTRY_SQL.format(more="and e.game = %(game)s"), {"player": heavy, "game": "town"}),
        ("heaviest player + result (draw)", GameSearch(player_id=heavy, result="draw"),
         ENTRY_SQL.format(more="and e.outcome = %(result)s"), {"player": heavy, "result": "draw"}),
        ("player + frequent opponent", GameSearch(player_id=frequent[0], opponent_id=frequent[1]),
         ENTRY_SQL.format(more=opponent), {"player": frequent[0], "opponent": frequent[1]}),
        ("player + rare opponent", GameSearch(player_id=rare[0], opponent_id=rare[1]),
         BY_OPPONENT_SQL, {"player": rare[0], "opponent": rare[1]}),
        ("heaviest player + a week", GameSearch(player_id=heavy, since=year[0], before=year[1]),
         ENTRY_SQL.format(more="and e.finished_at >= %(since)s and e.finished_at < %(before)s"),
         {"player": heavy, "since": year[0], "before": year[1]}),
        ("everyone, a week", GameSearch(since=year[0], before=year[1]),
         MATCH_SQL.format(more="and m.finished_at >= %(since)s and m.finished_at < %(before)s"),
         {"since": year[0], "before": year[1]}),
        ("everyone + game + rated", GameSearch(game="scalas", rated=True),
         MATCH_SQL.format(more="and m.game = %(game)s and m.rated = true"), {"game": "scalas"}),
        ("heaviest player + stairs + option", GameSearch(player_id=heavy, game="stairs",
                                                         options=(("swap", True),)),
         ENTRY_SQL.format(more="and e.game = 'stairs' and (m.options ->> 'swap')::boolean"),
         {"player": heavy}),
        ("heaviest player + reason", GameSearch(player_id=heavy, reasons=("time_out",)),
         ENTRY_SQL.format(more="and (m.result ->> 'reason') = %(reason)s"),
         {"player": heavy, "reason": "time_out"}),
    ]


def timed(run: Callable[[], Any], repeat: int) -> tuple[float, float]:
    run()  # warm
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times)


def plan_of(raw: Any, sql: str, params: dict[str, Any]) -> str:
    cursor = raw.cursor()
    cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql, params)
    lines = [row[0] for row in cursor.fetchall()]
    used = sorted({found for line in lines for found in INDEX_USED.findall(line)})
    total = next((line for line in lines if line.startswith("Execution Time")), "")
    return f"{', '.join(used) or 'no index'}; {total}"


def run(url: str, repeat: int, facts: dict[str, Any]) -> list[dict[str, Any]]:
    engine = create_engine(url, pool_size=2)
    factory = sessionmaker(engine)
    raw = engine.raw_connection()
    rows = []
    page = PageRequest(PAGE)
    for label, search, sql, params in searches(facts):
        with factory() as session:
            def app_search(session: Session = session, search: GameSearch = search) -> Any:
                return archive_search.search(session, search, None, page)

            def app_query(session: Session = session, search: GameSearch = search) -> Any:
                return archive_search.found_ids(session, search, None, page)

            app_full = timed(app_search, repeat)
            app_ids = timed(app_query, repeat)
            found = len(app_query()[0])
        cursor = raw.cursor()

        def bare(cursor: Any = cursor, sql: str = sql, params: dict[str, Any] = params) -> Any:
            cursor.execute(sql, params)
            return cursor.fetchall()

        bare_times = timed(bare, repeat)
        assert len(bare()[:PAGE]) == found, (label, found)
        rows.append({"search": label, "found": found, "app": app_full, "app_query": app_ids,
                     "bare": bare_times, "plan": plan_of(raw, sql, params)})
        # The app's compiled query, explained the same way.
        with factory() as session:
            by_opponent = search.opponent_id is not None and search.player_id is not None and (
                archive_search._games_of(session, search.opponent_id)
                < archive_search._games_of(session, search.player_id))
            statement = archive_search.found_ids_statement(search, None, page, by_opponent)
            compiled = statement.compile(engine, compile_kwargs={"literal_binds": True})
            rows[-1]["app_plan"] = plan_of(raw, str(compiled).replace("%", "%%"), {})
    raw.close()
    engine.dispose()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--server", default=DEFAULT_SERVER)
    parser.add_argument("--schema", default=SCHEMA)
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the schema")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    admin = create_engine(args.server, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT")
    url = schema_url(args.server, args.schema)
    with admin.connect() as connection:
        exists = connection.execute(text("select 1 from information_schema.schemata "
                                         "where schema_name = :s"), {"s": args.schema}).first()
    reuse = bool(exists) and args.keep
    if not reuse:
        with admin.connect() as connection:
            connection.execute(text(f'drop schema if exists "{args.schema}" cascade'))
            connection.execute(text(f'create schema "{args.schema}"'))
        began = time.perf_counter()
        upgrade(url)
        facts = generate(url, args.games, args.users, args.seed)
        print(f"loaded {args.games:,} games among {args.users:,} users in "
              f"{time.perf_counter() - began:.0f} s")
    else:
        facts = facts_of(url, args.users)
        print(f"reusing the schema {args.schema}")
    try:
        rows = run(url, args.repeat, facts)
    finally:
        if not args.keep:
            with admin.connect() as connection:
                connection.execute(text(f'drop schema if exists "{args.schema}" cascade'))
        admin.dispose()
    print(f"\n{'search':34} {'found':>5} {'app ms':>14} {'app query ms':>14} {'bare ms':>14}")
    for row in rows:
        cells = [f"{row[key][0]:6.2f} / {row[key][1]:6.2f}" for key in ("app", "app_query", "bare")]
        print(f"{row['search']:34} {row['found']:5} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14}")
    print("\n(median / worst ms; app = query + the page's rows, as the API answers)\n")
    for row in rows:
        print(f"{row['search']}:\n  bare: {row['plan']}\n  app:  {row['app_plan']}")


if __name__ == "__main__":
    main()
