#!/usr/bin/env bash
# The docker-compose.yml topology without Docker, on this machine: the local PostgreSQL and Redis
# (started if stopped), a migrated database, the worker and two web instances on two ports.
#
#   scripts/cluster.sh start     # or: make cluster      (prints the two URLs)
#   scripts/cluster.sh stop      # or: make cluster-stop
#   scripts/cluster.sh status
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

start() {
  mkdir -p "$RUN"
  if ls "$RUN"/*.pid >/dev/null 2>&1; then echo "already running (scripts/cluster.sh stop first)" >&2; exit 1; fi
  ensure_postgres
  ensure_redis
  "$PY" -m app.db.migrate
  for i in $(seq "$WORKERS"); do
    "$PY" -m app.worker >"$RUN/worker-$i.log" 2>&1 &
    echo $! >"$RUN/worker-$i.pid"
  done
  for port in $PORTS; do
    STEPWELL_BACKGROUND_JOBS=off "$PY" -m uvicorn app.main:create_app --factory \
      --host 127.0.0.1 --port "$port" --no-access-log --ws-per-message-deflate false \
      >"$RUN/web-$port.log" 2>&1 &
    echo $! >"$RUN/web-$port.pid"
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
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
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
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
