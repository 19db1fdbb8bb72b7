"""The load client of ``bench/load.py``: players and spectators of Stairs matches over REST and the
match websocket, and the three drivers (fan-out at a fixed move rate, closed loop, idle sockets).

The same code drives Stepwell and the bare baseline server: both speak the same API. Delivery
latency is measured from just before a move is sent (REST POST or socket message) to each of the
match's sockets receiving the state of that ply.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

try:
    import orjson

    loads = orjson.loads

    def dumps(value: Any) -> str:
        return orjson.dumps(value).decode()
except ImportError:  # pragma: no cover - orjson is in the bench extra
    import json

    loads, dumps = json.loads, json.dumps

_tags = itertools.count(1)


@dataclass
class Stats:
    """What one scenario saw, summed over all its matches."""

    scheduled: int = 0
    skipped: int = 0
    sent: int = 0
    acked: int = 0
    committed: int = 0
    expected_deliveries: int = 0
    delivered: int = 0
    renewed: int = 0
    delivery_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    setup_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    messages: collections.Counter[str] = field(default_factory=collections.Counter)

    def error(self, what: str, setup: bool = False) -> None:
        (self.setup_errors if setup else self.errors)[what] += 1


class Failed(Exception):
    """A request or socket answer that was not the expected success; ``str`` is the error kind."""


def describe_error(error: BaseException) -> str:
    if isinstance(error, Failed):
        return str(error)
    if isinstance(error, asyncio.TimeoutError | TimeoutError):
        return "client timeout"
    return type(error).__name__


class Api:
    """REST calls to one server, with its own connection pool."""

    def __init__(self, base: str, timeout: float) -> None:
        self.base = base
        self.ws_base = base.replace("http", "ws", 1)
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, ttl_dns_cache=None, keepalive_timeout=60),
            timeout=aiohttp.ClientTimeout(total=timeout), json_serialize=dumps)

    async def call(self, method: str, path: str, token: str | None = None,
                   body: dict[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.request(method, self.base + path, json=body, headers=headers) as response:
            raw = await response.read()
            if response.status >= 300:
                try:
                    code = loads(raw).get("code", "")
                except Exception:
                    code = ""
                raise Failed(f"HTTP {response.status} {code}".rstrip())
            return loads(raw)

    async def close(self) -> None:
        await self.http.close()


@dataclass
class Person:
    """A guest (token) or an anonymous viewer (no token), tied to one server."""

    api: Api
    token: str | None = None

    @classmethod
    async def guest(cls, api: Api, name: str) -> Person:
        return cls(api, (await api.call("POST", "/api/v1/guests", body={"name": name}))["token"])


class Sock:
    """One open match socket: keeps the latest state and records deliveries as they arrive."""

    def __init__(self, table: Table, person: Person, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.person, self.ws = table, person, ws
        self.state: dict[str, Any] | None = None
        self.ply = -1
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, table: Table, person: Person, match_id: str, compress: int) -> Sock:
        query = f"?token={person.token}" if person.token else ""
        ws = await person.api.http.ws_connect(
            f"{person.api.ws_base}/api/v1/matches/{match_id}/ws{query}", compress=compress,
            autoping=True, max_msg_size=0)
        return cls(table, person, ws)

    async def _read(self) -> None:
        stats = self.table.stats
        try:
            async for message in self.ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.perf_counter()
                data = loads(message.data)
                kind = data.get("type", "?")
                stats.messages[kind] += 1
                if kind == "state":
                    self._on_state(data, now)
                elif kind in ("ack", "error") and data.get("id") in self.pending:
                    future = self.pending.pop(data["id"])
                    if not future.done():
                        future.set_result(data)
                elif kind == "error":
                    stats.error(f"socket error {data.get('code')}")
        except Exception as error:
            if not self.table.closing:
                stats.error(f"socket {describe_error(error)}")
            return
        if not self.table.closing:
            stats.error(f"socket closed by server {self.ws.close_code}")

    def _on_state(self, data: dict[str, Any], now: float) -> None:
        ply = data.get("ply", -1)
        if ply > self.ply and data.get("id", self.table.match_id) == self.table.match_id:
            # The move that made this state: usually the one sent for ``ply``; a move that
            # is followed by moves the server makes itself (a forced pass) jumps further in one state.
            made = next((p for p in range(ply, self.ply, -1) if p in self.table.sent_at), None)
            if made is not None:
                self.table.committed(made)
                self.table.stats.delivery_ms.append((now - self.table.sent_at[made]) * 1000)
                self.table.stats.delivered += 1
            self.ply = ply
        if self.state is None or data.get("version", 0) >= self.state.get("version", 0):
            self.state = data
        self.table.on_state(data)

    async def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        tag = f"t{next(_tags)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[tag] = future
        await self.ws.send_str(dumps({**message, "id": tag}))
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self.pending.pop(tag, None)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


class Table:
    """One match slot: two players and its spectators; a finished match is replaced by a new one
    between the same people, so the load keeps its shape for the whole run."""

    def __init__(self, stats: Stats, players: list[Person], watchers: list[Person], *, compress: int,
                 moves_via: str, timeout: float, rng: random.Random) -> None:
        self.stats, self.players, self.watchers = stats, players, watchers
        self.compress, self.moves_via, self.timeout, self.rng = compress, moves_via, timeout, rng
        self.match_id = ""
        self.socks: list[Sock] = []
        self.sent_at: dict[int, float] = {}
        self.seen: set[int] = set()
        self.ply = 0
        self.active = False
        self.in_flight = False
        self.closing = False
        self.changed = asyncio.Event()

    def on_state(self, data: dict[str, Any]) -> None:
        if data.get("id", self.match_id) != self.match_id:
            return
        self.ply = max(self.ply, data.get("ply", 0))
        if data.get("status") != "active":
            self.active = False
        self.changed.set()

    async def open(self, setup: bool = True) -> bool:
        """A new match between the two players, every socket connected and greeted; False (and
        the error counted) when the server refused or did not answer."""
        await self.close()
        self.closing = False
        try:
            first, second = self.players
            created = await first.api.call("POST", "/api/v1/matches", first.token,
                                           {"game": "stairs", "seat": 0})
            self.match_id, self.ply, self.sent_at, self.seen = created["id"], 0, {}, set()
            await second.api.call("POST", f"/api/v1/matches/{self.match_id}/join", second.token)
            for person in [*self.players, *self.watchers]:
                self.socks.append(await Sock.open(self, person, self.match_id, self.compress))
            deadline = time.monotonic() + self.timeout
            while any(sock.state is None for sock in self.socks):
                self.changed.clear()
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))
            self.active = True
            return True
        except Exception as error:  # every failure is a figure of the run, not a crash of it
            self.stats.error(describe_error(error), setup=setup)
            self.active = False
            return False

    async def close(self) -> None:
        self.closing = True
        socks, self.socks = self.socks, []
        await asyncio.gather(*(sock.close() for sock in socks), return_exceptions=True)

    def committed(self, ply: int) -> None:
        """Count the move that made ``ply`` once, whether its answer or its state came first (a
        move whose answer timed out still counts when its state arrives)."""
        if ply not in self.seen:
            self.seen.add(ply)
            self.stats.committed += 1
            self.stats.expected_deliveries += len(self.socks)

    def mover(self) -> Sock | None:
        """The seated socket that knows the current ply and has legal moves in it."""
        for sock in self.socks[:2]:
            state = sock.state
            if (state and state.get("ply") == self.ply and state.get("status") == "active"
                    and state.get("legal_moves")):
                return sock
        return None

    async def wait_mover(self, timeout: float) -> Sock | None:
        deadline = time.monotonic() + timeout
        while (mover := self.mover()) is None and self.active:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return None
        return mover

    async def move(self, sock: Sock) -> None:
        """Send one random legal move for the ply the socket knows; count what came of it."""
        stats, state = self.stats, sock.state
        assert state is not None
        ply, move = state["ply"], self.rng.choice(state["legal_moves"])
        started = self.sent_at[ply + 1] = time.perf_counter()
        stats.sent += 1
        try:
            if self.moves_via == "socket":
                answer = await sock.request({"type": "move", "move": move, "ply": ply}, self.timeout)
                if answer.get("type") != "ack":
                    raise Failed(f"socket error {answer.get('code')}")
                new_ply, status = answer.get("ply", ply + 1), None
            else:
                body = await sock.person.api.call("POST", f"/api/v1/matches/{self.match_id}/moves",
                                                  sock.person.token, {"move": move, "ply": ply})
                new_ply, status = body["ply"], body["status"]
            stats.acked += 1
            self.committed(ply + 1)
            stats.ack_ms.append((time.perf_counter() - started) * 1000)
            self.ply = max(self.ply, new_ply)
            if status is not None and status != "active":
                self.active = False
        except Exception as error:
            stats.error(describe_error(error))
        finally:
            self.in_flight = False
            self.changed.set()


async def bounded(limit: int, jobs: list[Any]) -> list[Any]:
    """Run coroutines at most ``limit`` at a time (setup must not be the load under test)."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Any) -> Any:
        async with gate:
            return await job

    return await asyncio.gather(*(one(job) for job in jobs))


async def make_tables(stats: Stats, apis: list[Api], matches: int, spectators: int, *, compress: int,
                      moves_via: str, timeout: float, seed: int, setup_limit: int) -> list[Table]:
    """Guests for every seat and spectator, spread round-robin over the servers, and one open match
    per table; tables whose setup failed are dropped (and counted)."""
    rng = random.Random(seed)
    people = 2 + spectators
    slots = list(range(matches * people))

    async def person(index: int) -> Person | None:
        try:
            return await Person.guest(apis[index % len(apis)], f"b{index}")
        except Exception as error:
            stats.error(describe_error(error), setup=True)
            return None

    everyone = await bounded(setup_limit, [person(i) for i in slots])
    tables = []
    for m in range(matches):
        group = everyone[m * people:(m + 1) * people]
        if all(group):
            tables.append(Table(stats, group[:2], group[2:], compress=compress, moves_via=moves_via,
                                timeout=timeout, rng=random.Random(rng.random())))
    opened = await bounded(setup_limit, [table.open() for table in tables])
    return [table for table, ok in zip(tables, opened, strict=True) if ok]


async def fan_out(tables: list[Table], rate: float, seconds: float, drain: float) -> float:
    """Each table moves ``rate`` times a second (random phase) for ``seconds``. A tick whose previous
    move is still unanswered or not yet delivered to the mover is skipped (and counted): the rate
    is what was asked, ``sent`` what the server let through. Returns the wall time of the window."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    end = start + seconds
    pending: set[asyncio.Task[None]] = set()

    async def drive(table: Table) -> None:
        interval = 1 / rate
        tick = start + table.rng.random() * interval
        while tick < end:
            await asyncio.sleep(max(0.0, tick - loop.time()))
            tick += interval
            table.stats.scheduled += 1
            if not table.active and not table.in_flight:
                table.stats.renewed += 1
                await table.open(setup=False)
                table.stats.skipped += 1
                continue
            mover = None if table.in_flight else table.mover()
            if mover is None:
                table.stats.skipped += 1
                continue
            table.in_flight = True
            task = asyncio.create_task(table.move(mover))
            pending.add(task)
            task.add_done_callback(pending.discard)

    await asyncio.gather(*(drive(table) for table in tables))
    if pending:  # every move gets its answer (or its client timeout) before the window closes
        await asyncio.wait(pending)
    await asyncio.sleep(drain)  # the last deliveries
    return loop.time() - start


async def closed_loop(tables: list[Table], seconds: float) -> float:
    """Each table plays its match as fast as answers come back: the next move as soon as the mover's
    socket shows the new ply. A finished match is replaced by a new one."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    end = start + seconds

    async def drive(table: Table) -> None:
        while loop.time() < end:
            if not table.active:
                table.stats.renewed += 1
                if not await table.open(setup=False):
                    await asyncio.sleep(0.5)
                continue
            mover = await table.wait_mover(min(table.timeout, max(0.01, end - loop.time())))
            if mover is None:
                if table.active and loop.time() < end:
                    table.stats.error("no state for the mover in time")
                continue
            table.in_flight = True
            await table.move(mover)

    await asyncio.gather(*(drive(table) for table in tables))
    return loop.time() - start


async def idle_sockets(api: Api, stats: Stats, count: int, per_match: int, compress: int,
                       setup_limit: int) -> list[aiohttp.ClientWebSocketResponse]:
    """``count`` anonymous sockets watching waiting matches, ``per_match`` per match; kept open and
    read (messages counted by type) until the caller closes them."""
    owners = await bounded(setup_limit, [Person.guest(api, f"i{i}")
                                         for i in range(-(-count // per_match))])
    matches = await bounded(setup_limit, [api.call("POST", "/api/v1/matches", owner.token,
                                                   {"game": "stairs", "seat": 0}) for owner in owners])

    async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                stats.messages[loads(message.data).get("type", "?")] += 1

    readers: set[asyncio.Task[None]] = set()

    async def connect(index: int) -> aiohttp.ClientWebSocketResponse | None:
        match_id = matches[index // per_match]["id"]
        try:
            ws = await api.http.ws_connect(f"{api.ws_base}/api/v1/matches/{match_id}/ws",
                                           compress=compress, max_msg_size=0)
        except Exception as error:
            stats.error(describe_error(error), setup=True)
            return None
        reader = asyncio.create_task(read(ws))
        readers.add(reader)
        reader.add_done_callback(readers.discard)
        return ws

    opened = await bounded(setup_limit, [connect(i) for i in range(count)])
    return [ws for ws in opened if ws is not None]


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
