"""All configuration in one pydantic-settings class, read from the environment (STEPWELL_ prefix
or the bare names DATABASE_URL / REDIS_URL / SECRET_KEY that hosting platforms set)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = PROJECT_ROOT / "data"


def _default_secret_key() -> str:
    """A per-installation secret kept in data/, so cookies survive restarts unconfigured."""
    path = DATA_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPWELL_", extra="ignore")

    log_format: Literal["text", "json"] | None = None
    """``json``: one JSON object a line with the request's id (production); ``text``: plain
    lines; unset: leave logging as the server (uvicorn) set it up."""

    database_url: str = Field(
        default=f"sqlite:///{DATA_DIR / 'stepwell.db'}",
        validation_alias=AliasChoices("STEPWELL_DATABASE_URL", "DATABASE_URL"),
    )
    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("STEPWELL_REDIS_URL", "REDIS_URL")
    )
    secret_key: str = Field(
        default_factory=_default_secret_key,
        validation_alias=AliasChoices("STEPWELL_SECRET_KEY", "SECRET_KEY"),
    )
    vapid_private_key: str | None = None
    """Web push's VAPID key (a PEM EC P-256 private key, or its raw 32 bytes in base64url);
    unset: generated into ``data/vapid_private.pem`` on first start, like the secret key."""
    vapid_subject: str = "mailto:admin@stepwell.invalid"
    """Who push services may contact about this sender (``mailto:`` or an https URL)."""
    push_allow_insecure_endpoints: bool = False
    """Accept http push endpoints (tests, local development); else only https."""
    push_reminder_hours: float = 12.0
    """A correspondence clock with less than this left (or less than a quarter of a move's time,
    whichever is shorter) sends its mover one ``clockReminder`` push for that turn."""
    push_reminder_scan_seconds: float = 60.0
    """How often the push job looks for correspondence clocks about to run out."""
    push_retry_seconds: list[float] = [2.0, 10.0, 60.0]
    """Waits before each new attempt of a push the push service refused for a while (5xx, 429,
    unreachable); after the last, it is dropped."""
    seek_grace_seconds: float = 30.0
    claim_after_seconds: float = 60.0
    """How long a real-time opponent must be gone before the other player may claim the win."""
    """How long a seek outlives its creator's last open connection."""
    vacation_days_per_year: float = 30.0
    """Days a year a person's correspondence clocks may stand still (app/match/vacation.py)."""
    bots_enabled: bool = True
    bot_workers: int = 1
    """Worker processes for bot thinking (kept below the core count so the server stays quick)."""
    analysis_workers: int = 2
    """Worker processes for computer analysis of finished games (0 = none). They run only on
    idle CPU time (SCHED_IDLE), so two use a 2-core machine's spare time without slowing play."""
    analysis_budget: int = 0
    """Search iterations per analysed position; 0 = each game's own (app/analysis/compute.py)."""
    luck_workers: int = 1
    """Worker processes (idle CPU only) that compute what luck did in finished Town games
    (app/luck/); 0 = none."""
    luck_iterations: int = 1500
    """Search iterations a move of the bot that sees every secret, in those reports."""
    board_state_max_age: int = 7 * 86400
    """Seconds an analysis-board signed state is accepted (app/analysis/signed.py); shareable
    links carry the move list, not the token, so they do not expire."""
    telemetry: bool = False
    """FastAPI's native OpenTelemetry (tracing, metrics, logs) when a provider is configured.
    Off by default: even with no provider, FastAPI then looks the providers up (environment
    included) on every request, profiled at a tenth of the server's CPU per move."""
    db_pool_size: int = 8
    """Database connections per process; worker threads are capped at the same number, so a
    thread never waits for a connection (see app/db/one_hop.py)."""
    max_pending_requests: int = 512
    """HTTP requests in flight per process beyond which the server answers 503 at once."""
    trusted_origins: list[str] = []
    """Other origins whose pages may open websockets (same-site always may; a client that sends
    no Origin is not a browser and is not checked)."""
    max_streams_per_token: int = 8
    """Open NDJSON streams and websockets one token may hold at a time on one instance (more:
    429 ``rate_limited``, a socket closes with 4429); browser sessions and anonymous callers
    are not counted."""
    secure_cookies: bool = False
    """Set true behind HTTPS so the session cookie is never sent in clear."""

    # Rate limits (app/http/ratelimit.py), in the `limits` notation: "N/second|minute|hour|day", several
    # joined by ";". Counted in a moving window, in Redis when REDIS_URL is set.
    rate_guests: str = "10/minute;100/hour"
    """Guest creations per client address."""
    rate_accounts: str = "5/minute;30/hour"
    """Account creations (and guest upgrades) per client address."""
    rate_login_address: str = "20/minute;200/hour"
    """Login attempts per client address."""
    rate_login_account: str = "10/minute;60/hour"
    """Login attempts per account name."""
    login_lockout_after: int = 5
    """Consecutive failed logins of one account before it is locked…"""
    login_lockout_seconds: float = 2.0
    """…for this long, doubling with each further failure…"""
    login_lockout_max_seconds: float = 900.0
    """…up to this long; a successful login resets the count."""
    rate_matches: str = "20/minute;300/hour"
    """Match creations per user."""
    rate_seeks: str = "20/minute;300/hour"
    """Seeks posted (quick play included) per user."""
    rate_challenges: str = "10/minute;100/hour"
    """Challenges sent per user."""
    rate_follows: str = "30/minute;300/hour"
    """Follows and unfollows per user."""
    rate_moves: str = "10/second;120/minute"
    """Refused moves (REST and socket: a stale ply, not your turn, an illegal move…) per caller
    per match, with why-questions and conditional-move updates; a move played on your turn
    never counts, so no program playing on its turns meets it, in any number of matches."""
    rate_previews: str = "20/second;1200/minute"
    """Move previews per token (a tap on the board asks one; cached per position and move)."""
    rate_chat: str = "3/second;60/minute"
    """Chat messages per token."""
    rate_analysis: str = "5/minute;60/hour"
    """Computer analyses requested per token, session or address (one per game in any case)."""
    rate_hints: str = "10/minute;200/hour"
    """Hints ("show a good move") per token."""
    rate_board: str = "60/minute;1200/hour"
    """Analysis-board moves per token (each replays its move list or opens a signed state)."""
    rate_exports: str = "6/minute;60/hour"
    """Bulk exports of searched games (``GET /api/v1/games/export``) per token, session or
    address: each streams every game the search finds."""
    rate_password_reset: str = "5/minute;30/hour"
    """Password-reset requests per client address."""
    rate_password_reset_email: str = "3/hour;10/day"
    """Password-reset requests per email address asked about (known or not, counted alike)."""
    rate_email_change: str = "5/hour;20/day"
    """Email addresses set per user (each one sends a confirmation mail)."""
    rate_oauth: str = "30/minute;300/hour"
    """OAuth token and revocation requests per client address."""
    rate_limit_scale: float = 1.0
    """Multiplies every count above (tests raise it so ordinary suites never meet a limit);
    0 switches rate limiting off."""
    rate_limit_prefix: str = "stepwell-limits"
    """Prefix of the Redis keys, so several sites can share one Redis."""
    redis_prefix: str = "stepwell:"
    """Prefix of every Redis key and channel, so one Redis can serve several deployments."""
    background_jobs: str = "auto"
    """"auto": this process runs the background jobs (clocks, pairing, seek expiry, bots) when it
    is the only one (no Redis) or holds the leader lock (Redis); "off": never (web instances when
    a worker, ``python -m app.worker``, is deployed)."""
    leader_ttl_seconds: float = 1.5
    """Lifetime of the jobs' leader lock: a killed leader is replaced within this time (plus one
    ``leader_renew_seconds``), so bots answer within about 2 s of a leader's kill -9."""
    leader_renew_seconds: float = 0.3
    """How often the leader renews its lock, and how often a stand-by tries to take it. Five
    renewals per lifetime: a leader misses the lock only if its loop or Redis stalls for most
    of ``leader_ttl_seconds`` (it then stops its jobs before another can start them)."""
    presence_heartbeat_seconds: float = 1.0
    """How often an instance tells Redis it is alive (taken for dead after 5 beats + 5 s)."""
    drain_grace_seconds: float = 2.0
    """After SIGTERM, how long a web instance answers ``/readyz`` 503 ``draining`` while still
    serving everything, so a load balancer or orchestrator stops sending it new clients before
    its sockets are told to reconnect elsewhere."""
    drain_timeout_seconds: float = 10.0
    """After the grace period, the longest wait for socket moves in flight to be acknowledged and
    for the sockets to close; then uvicorn's own shutdown closes whatever is left."""
    rebalance_seconds: float = 10.0
    """With Redis: how often a web instance compares its open sockets and streams with the
    other instances' and, holding clearly more than its share, tells some to reconnect (close
    1012), so they spread again after a rolling restart (app/http/rebalance.py); 0: never."""
    rebalance_min_excess: int = 10
    """Connections over its share an instance must hold before it sheds any."""

    # Email (app/mail/): off unless both the SMTP server and the public address are set.
    smtp_url: str | None = None
    """``smtp://user:password@host:587`` (STARTTLS, required), ``smtps://user:password@host:465``
    (TLS from the first byte), or ``smtp://host:25?starttls=off`` for a relay on the same machine
    (plain). Unset: no email features (pages hide them; the API answers 404 ``email_disabled``)."""
    smtp_ca_file: str | None = None
    """A CA bundle the SMTP server's certificate is checked against (default: the system's)."""
    public_url: str | None = None
    """The site's address as visitors reach it (``https://stepwell.example``): mails' links."""
    mail_from: str | None = None
    """The sender of every mail; default ``Stepwell <stepwell@HOST>`` with the public URL's host."""
    mail_poll_seconds: float = 2.0
    """How often the worker looks for mail to send (mail queued in a request waits at most this)."""
    mail_retry_seconds: float = 30.0
    """The wait after a failed send, doubling with each further failure (up to six hours)."""
    mail_max_attempts: int = 10
    """Sends tried before a mail is given up (logged, counted as failed)."""
    mail_digest_check_seconds: float = 600.0
    """How often the worker looks whose daily correspondence digest is due."""
