"""Request metrics and request ids for every HTTP answer, and ``GET /metrics`` for Prometheus.

``/metrics`` answers only callers on this host or a private network (where Prometheus scrapes
from); anyone else gets 404, as if it did not exist.
"""

from __future__ import annotations

import ipaddress
import os
import time

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.one_hop import OneHopRoute
from app.http.doors import PublicDoor
from app.kernel.errors import NotFound
from app.kernel.logs import HEADER, current_request_id, request_id_from
from app.kernel.metrics import REQUEST_SECONDS, REQUESTS

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PublicDoor])


class RequestMetrics:
    """Counts each answered request by its route template and status, and times it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = str(scope.get("method", "GET"))
            REQUESTS.labels(method, route, str(status)).inc()
            REQUEST_SECONDS.labels(method, route).observe(time.perf_counter() - started)


PRIVATE_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))
"""Where a Prometheus in the same deployment scrapes from (RFC 1918 and unique local)."""


def _nearby(request: Request) -> bool:
    host = request.client.host if request.client else ""
    if host == "testclient":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or any(address in net for net in PRIVATE_NETWORKS
                                      if net.version == address.version)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    if not _nearby(request):
        raise NotFound("Not found.", code="not_found")
    registry = None
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # untyped
    data = generate_latest(registry) if registry is not None else generate_latest()
    return Response(data, media_type=CONTENT_TYPE_LATEST)


class RequestIds:
    """Gives every HTTP request and websocket an id (``X-Request-ID``), for the logs; while the
    instance drains, every answer also says ``Connection: close``, so the load balancer keeps no
    kept-alive connection to it that could break under a request as it stops."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        sent = dict(scope.get("headers") or []).get(HEADER.encode())
        request_id = request_id_from(sent.decode("latin-1") if sent else None)
        token = current_request_id.set(request_id)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (HEADER.encode(), request_id.encode())]
                drain = getattr(getattr(scope.get("app"), "state", None), "drain", None)
                if drain is not None and drain.draining:
                    headers.append((b"connection", b"close"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            current_request_id.reset(token)
