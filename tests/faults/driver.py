"""Players and spectators that behave like the browser client (static/js/kit/socket.js,
static/js/moves.js, static/js/match.js), through nginx, recording what they are told.

- Each socket reconnects after any close with the browser's backoff (0.5 s doubling, half of it
  random; after a 1012 close, 0.2–1.5 s) and asks for ``sync`` after a reconnection; a
  ``state`` more than one ply ahead makes the page read the match again (GET).
- A move goes over the socket when it is open and waits 8 s for its ``ack``; a socket that closed
  or stayed silent falls back to REST with the same move and ply, as ``sendMove`` does. An error
  is shown to the player (recorded), and after ``stale_ply`` the page reads the match again.
- Human pairs play real-time games (so a win may be claimed) and one of them asks for
  claim-victory every second: with both players at the board it must always be refused.
- Spectators record every ply they are shown.

Everything runs on one event loop in a thread of its own; the test reads the records.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

REALTIME = {"kind": "realtime", "minutes": 30, "increment": 0}
RESTARTING = 1012
"""The close code of an instance going away for a restart (docs/api.md)."""
ACK_SECONDS = 8.0
"""How long the browser waits for a socket ack before it falls back to REST."""


@dataclass(frozen=True)
class Ack:
    """A move the server said it played: the match, the ply the move made, the move sent, and
    the match's ply in the answer (later when forced passes followed the move)."""

    match_id: str
    ply: int
    move: str
    via: str
    answered: int


@dataclass(frozen=True)
class Shown:
    """An error a player saw: where, its HTTP status (0 on the socket), its code."""

    where: str
    status: int
    code: str
    retry_after: str | None = None
    at: float = field(default_factory=time.monotonic)


def _backoff(attempt: int, rng: random.Random) -> float:
    ceiling = min(15.0, 0.5 * 2 ** attempt)
    return ceiling * 0.5 + ceiling * 0.5 * rng.random()


class Feed:
    """One page's match socket (a player's or a spectator's)."""

    def __init__(self, driver: Driver, match_id: str, role: str, token: str | None) -> None:
        self.driver = driver
        self.match_id = match_id
        self.role = role
        self.token = token
        self.latest: dict[str, Any] | None = None
        self.seen: list[tuple[int, int, dict[str, Any] | None]] = []  # (ply, version, last_move)
        self.changed = asyncio.Event()
        self.socket: ClientConnection | None = None
        self.opens = 0
        self.closes: Counter[int | None] = Counter()
        self.closes_last: int | None = None
        self.down_since: float | None = time.monotonic()
        self.done = False
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._task = asyncio.create_task(self._run())

    @property
    def version(self) -> int:
        return -1 if self.latest is None else int(self.latest.get("version", -1))

    @property
    def ply(self) -> int:
        return -1 if self.latest is None else int(self.latest["ply"])

    def down_for(self) -> float:
        return 0.0 if self.down_since is None else time.monotonic() - self.down_since

    def _url(self) -> str:
        url = self.driver.base.replace("http://", "ws://") + f"/api/v1/matches/{self.match_id}/ws"
        return f"{url}?token={self.token}" if self.token else url

    async def _run(self) -> None:
        attempt = 0
        while not self.done and not self.driver.stopping:
            try:
                async with connect(self._url(), open_timeout=10, compression=None,
                                   ping_interval=None) as socket:
                    self.socket, attempt = socket, 0
                    self.opens += 1
                    self.down_since = None
                    if self.opens > 1:
                        await socket.send(json.dumps({"type": "sync", "ply": self.ply}))
                    async for text in socket:
                        await self._received(json.loads(text))
                    self.closes_last = socket.close_code
                    self.closes[socket.close_code] += 1
            except InvalidStatus as refused:
                self.closes_last = None
                self.driver.handshakes[refused.response.status_code] += 1
            except (OSError, ConnectionClosed, TimeoutError) as lost:
                code = getattr(getattr(lost, "rcvd", None), "code", None)
                self.closes_last = code
                self.closes[code] += 1
            finally:
                if self.socket is not None:
                    self.down_since = time.monotonic()
                self.socket = None
                for waiting in self._waiting.values():
                    if not waiting.done():
                        waiting.set_result({"type": "error", "code": "closed"})
                self._waiting.clear()
            if self.done or self.driver.stopping:
                return
            if self.closes_last == RESTARTING:  # the browser's quick, spread reconnection
                await asyncio.sleep(self.driver.rng.uniform(0.2, 1.5))
                continue
            await asyncio.sleep(_backoff(attempt, self.driver.rng))
            attempt += 1

    async def _received(self, message: dict[str, Any]) -> None:
        tag = message.get("id")
        if tag is not None and message.get("type") in ("ack", "error") and tag in self._waiting:
            self._waiting.pop(tag).set_result(message)
        if message.get("type") == "state":
            if self.latest is not None and message["ply"] > self.ply + 1:
                await self.refetch()  # missed something: read the match again
            self.take(message)

    def take(self, state: dict[str, Any]) -> None:
        if int(state.get("version", 0)) < self.version:
            return
        if state["ply"] != self.ply or int(state.get("version", 0)) != self.version:
            self.seen.append((state["ply"], int(state.get("version", 0)), state.get("last_move")))
        self.latest = state
        self.changed.set()

    async def refetch(self) -> None:
        response = await self.driver.rest("GET", f"/api/v1/matches/{self.match_id}",
                                          self.token, where="refetch")
        if response is not None and response.status_code == 200:
            self.take(response.json())

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The server's ack or error for ``message``; code ``closed``/``no_answer`` when the
        socket could not tell."""
        socket = self.socket
        if socket is None:
            return {"type": "error", "code": "closed"}
        tag = f"r{next(self._ids)}"
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[tag] = waiting
        try:
            await socket.send(json.dumps({**message, "id": tag}))
            return await asyncio.wait_for(waiting, ACK_SECONDS)
        except ConnectionClosed:
            return {"type": "error", "code": "closed"}
        except TimeoutError:
            return {"type": "error", "code": "no_answer"}
        finally:
            self._waiting.pop(tag, None)

    async def wait_change(self, seconds: float) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), seconds)

    async def close(self) -> None:
        self.done = True
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


class Player:
    """One seat of one match, played from its page."""

    def __init__(self, driver: Driver, match_id: str, token: str) -> None:
        self.driver = driver
        self.match_id = match_id
        self.token = token
        self.feed = Feed(driver, match_id, "player", token)

    async def play(self) -> None:
        """Moves whenever the page says it is this seat's turn, until the match ends."""
        driver, feed = self.driver, self.feed
        while not driver.stopping:
            state = feed.latest
            if state is not None and state["status"] in ("finished", "aborted"):
                return
            if state is None or not state.get("legal_moves") or driver.paused.is_set():
                await feed.wait_change(0.5)
                continue
            await asyncio.sleep(driver.rng.uniform(0.05, 0.25))  # thinking
            if feed.latest is not state or driver.paused.is_set():
                continue
            await self.submit(driver.rng.choice(state["legal_moves"]), state["ply"])

    async def submit(self, move: str, ply: int) -> None:
        driver, feed = self.driver, self.feed
        if feed.socket is not None:
            answer = await feed.request({"type": "move", "move": move, "ply": ply})
            if answer["type"] == "ack":
                driver.acks.append(Ack(self.match_id, ply + 1, move, "socket", answer["ply"]))
                await self._reached(answer["ply"])
                return
            if answer["code"] not in ("closed", "no_answer"):
                driver.shown.append(Shown("socket move", 0, answer["code"]))
                await self._after_error(answer.get("retry_after"))
                return
        response = await driver.rest("POST", f"/api/v1/matches/{self.match_id}/moves",
                                     self.token, json={"move": move, "ply": ply}, where="move")
        if response is None:
            await asyncio.sleep(1)
        elif response.status_code == 200:
            body = response.json()
            driver.acks.append(Ack(self.match_id, ply + 1, move, "rest", body["ply"]))
            feed.take(body)
        else:  # recorded by rest()
            await self._after_error(response.headers.get("retry-after"))

    async def _reached(self, ply: int) -> None:
        """The page waits (at most 3 s) for the state that follows an ack."""
        deadline = time.monotonic() + 3
        while self.feed.ply < ply and time.monotonic() < deadline:
            await self.feed.wait_change(deadline - time.monotonic())

    async def _after_error(self, retry_after: Any) -> None:
        """The page showed the error; the player tries again after Retry-After (else half a
        second), from the match read again."""
        await asyncio.sleep(float(retry_after) if retry_after else 0.5)
        await self.feed.refetch()


class Driver:
    """``pairs`` human-vs-human games and ``bot_games`` games against a bot, each watched by a
    spectator; a finished match is followed by a new one."""

    def __init__(self, base: str, pairs: int = 3, bot_games: int = 1, seed: int = 7,
                 claims: bool = True) -> None:
        self.base = base
        self.pairs = pairs
        self.bot_games = bot_games
        self.claims = claims
        self.rng = random.Random(seed)
        self.acks: list[Ack] = []
        self.shown: list[Shown] = []
        self.statuses: Counter[int] = Counter()
        self.handshakes: Counter[int] = Counter()
        self.unreachable = 0
        self.claims_granted: list[tuple[str, float]] = []  # (match, the opponent's absence)
        self.claims_refused = 0
        self.feeds: list[Feed] = []
        self.matches: list[str] = []
        self.stopping = False
        self.paused = threading.Event()  # players hold their moves while set
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._client: httpx.AsyncClient | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._started = threading.Event()
        self._failure: BaseException | None = None

    # -- the test's side ----------------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(60)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if self._failure is not None:
            raise AssertionError("a driver task failed") from self._failure

    def call(self, make: Any, seconds: float = 30) -> Any:
        """Run ``make()`` (a coroutine) on the driver's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(make(), self._loop).result(seconds)

    def live_feeds(self) -> list[Feed]:
        return [feed for feed in list(self.feeds) if not feed.done]

    def errors(self) -> list[Shown]:
        return list(self.shown)

    # -- the loop's side ----------------------------------------------------------------------

    async def _start(self) -> None:
        self._client = httpx.AsyncClient(base_url=self.base, timeout=httpx.Timeout(10),
                                         limits=httpx.Limits(max_connections=64))
        for index in range(self.pairs):
            self._spawn(self._pair(index))
        for index in range(self.bot_games):
            self._spawn(self._bot_game(index))
        # every game has its sockets open before the test injects anything
        deadline = time.monotonic() + 60
        while len([f for f in self.feeds if f.latest is not None]) < 3 * self.pairs + 2 * self.bot_games:
            if self._failure is not None or time.monotonic() > deadline:
                raise AssertionError("the driver's games did not start") from self._failure
            await asyncio.sleep(0.05)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)

        def done(task: asyncio.Task[None]) -> None:
            if not task.cancelled() and task.exception() is not None and self._failure is None:
                self._failure = task.exception()

        task.add_done_callback(done)
        self._tasks.append(task)

    async def _stop(self) -> None:
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for feed in self.feeds:
            await feed.close()
        assert self._client is not None
        await self._client.aclose()

    async def rest(self, method: str, path: str, token: str | None, *, where: str,
                   json: Any = None, expected: tuple[int, ...] = ()) -> httpx.Response | None:
        """One request through nginx, counted; an answer that is not 2xx (nor ``expected``) is
        recorded as an error the player saw. None when nginx could not be reached."""
        assert self._client is not None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = await self._client.request(method, path, headers=headers, json=json)
        except httpx.HTTPError:
            self.unreachable += 1
            self.shown.append(Shown(where, -1, "unreachable"))
            return None
        self.statuses[response.status_code] += 1
        if response.status_code >= 300 and response.status_code not in expected:
            try:
                code = str(response.json().get("code"))
            except ValueError:
                code = "not_json"
            self.shown.append(Shown(where, response.status_code, code,
                                    response.headers.get("retry-after")))
        return response

    async def _until_ok(self, method: str, path: str, token: str | None, *, where: str,
                        json: Any = None, wanted: int = 200) -> dict[str, Any]:
        """A request the page repeats until it succeeds (creating a guest, a match)."""
        while True:
            response = await self.rest(method, path, token, where=where, json=json)
            if response is not None and response.status_code == wanted:
                return response.json()  # type: ignore[no-any-return]
            await asyncio.sleep(float(response.headers.get("retry-after") or 1)
                                if response is not None else 1)

    async def _guest(self, name: str) -> str:
        made = await self._until_ok("POST", "/api/v1/guests", None, where="guest",
                                    json={"name": name}, wanted=201)
        return str(made["token"])

    async def _watch(self, match_id: str) -> Feed:
        spectator = Feed(self, match_id, "spectator", None)
        self.feeds.append(spectator)
        return spectator

    async def _pair(self, index: int) -> None:
        light, dark = await self._guest(f"Light{index}"), await self._guest(f"Dark{index}")
        while not self.stopping:
            match = await self._until_ok("POST", "/api/v1/matches", light, where="create",
                                         json={"game": "stairs", "seat": 0,
                                               "time_control": REALTIME}, wanted=201)
            # a real-time game, so that a refused claim means "your opponent is here"
            assert (match.get("time_control") or {}).get("kind") == "realtime", match
            await self._until_ok("POST", f"/api/v1/matches/{match['id']}/join", dark,
                                 where="join")
            self.matches.append(match["id"])
            players = [Player(self, match["id"], light), Player(self, match["id"], dark)]
            spectator = await self._watch(match["id"])
            self.feeds.extend(player.feed for player in players)
            tasks = [asyncio.create_task(player.play()) for player in players]
            if self.claims:
                tasks.append(asyncio.create_task(self._claim(match["id"], players)))
            try:
                await asyncio.wait(tasks[:2], return_when=asyncio.ALL_COMPLETED)
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(BaseException):
                        await task
                for task in tasks:
                    if not task.cancelled() and task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
                for feed in (*(p.feed for p in players), spectator):
                    await feed.close()

    async def _claim(self, match_id: str, players: list[Player]) -> None:
        """Claims the win every second, alternately for each player, while both are at the
        board: each claim must be refused."""
        for turn in itertools.count():
            await asyncio.sleep(1)
            claimer, opponent = players[turn % 2], players[1 - turn % 2]
            absent = opponent.feed.down_for()
            response = await self.rest("POST", f"/api/v1/matches/{match_id}/claim-victory",
                                       claimer.token, where="claim", expected=(409,))
            if response is None:
                continue
            if response.status_code == 200:
                self.claims_granted.append((match_id, absent))
                return
            if response.status_code == 409:
                self.claims_refused += 1

    async def _bot_game(self, index: int) -> None:
        human = await self._guest(f"Human{index}")
        while not self.stopping:
            match = await self._until_ok("POST", "/api/v1/matches", human, where="create",
                                         json={"game": "stairs", "seat": 0, "bot": "easy"},
                                         wanted=201)
            self.matches.append(match["id"])
            player = Player(self, match["id"], human)
            self.feeds.append(player.feed)
            spectator = await self._watch(match["id"])
            try:
                await player.play()
            finally:
                await player.feed.close()
                await spectator.close()
