"""``/healthz`` (the process answers) and ``/readyz`` (it can serve: not shutting down, and the
database and, when one is configured, Redis answer). Load balancers and orchestrators ask these,
never a page."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.db.one_hop import OneHopRoute
from app.http.doors import PublicDoor

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PublicDoor])
CHECK_SECONDS = 2.0


@router.get("/healthz")
async def alive() -> JSONResponse:
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})


def _database_answers(request: Request) -> bool:
    try:
        with request.app.state.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


async def _redis_answers(request: Request) -> bool | None:
    client = getattr(request.app.state.bus, "command_client", None)
    if client is None:
        return None  # one process, no Redis: nothing to ask
    try:
        return bool(await asyncio.wait_for(client.ping(), CHECK_SECONDS))
    except Exception:
        return False


@router.get("/readyz")
async def ready(request: Request) -> JSONResponse:
    """200 when this instance can serve; 503 (with what is missing) otherwise. From SIGTERM on
    (see ``app/http/drain.py``) 503 ``draining``, while the instance still serves what it has."""
    if request.app.state.drain.draining:
        return JSONResponse({"status": "draining", "reason": "draining"}, status_code=503,
                            headers={"Cache-Control": "no-store", "Retry-After": "1"})
    try:
        database = await asyncio.wait_for(asyncio.to_thread(_database_answers, request),
                                          CHECK_SECONDS)
    except TimeoutError:
        database = False
    redis = await _redis_answers(request)
    checks = {"database": database, **({} if redis is None else {"redis": redis})}
    ready_now = all(checks.values())
    return JSONResponse({"status": "ready" if ready_now else "unavailable", "checks": checks},
                        status_code=200 if ready_now else 503,
                        headers={"Cache-Control": "no-store",
                                 **({} if ready_now else {"Retry-After": "1"})})
