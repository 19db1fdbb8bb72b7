"""The event bus and what rides on it: the bus interface, its in-process and Redis implementations
and every channel name (``bus``, ``redis_bus``), presence (``presence``) and a socket's ping and
job helpers (``connection``). The sockets themselves belong to their domains.

A shared layer: its modules are its interface (``from app.realtime.bus import EventBus``); it
exports nothing here (docs/architecture.md).
"""
