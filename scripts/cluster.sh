#!/usr/bin/env bash
# The docker-compose.yml topology without Docker, on this machine: the local PostgreSQL and Redis
# (started if stopped), a migrated database, the worker and two web instances on two ports.
#
#   scripts/cluster.sh start     # or: make cluster      (prints the two URLs)
#   scripts/cluster.sh stop      # or: make cluster-stop
#   scripts/cluster.sh status
#   scripts/cluster.sh rolling-restart   # each web instance, then each worker, in turn (a deploy)
#
# Settings (environment): CLUSTER_PORTS="8001 8002", CLUSTER_WORKERS=1,
# DATABASE_URL (default: local PostgreSQL, database stepwell_cluster), REDIS_URL,
# STEPWELL_REDIS_PREFIX (default "stepwell-cluster:"). Logs and pid files: data/cluster/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}
RUN=$ROOT/data/cluster
PORTS=${CLUSTER_PORTS:-"8001 8002"}
WORKERS=${CLUSTER_WORKERS:-1}
PG_HOST=${PG_HOST:-127.0.0.1}
PG_DB=${PG_DB:-stepwell_cluster}
export DATABASE_URL=${DATABASE_URL:-postgresql+psycopg://postgres@$PG_HOST:5432/$PG_DB}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
export STEPWELL_REDIS_PREFIX=${STEPWELL_REDIS_PREFIX:-stepwell-cluster:}
export STEPWELL_SECRET_KEY=${STEPWELL_SECRET_KEY:-${SECRET_KEY:-cluster-secret-change-me}}

ensure_postgres() {
  if ! pg_isready -q -h "$PG_HOST"; then
    version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
    [ -n "$version" ] && pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    for _ in $(seq 50); do pg_isready -q -h "$PG_HOST" && break; sleep 0.2; done
  fi
  pg_isready -q -h "$PG_HOST" || { echo "PostgreSQL at $PG_HOST is not reachable" >&2; exit 1; }
  if [[ $DATABASE_URL == *"@$PG_HOST:5432/$PG_DB" ]]; then
    psql -h "$PG_HOST" -U postgres -tAc "select 1 from pg_database where datname='$PG_DB'" \
      | grep -q 1 || psql -h "$PG_HOST" -U postgres -qc "create database \"$PG_DB\""
  fi
}

ensure_redis() {
  if ! redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    for _ in $(seq 50); do redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1 && break; sleep 0.2; done
  fi
  redis-cli -u "$REDIS_URL" ping >/dev/null || { echo "Redis at $REDIS_URL is not reachable" >&2; exit 1; }
}

start_worker() {
  "$PY" -m app.worker >>"$RUN/worker-$1.log" 2>&1 &
  echo $! >"$RUN/worker-$1.pid"
}

start_web() {
  # --timeout-graceful-shutdown bounds uvicorn's wait for HTTP requests after the app's own
  # drain (STEPWELL_DRAIN_GRACE_SECONDS + at most STEPWELL_DRAIN_TIMEOUT_SECONDS).
  STEPWELL_BACKGROUND_JOBS=off "$PY" -m uvicorn app.main:create_app --factory \
    --host 127.0.0.1 --port "$1" --no-access-log --ws-per-message-deflate false \
    --timeout-graceful-shutdown 15 >>"$RUN/web-$1.log" 2>&1 &
  echo $! >"$RUN/web-$1.pid"
}

# SIGTERM, then wait for the process to end (kill -9 after $2 seconds).
stop_process() {
  local pid=$1 seconds=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq $((seconds * 10))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "pid $pid still running after ${seconds}s: killed" >&2
  kill -9 "$pid" 2>/dev/null || true
}

wait_ready() {
  for _ in $(seq 150); do
    curl -fs "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0; sleep 0.2
  done
  echo "web :$1 is not ready; see $RUN/web-$1.log" >&2
  return 1
}

# A deploy: one web instance at a time is stopped with SIGTERM (it drains: /readyz 503, sockets
# told 1012 once their moves are acknowledged, requests finished), started again and waited for
# until /readyz answers; then each worker (the leader releases its lock at once on SIGTERM).
rolling_restart() {
  ls "$RUN"/*.pid >/dev/null 2>&1 || { echo "not running (scripts/cluster.sh start first)" >&2; exit 1; }
  for port in $PORTS; do
    [ -e "$RUN/web-$port.pid" ] || continue
    stop_process "$(cat "$RUN/web-$port.pid")" 60
    start_web "$port"
    wait_ready "$port" || exit 1
    echo "web :$port restarted (pid $(cat "$RUN/web-$port.pid"))"
  done
  for pidfile in "$RUN"/worker-*.pid; do
    [ -e "$pidfile" ] || continue
    i=$(basename "$pidfile" .pid); i=${i#worker-}
    stop_process "$(cat "$pidfile")" 30
    start_worker "$i"
    echo "worker $i restarted (pid $(cat "$pidfile"))"
  done
}

start() {
  mkdir -p "$RUN"
  if ls "$RUN"/*.pid >/dev/null 2>&1; then echo "already running (scripts/cluster.sh stop first)" >&2; exit 1; fi
  ensure_postgres
  ensure_redis
  "$PY" -m app.db.migrate
  for i in $(seq "$WORKERS"); do
    : >"$RUN/worker-$i.log"
    start_worker "$i"
  done
  for port in $PORTS; do
    : >"$RUN/web-$port.log"
    start_web "$port"
  done
  for port in $PORTS; do
    for _ in $(seq 100); do
      curl -fs "http://127.0.0.1:$port/api/v1/games" >/dev/null 2>&1 && break; sleep 0.2
    done
    curl -fs "http://127.0.0.1:$port/api/v1/games" >/dev/null || { echo "web :$port did not start; see $RUN/web-$port.log" >&2; stop; exit 1; }
    echo "http://127.0.0.1:$port"
  done
}

stop() {
  for pidfile in "$RUN"/*.pid; do
    [ -e "$pidfile" ] || continue
    stop_process "$(cat "$pidfile")" 30
    rm -f "$pidfile"
  done
}

status() {
  for pidfile in "$RUN"/*.pid; do
    [ -e "$pidfile" ] || { echo "not running"; return; }
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then state=up; else state=gone; fi
    echo "$(basename "$pidfile" .pid) pid $pid $state"
  done
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  rolling-restart) rolling_restart ;;
  *) echo "usage: $0 start|stop|status|rolling-restart" >&2; exit 2 ;;
esac
