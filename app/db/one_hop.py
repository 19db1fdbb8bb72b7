"""One worker-thread hop per request, holding one session — why the server cannot deadlock.

FastAPI runs a sync endpoint in a worker thread, then validates its response in another hop.
The first build kept the request's pooled connection across such hops, so with every thread
waiting for a connection and every connection waiting for a thread, nothing moved. Here:
- dependencies are async and never query (app/db/deps.py, app/http/);
- ``OneHopRoute`` runs each sync endpoint as a coroutine making exactly one thread hop, in
  which it also closes its session(s), so the connection is back in the pool before the
  response is validated (on the event loop) or anything else waits;
- every hop of the app's own goes to one thread pool, the loop's default executor, capped at the
  pool size (``limit_worker_threads``), so a thread never waits for a connection;
- ``AdmissionLimit`` answers 503 ``server_busy`` at once when too many requests are queued, and
  a pool or SQLite lock timeout is also a 503, never a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import json
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from queue import SimpleQueue
from typing import Any, ParamSpec, TypeVar

import anyio.to_thread
from fastapi.routing import APIRoute
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Receive, Scope, Send

from app.kernel.errors import ServerBusy

hop_session: contextvars.ContextVar[Session | None] = contextvars.ContextVar("hop_session", default=None)
"""The session a sync endpoint was given, while it runs in its hop: what rendering its page may
read with (app/web/theme.py), never opening a second connection."""


def _sessions_in(values: dict[str, Any]) -> list[Session]:
    found: list[Session] = []
    for value in values.values():
        candidates = [value, getattr(value, "session", None)]
        found.extend(c for c in candidates if isinstance(c, Session) and c not in found)
    return found


def is_busy_error(error: BaseException) -> bool:
    """The database cannot answer now, and a retry soon may work: a pool checkout timeout, a
    SQLite lock that outlasted its busy timeout, a server that refuses connections or dropped
    them (a restart: the pool has already thrown its connections away, so the retry gets a
    fresh one). Operational and interface errors are exactly these; a bad statement is not."""
    if isinstance(error, (sa_exc.TimeoutError, sa_exc.DisconnectionError)):
        return True
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, (sa_exc.OperationalError, sa_exc.InterfaceError))


def as_server_busy(error: BaseException) -> ServerBusy:
    """The 503 a busy error becomes: saturation (no pooled connection in time) is
    ``server_busy``; a database that cannot be reached is ``database_unavailable``."""
    if isinstance(error, sa_exc.TimeoutError) or "database is locked" in str(error):
        return ServerBusy("The server is busy: retry in a moment.")
    return ServerBusy("The database is unavailable: retry in a moment.",
                      code="database_unavailable")


def _closing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """The sync ``endpoint`` as a coroutine that makes exactly one worker-thread hop.

    FastAPI runs a sync endpoint in a thread and then validates its response in a second hop;
    a coroutine's response is validated on the event loop. Two hops a request cost a task
    group, a cancel scope and a thread hand-over each (profiled at ~10 % of the server's samples
    under load), and a request that waits for its second thread holds a place in the queue."""

    def call(*args: Any, **kwargs: Any) -> Any:
        sessions = _sessions_in(kwargs)
        hop_session.set(sessions[0] if sessions else None)
        try:
            return endpoint(*args, **kwargs)
        except (sa_exc.TimeoutError, sa_exc.DBAPIError) as error:
            if is_busy_error(error):
                raise as_server_busy(error) from error
            raise
        finally:
            hop_session.set(None)
            for session in sessions:
                session.close()

    @functools.wraps(endpoint)
    async def run(*args: Any, **kwargs: Any) -> Any:
        return await hop(functools.partial(call, *args, **kwargs))

    run._closes_sessions = True  # type: ignore[attr-defined]  # a marker, read by getattr below
    return run


def _closing_async(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """An async endpoint that closes the sessions it was given when it ends; one still holding
    a connection gives it back from a worker thread (a rollback must not block the loop)."""

    @functools.wraps(endpoint)
    async def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return await endpoint(*args, **kwargs)
        finally:
            for session in _sessions_in(kwargs):
                if session.in_transaction():
                    await asyncio.to_thread(session.close)
                else:
                    session.close()

    run._closes_sessions = True  # type: ignore[attr-defined]  # a marker, read by getattr below
    return run


class OneHopRoute(APIRoute):
    """The route class of every router: a sync endpoint closes its sessions in its own thread,
    an async one when it ends (the session dependency itself is a plain value, app/db/deps.py).

    Routers are made with ``APIRouter(route_class=OneHopRoute)``; tests/live/test_one_hop.py
    checks that every route of the app is one.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        endpoint = (_closing_async(endpoint) if inspect.iscoroutinefunction(endpoint)
                    else _closing(endpoint))
        super().__init__(path, endpoint, **kwargs)


def closes_sessions(endpoint: Callable[..., Any]) -> bool:
    return getattr(endpoint, "_closes_sessions", False) or inspect.iscoroutinefunction(endpoint)


def limit_worker_threads(threads: int) -> None:
    """The running loop's thread hops, capped at the connection pool size.

    The app's own hops (endpoints, sockets, streams, background jobs) all go through
    ``asyncio.to_thread``, i.e. the loop's default executor, set here to ``threads`` workers.
    anyio's worker threads, which a request paid for with a ``queue.Queue`` hand-over in Python
    (profiled under socket moves: ~12 % of the server's samples in the loop thread, most of it
    ``Condition.notify``), are only left to Starlette's own uses (static files, forms), capped
    at the same number."""
    loop = asyncio.get_running_loop()
    pool = HopPool(threads, "stepwell-db")
    loop.set_default_executor(pool)
    _POOLS[loop] = pool
    anyio.to_thread.current_default_thread_limiter().total_tokens = threads


Params = ParamSpec("Params")
Result = TypeVar("Result")
_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, HopPool] = weakref.WeakKeyDictionary()


async def hop(fn: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs) -> Result:
    """``asyncio.to_thread(fn, *args, **kwargs)``, on the loop's :class:`HopPool` when it has
    one (the same threads, so the same cap): the call goes to a worker through a C queue and its
    result comes back by one ``call_soon_threadsafe``, with no ``concurrent.futures.Future`` (a
    Python lock and condition), no executor locks and no future chaining in between (measured
    here: ~5–15 µs of CPU a hop against ~25–40 µs through ``asyncio.to_thread``). The context is
    copied as ``to_thread`` does; a call whose awaiter was cancelled before it started is not
    run, as with ``to_thread``."""
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        return await asyncio.to_thread(fn, *args, **kwargs)
    waiter: asyncio.Future[Result] = loop.create_future()
    call = functools.partial(fn, *args, **kwargs) if kwargs else fn
    pool.put((_run_hop, loop, waiter, contextvars.copy_context(), call, args if not kwargs else ()))
    return await waiter


def _settle(waiter: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if waiter.cancelled():
        return
    if error is not None:
        waiter.set_exception(error)
    else:
        waiter.set_result(result)


def _run_hop(job: tuple[Any, ...]) -> None:
    _, loop, waiter, context, fn, args = job
    if waiter.cancelled():
        return
    try:
        result, error = context.run(fn, *args), None
    except BaseException as failure:
        result, error = None, failure
    with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile: nobody waits
        loop.call_soon_threadsafe(_settle, waiter, result, error)
    del job, waiter, result, error


def _run_submitted(job: tuple[Any, ...]) -> None:
    _, future, fn, args, kwargs = job
    if not future.set_running_or_notify_cancel():
        return
    try:
        result = fn(*args, **kwargs)
    except BaseException as failure:
        future.set_exception(failure)
    else:
        future.set_result(result)
    del job, future


def _work(queue: SimpleQueue[tuple[Any, ...] | None], done: Callable[[], None]) -> None:
    while True:
        job = queue.get()
        if job is None:
            return
        try:
            job[0](job)
        finally:
            del job
            done()


class HopPool(ThreadPoolExecutor):
    """Up to ``threads`` worker threads taking calls from one C ``SimpleQueue``: the loop's
    default executor (``submit``, for ``asyncio.to_thread`` and ``run_in_executor``) and the
    app's own hops (:func:`hop`), so both share one cap. Threads start as calls find none idle
    and stop at :meth:`shutdown` (or when the pool is collected). A ``ThreadPoolExecutor`` by
    type only (the loop accepts no other default executor): none of its own threads run."""

    def __init__(self, threads: int, name: str) -> None:
        super().__init__(threads, thread_name_prefix=name)
        self._hop_queue: SimpleQueue[tuple[Any, ...] | None] = SimpleQueue()
        self._limit = threads
        self._name = name
        self._workers: list[threading.Thread] = []
        self._hop_lock = threading.Lock()
        self._busy = _Busy(self._hop_lock)
        self._closed = False
        weakref.finalize(self, _stop, self._hop_queue, self._workers)

    def put(self, job: tuple[Any, ...]) -> None:
        with self._hop_lock:
            if self._closed:
                raise RuntimeError("cannot schedule new calls after shutdown")
            self._busy.calls += 1
            start = self._busy.calls > len(self._workers) and len(self._workers) < self._limit
            if start:
                thread = threading.Thread(target=_work, args=(self._hop_queue, self._busy.done),
                                          name=f"{self._name}_{len(self._workers)}", daemon=True)
                self._workers.append(thread)
        self._hop_queue.put(job)
        if start:
            thread.start()

    def submit(self, fn: Callable[..., Result], /, *args: Any, **kwargs: Any) -> Future[Result]:
        future: Future[Result] = Future()
        self.put((_run_submitted, future, fn, args, kwargs))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._hop_lock:
            self._closed = True
        if cancel_futures:
            while True:
                try:
                    job = self._hop_queue.get_nowait()
                except Exception:
                    break
                if job is not None and job[0] is _run_submitted:
                    job[1].cancel()
                if job is not None:
                    self._busy.done()
        _stop(self._hop_queue, self._workers)
        if wait:
            for thread in list(self._workers):
                if thread is not threading.current_thread():
                    thread.join()


class _Busy:
    """Calls queued or running (threads are started while every one is busy); apart from the
    pool, so its threads hold no reference to it."""

    __slots__ = ("calls", "lock")

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.calls = 0

    def done(self) -> None:
        with self.lock:
            self.calls -= 1


def _stop(queue: SimpleQueue[tuple[Any, ...] | None], threads: list[threading.Thread]) -> None:
    for _ in threads:
        queue.put(None)


def is_long_lived_stream(path: str) -> bool:
    """NDJSON streams stay open for hours while holding no thread or connection: counting them
    as requests in flight would let a few hundred bots shut everyone else out."""
    return path.startswith("/api/v1/stream/") or (path.startswith("/api/v1/matches/")
                                                   and path.endswith("/stream"))


class AdmissionLimit:
    """Pure ASGI middleware: at most ``limit`` HTTP requests in flight; beyond, 503 at once."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.in_flight = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/") \
                or is_long_lived_stream(scope["path"]):
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            await busy_response(send)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


async def busy_response(send: Send) -> None:
    body = json.dumps({"code": ServerBusy.code,
                       "message": "The server is busy: retry in a moment."}).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"),
                            (b"retry-after", str(ServerBusy.retry_after_seconds).encode()),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
