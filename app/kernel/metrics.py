"""The service's Prometheus metrics, defined once so every layer can count what it does.

With ``PROMETHEUS_MULTIPROC_DIR`` set (several worker processes behind one port), prometheus-client
keeps each process's values in that folder and ``/metrics`` adds them up; otherwise they live in
this process. Labels are bounded: route templates, never raw paths or user data.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Counter("stepwell_http_requests", "HTTP requests answered, by route and status.",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("stepwell_http_request_seconds", "Time to answer an HTTP request.",
                            ["method", "route"], buckets=LATENCY_BUCKETS)
MOVE_COMMIT_SECONDS = Histogram("stepwell_move_commit_seconds",
                                "Time the service takes to decide a move (committed or refused).",
                                buckets=LATENCY_BUCKETS)
OPEN_CONNECTIONS = Gauge("stepwell_open_connections",
                         "Open websockets and NDJSON streams that carry a credential.",
                         multiprocess_mode="livesum")
BOT_MOVES = Counter("stepwell_bot_moves", "Bot moves, by outcome.", ["outcome"])
DATABASE_UNAVAILABLE = Counter("stepwell_database_unavailable",
                               "Requests answered 503 because the database could not answer.")
BUS_RECONNECTS = Counter("stepwell_bus_reconnects",
                         "Times this process's Redis pub/sub connection came back after a loss.")
OUTBOX_UNANNOUNCED = Gauge("stepwell_outbox_unannounced",
                           "Matches with a committed change not yet noted as announced, at the "
                           "relay's last scan (a few are normal: notes are written in batches).",
                           multiprocess_mode="livemax")
OUTBOX_OLDEST_SECONDS = Gauge("stepwell_outbox_oldest_seconds",
                              "How long the oldest of those changes has waited for its note, as "
                              "the relay saw it (above the relay's grace: announced again).",
                              multiprocess_mode="livemax")
OUTBOX_RELAYED = Counter("stepwell_outbox_relayed",
                         "Match changes the relay announced again because their publisher "
                         "never noted them (died after the commit, or lost its bus).")
