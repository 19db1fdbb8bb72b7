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
POOL_WORKERS = Gauge("stepwell_process_pool_workers",
                     "Worker processes of the bot, analysis and hint pools, by pool.",
                     ["pool"], multiprocess_mode="livesum")
POOL_BUSY = Gauge("stepwell_process_pool_busy", "Pool workers running a job now, by pool.",
                  ["pool"], multiprocess_mode="livesum")
POOL_QUEUED = Gauge("stepwell_process_pool_queued",
                    "Jobs waiting for a free pool worker, by pool (bot moves, analysed positions).",
                    ["pool"], multiprocess_mode="livesum")
JOB_STARTS = Counter("stepwell_job_starts", "Background jobs started (on taking the lead, or again "
                     "after a crash), by job.", ["job"])
JOB_FAILURES = Counter("stepwell_job_failures",
                       "Background jobs that crashed and were started again, by job.", ["job"])
LEADING = Gauge("stepwell_jobs_leader",
                "1 in the process that leads the background jobs (summed: how many lead).",
                multiprocess_mode="livesum")
