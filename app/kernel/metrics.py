"""The service's Prometheus metrics, defined once so every layer can count what it does.

With ``PROMETHEUS_MULTIPROC_DIR`` set (several worker processes behind one port), prometheus-client
keeps each process's values in that folder and ``/metrics`` adds them up; otherwise they live in
this process. Labels are bounded: route templates, never raw paths or user data.
"""

from __future__ import annotations

import threading

from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy import Engine, event

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Counter("stepwell_http_requests", "HTTP requests answered, by route and status.",
                   ["method", "route", "status"])
REQUEST_SECONDS = Histogram("stepwell_http_request_seconds", "Time to answer an HTTP request.",
                            ["method", "route"], buckets=LATENCY_BUCKETS)
MOVE_COMMIT_SECONDS = Histogram("stepwell_move_commit_seconds",
                                "Time the service takes to decide a move (committed or refused).",
                                buckets=LATENCY_BUCKETS)
BUS_DELIVERY_SECONDS = Histogram("stepwell_bus_delivery_seconds",
                                 "From a bus message's publication (a committed move's change "
                                 "among them) to its arrival at another subscribing instance.",
                                 buckets=LATENCY_BUCKETS)
OPEN_CONNECTIONS = Gauge("stepwell_open_connections",
                         "Open websockets and NDJSON streams that carry a credential.",
                         multiprocess_mode="livesum")
BOT_MOVES = Counter("stepwell_bot_moves", "Bot moves, by outcome.", ["outcome"])
PUSHES = Counter("stepwell_pushes", "Web push attempts, by outcome (sent, retried, gone, refused, "
                 "dropped).", ["outcome"])
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
JOB_PASSES = Counter("stepwell_job_passes",
                     "Passes of the periodic background jobs (clocks, quick_play, seek_expiry, "
                     "tournaments), by job and outcome (done, failed: retried next pass).",
                     ["job", "outcome"])
LEADING = Gauge("stepwell_jobs_leader",
                "1 in the process that leads the background jobs (summed: how many lead).",
                multiprocess_mode="livesum")
CREDENTIAL_RECHECKS = Counter("stepwell_credential_rechecks",
                              "Re-checks of every open connection's credential after the bus came "
                              "back, by outcome (done, failed: the database did not answer).",
                              ["outcome"])
NOTIFICATIONS_SENT = Counter("stepwell_notifications_sent",
                             "Outgoing notifications, by kind (push, email) and outcome (sent, "
                             "failed, refused).", ["kind", "outcome"])
"""Ready for the web push and email senders, which will increment it once they exist."""

DB_POOL_SIZE = Gauge("stepwell_db_pool_size", "Database connections each pool keeps (summed).",
                     multiprocess_mode="livesum")
DB_POOL_CHECKED_OUT = Gauge("stepwell_db_pool_checked_out",
                            "Database connections in use now (checked out of their pool).",
                            multiprocess_mode="livesum")
DB_POOL_OVERFLOW = Gauge("stepwell_db_pool_overflow",
                         "Database connections open beyond their pool's size.",
                         multiprocess_mode="livesum")


def watch_database_pool(engine: Engine) -> None:
    """Keep the database pool gauges current for ``engine``, from SQLAlchemy's pool events (a
    checkout, a checkin), so ``/metrics`` shows a pool running dry before requests wait for it.
    Several engines in one process add up."""
    pool = engine.pool
    size = getattr(pool, "size", None)
    DB_POOL_SIZE.inc(size() if callable(size) else 0)
    overflow = getattr(pool, "overflow", None)
    idle = getattr(pool, "checkedin", None)
    reported = {"overflow": 0}
    lock = threading.Lock()

    def overflow_now(returning: bool) -> None:
        if not (callable(overflow) and callable(idle) and callable(size)):
            return
        with lock:
            now = int(overflow())
            if returning and idle() >= size():
                now -= 1  # the pool is full: the connection coming back is closed after this
            now = max(0, now)
            change, reported["overflow"] = now - reported["overflow"], now
        if change:
            DB_POOL_OVERFLOW.inc(change)

    @event.listens_for(engine, "checkout")
    def _checked_out(*_: object) -> None:
        DB_POOL_CHECKED_OUT.inc()
        overflow_now(returning=False)

    @event.listens_for(engine, "checkin")
    def _checked_in(*_: object) -> None:
        DB_POOL_CHECKED_OUT.dec()
        overflow_now(returning=True)
