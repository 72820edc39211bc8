#!/usr/bin/env bash
# Local services for integration tests: up | down | status. Idempotent.
#
#   bash scripts/services.sh up       # make every service answer, starting what is missing
#   bash scripts/services.sh down     # stop only what this script started
#   bash scripts/services.sh status   # one line per service
#
# Each service is a set of functions <name>_up / <name>_down / <name>_status, listed in
# SERVICES (redis, postgres, chroma, chromium); add a service by writing its three functions
# and listing it. What this script starts is recorded by a pid file in .cache/services/, so
# `down` never stops a server that was already running (e.g. the machine's own Redis or
# PostgreSQL).
#
# Env: STRATA_REDIS_URL (default redis://127.0.0.1:6379)
#      STRATA_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
#      STRATA_CHROMIUM (default /usr/bin/chromium: the browser the web app's tests drive)
#      STRATA_CHROMA_URL (default http://127.0.0.1:8765)
#      STRATA_SERVICES_TIMEOUT seconds to wait for a service to answer (default 20; Chroma
#      gets at least 60, its first start creates the database)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_DIR="$ROOT/.cache/services"
TIMEOUT="${STRATA_SERVICES_TIMEOUT:-20}"
SERVICES=(redis postgres chroma chromium)

say() { printf '%s\n' "$*"; }
die() { printf 'services: %s\n' "$*" >&2; exit 1; }

is_root() { [[ "$(id -u)" -eq 0 ]]; }

is_loopback() { [[ "$1" == 127.* || "$1" == localhost || "$1" == ::1 ]]; }

# True when the pid in file $1 is alive (a stale file from a crash does not count).
pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Polls "$@" until it succeeds or TIMEOUT seconds pass.
wait_for() {
  local deadline=$((SECONDS + TIMEOUT))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

pid_gone() { ! kill -0 "$1" 2>/dev/null; }

# Stops the process in pid file $1 (SIGTERM, then SIGKILL after the timeout) and removes the file.
stop_pid_file() {
  local pid_file="$1" pid
  pid="$(cat "$pid_file")"
  kill "$pid" 2>/dev/null || true
  wait_for pid_gone "$pid" || kill -9 "$pid" 2>/dev/null || true
  rm -f "$pid_file"
}

# --- redis -----------------------------------------------------------------------------

REDIS_URL="${STRATA_REDIS_URL:-redis://127.0.0.1:6379}"
# redis[s]://[user[:password]@]host[:port][/db]
if [[ "$REDIS_URL" =~ ^rediss?://([^@/]*@)?(\[[^]]+\]|[^:/]+)(:([0-9]+))?(/.*)?$ ]]; then
  REDIS_HOST="${BASH_REMATCH[2]#[}"
  REDIS_HOST="${REDIS_HOST%]}"
  REDIS_PORT="${BASH_REMATCH[4]:-6379}"
else
  die "STRATA_REDIS_URL must look like redis://host:port (got \"$REDIS_URL\")."
fi
REDIS_PID_FILE="$STATE_DIR/redis-$REDIS_PORT.pid"

redis_ping() {
  if command -v redis-cli >/dev/null 2>&1; then
    [[ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]
  else
    # No client installed: speak RESP over bash's /dev/tcp, in a subshell so fd 3 and the
    # silenced stderr do not outlive the check.
    (
      exec 3<>"/dev/tcp/$REDIS_HOST/$REDIS_PORT" || exit 1
      printf 'PING\r\n' >&3
      read -r -t 2 reply <&3 || exit 1
      [[ "$reply" == +PONG* ]]
    ) 2>/dev/null
  fi
}

redis_install() {
  is_root || die "redis-server is not installed and we are not root. Install it (apt-get install -y redis-server) or point STRATA_REDIS_URL at a running Redis."
  say "redis: installing redis-server with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
}

redis_up() {
  if redis_ping; then say "redis: up at $REDIS_HOST:$REDIS_PORT"; return; fi
  is_loopback "$REDIS_HOST" || die "redis: no answer at $REDIS_HOST:$REDIS_PORT, and only a local Redis can be started here."
  command -v redis-server >/dev/null 2>&1 || redis_install
  # apt's post-install may have started one already.
  if ! redis_ping; then
    mkdir -p "$STATE_DIR"
    say "redis: starting redis-server on 127.0.0.1:$REDIS_PORT"
    # No persistence: test data is throwaway. Redis writes (and on shutdown removes) the pid file.
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
      --dir "$STATE_DIR" --pidfile "$REDIS_PID_FILE" --logfile "$STATE_DIR/redis-$REDIS_PORT.log"
  fi
  wait_for redis_ping || die "redis: no PING answer at $REDIS_HOST:$REDIS_PORT after ${TIMEOUT}s (log: $STATE_DIR/redis-$REDIS_PORT.log)."
  say "redis: up at $REDIS_HOST:$REDIS_PORT"
}

redis_down() {
  if pid_alive "$REDIS_PID_FILE"; then
    stop_pid_file "$REDIS_PID_FILE"
    say "redis: stopped (127.0.0.1:$REDIS_PORT)"
  elif redis_ping; then
    rm -f "$REDIS_PID_FILE"
    say "redis: left running at $REDIS_HOST:$REDIS_PORT (not started by this script)"
  else
    rm -f "$REDIS_PID_FILE"
    say "redis: down"
  fi
}

redis_status() {
  local owner=""
  pid_alive "$REDIS_PID_FILE" && owner=" (started by services.sh)"
  if redis_ping; then say "redis: up at $REDIS_HOST:$REDIS_PORT$owner"; else say "redis: down ($REDIS_HOST:$REDIS_PORT)"; fi
}

# --- postgres --------------------------------------------------------------------------
# Reuses any server answering at the URL's host:port (normally the machine's own PostgreSQL).
# Otherwise, for a loopback host only, runs a private throwaway cluster in
# .cache/services/postgres-<port>/ (trust auth, superuser from the URL), whose postmaster pid
# is recorded in .cache/services/postgres-<port>.pid.

PG_URL="${STRATA_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
# postgres[ql]://[user[:password]@]host[:port][/db][?params]
if [[ "$PG_URL" =~ ^postgres(ql)?://(([^@/:]*)(:[^@/]*)?@)?(\[[^]]+\]|[^:/?@]+)(:([0-9]+))?(/([^/?]*))?(\?.*)?$ ]]; then
  PG_USER="${BASH_REMATCH[3]:-postgres}"
  PG_HOST="${BASH_REMATCH[5]#[}"
  PG_HOST="${PG_HOST%]}"
  PG_PORT="${BASH_REMATCH[7]:-5432}"
  # No database in the URL: libpq connects to the database named after the user.
  PG_DB="${BASH_REMATCH[9]:-$PG_USER}"
else
  die "STRATA_POSTGRES_URL must look like postgres://[user[:password]@]host[:port][/db] (got \"$PG_URL\")."
fi
PG_DATA_DIR="$STATE_DIR/postgres-$PG_PORT"
PG_PID_FILE="$STATE_DIR/postgres-$PG_PORT.pid"
PG_LOG="$PG_DATA_DIR/server.log"
PG_BY_HAND="start PostgreSQL by hand (e.g. service postgresql start, or initdb + pg_ctl start as a non-root user) or point STRATA_POSTGRES_URL at a running server"

pg_ready() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2 >/dev/null 2>&1
  else
    # No client installed: a TCP connect over bash's /dev/tcp, in a subshell so fd 3 and the
    # silenced stderr do not outlive the check.
    (exec 3<>"/dev/tcp/$PG_HOST/$PG_PORT") 2>/dev/null
  fi
}

# Prints the path of PostgreSQL program $1: from PATH, else the newest /usr/lib/postgresql/*/bin
# (Debian keeps initdb and pg_ctl there, off PATH).
pg_bin() {
  local candidate found=""
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  for candidate in /usr/lib/postgresql/*/bin/"$1"; do
    [[ -x "$candidate" ]] && found+="$candidate"$'\n'
  done
  [[ -n "$found" ]] || return 1
  printf '%s' "$found" | sort -V | tail -n 1
}

# Prints the path of pg_ctl: the one beside initdb (same version) when there is one.
pg_ctl_bin() {
  local initdb
  if initdb="$(pg_bin initdb)" && [[ -x "$(dirname "$(readlink -f "$initdb")")/pg_ctl" ]]; then
    printf '%s\n' "$(dirname "$(readlink -f "$initdb")")/pg_ctl"
  else
    pg_bin pg_ctl
  fi
}

# PostgreSQL refuses to run as root (initdb and pg_ctl exit with "cannot be run as root"), so
# as root the private cluster belongs to the system user postgres (the packages create it):
# the data directory is chowned to it and initdb/pg_ctl run through runuser (util-linux, no
# PAM prompt; su as a fallback). As any other user the cluster is simply that user's.
PG_OS_USER=""
if is_root; then
  id -u postgres >/dev/null 2>&1 && PG_OS_USER=postgres
fi

# Single-quotes $1 for /bin/sh (pg_ctl hands its -o options to a shell; su -c takes a string).
sh_quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# Runs "$@" as the owner of the private cluster (from / so the cwd need not be readable).
pg_as() {
  if [[ -z "$PG_OS_USER" ]]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    (cd / && runuser -u "$PG_OS_USER" -- "$@")
  else
    local cmd="" arg
    for arg in "$@"; do cmd+="$(sh_quote "$arg") "; done
    (cd / && su "$PG_OS_USER" -s /bin/sh -c "$cmd")
  fi
}

# True when the pid file names a live postmaster of our private cluster: after a reboot the
# pid may belong to another process, which must not be stopped.
postgres_owned() {
  pid_alive "$PG_PID_FILE" && tr '\0' ' ' <"/proc/$(cat "$PG_PID_FILE")/cmdline" 2>/dev/null | grep -qF -- "$PG_DATA_DIR"
}

# Creates database PG_DB in the private cluster unless it is postgres or already exists.
postgres_create_db() {
  local createdb psql out
  [[ "$PG_DB" == postgres ]] && return
  if createdb="$(pg_bin createdb)"; then
    out="$("$createdb" -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -- "$PG_DB" 2>&1)" && return
  elif psql="$(pg_bin psql)"; then
    out="$("$psql" -X -q -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -v ON_ERROR_STOP=1 \
      -c "CREATE DATABASE \"${PG_DB//\"/\"\"}\"" 2>&1)" && return
  else
    die "postgres: neither createdb nor psql is installed; cannot create database \"$PG_DB\"."
  fi
  [[ "$out" == *"already exists"* ]] || die "postgres: could not create database \"$PG_DB\": $out"
}

postgres_up() {
  local initdb pg_ctl socket_dir out
  if postgres_owned; then
    wait_for pg_ready || die "postgres: the cluster started here (pid $(cat "$PG_PID_FILE")) does not answer at $PG_HOST:$PG_PORT (log: $PG_LOG)."
    postgres_create_db
    say "postgres: up at $PG_HOST:$PG_PORT (started by services.sh, pid $(cat "$PG_PID_FILE"))"
    return
  fi
  if pg_ready; then
    rm -f "$PG_PID_FILE"
    say "postgres: up at $PG_HOST:$PG_PORT (already running, reused)"
    return
  fi
  is_loopback "$PG_HOST" || die "postgres: no answer at $PG_HOST:$PG_PORT, and only a local PostgreSQL can be started here; $PG_BY_HAND."
  initdb="$(pg_bin initdb)" || die "postgres: no answer at $PG_HOST:$PG_PORT and initdb is not installed (apt-get install -y postgresql); $PG_BY_HAND."
  pg_ctl="$(pg_ctl_bin)" || die "postgres: pg_ctl is not installed; $PG_BY_HAND."
  if is_root && [[ -z "$PG_OS_USER" ]]; then
    die "postgres: PostgreSQL cannot run as root and there is no postgres user to run it as; $PG_BY_HAND."
  fi
  mkdir -p "$PG_DATA_DIR"
  [[ -z "$PG_OS_USER" ]] || chown "$PG_OS_USER:" "$PG_DATA_DIR"
  pg_as test -w "$PG_DATA_DIR" -a -x "$PG_DATA_DIR" \
    || die "postgres: ${PG_OS_USER:-$(id -un)} cannot write $PG_DATA_DIR (a parent directory is not searchable?); $PG_BY_HAND."
  if [[ ! -f "$PG_DATA_DIR/PG_VERSION" ]]; then
    say "postgres: initdb $PG_DATA_DIR (superuser $PG_USER, trust auth)"
    out="$(pg_as "$initdb" -D "$PG_DATA_DIR" -U "$PG_USER" --auth=trust -E UTF8 2>&1)" \
      || die "postgres: initdb failed: $out"
  fi
  # The Unix socket lives in the data directory; a socket path over 107 bytes (a deep checkout)
  # is refused, so then there is none: every client here goes through TCP anyway.
  socket_dir="$PG_DATA_DIR"
  ((${#PG_DATA_DIR} + ${#PG_PORT} + 10 <= 107)) || socket_dir=""
  say "postgres: starting a private cluster on $PG_HOST:$PG_PORT (data: $PG_DATA_DIR, log: $PG_LOG)"
  out="$(pg_as "$pg_ctl" -D "$PG_DATA_DIR" -l "$PG_LOG" \
    -o "-p $PG_PORT -k $(sh_quote "$socket_dir") -c listen_addresses=$(sh_quote "$PG_HOST")" -w start 2>&1)" || {
    printf 'services: postgres: pg_ctl start failed (%s:%s):\n%s\nlast lines of %s:\n' "$PG_HOST" "$PG_PORT" "$out" "$PG_LOG" >&2
    tail -n 20 "$PG_LOG" >&2 || true
    exit 1
  }
  head -n 1 "$PG_DATA_DIR/postmaster.pid" >"$PG_PID_FILE"
  wait_for pg_ready || die "postgres: no answer at $PG_HOST:$PG_PORT after ${TIMEOUT}s (log: $PG_LOG)."
  postgres_create_db
  say "postgres: up at $PG_HOST:$PG_PORT (pid $(cat "$PG_PID_FILE"))"
}

postgres_down() {
  local pg_ctl
  if postgres_owned; then
    if ! { pg_ctl="$(pg_ctl_bin)" && pg_as "$pg_ctl" -D "$PG_DATA_DIR" -m fast -w stop >/dev/null 2>&1; }; then
      stop_pid_file "$PG_PID_FILE"
    fi
    rm -f "$PG_PID_FILE"
    say "postgres: stopped ($PG_HOST:$PG_PORT)"
  elif pg_ready; then
    rm -f "$PG_PID_FILE"
    say "postgres: left running at $PG_HOST:$PG_PORT (not started by this script)"
  else
    rm -f "$PG_PID_FILE"
    say "postgres: down"
  fi
}

postgres_status() {
  local owner=""
  postgres_owned && owner=" (started by services.sh, pid $(cat "$PG_PID_FILE"))"
  if pg_ready; then say "postgres: up at $PG_HOST:$PG_PORT$owner"; else say "postgres: down ($PG_HOST:$PG_PORT)"; fi
}

# --- chroma ----------------------------------------------------------------------------
# The server comes from the npm package (chromadb's CLI over its native bindings, pinned to
# 1.0.5 by the root package.json's overrides), so `npm ci` installs it: no Python, no Docker.

CHROMA_URL="${STRATA_CHROMA_URL:-http://127.0.0.1:8765}"
CHROMA_URL="${CHROMA_URL%/}"
# http[s]://host[:port][/path]
if [[ "$CHROMA_URL" =~ ^(https?)://(\[[^]]+\]|[^:/]+)(:([0-9]+))?(/.*)?$ ]]; then
  CHROMA_SCHEME="${BASH_REMATCH[1]}"
  CHROMA_HOST="${BASH_REMATCH[2]#[}"
  CHROMA_HOST="${CHROMA_HOST%]}"
  CHROMA_DEFAULT_PORT=80
  [[ "$CHROMA_SCHEME" == https ]] && CHROMA_DEFAULT_PORT=443
  CHROMA_PORT="${BASH_REMATCH[4]:-$CHROMA_DEFAULT_PORT}"
else
  die "STRATA_CHROMA_URL must look like http://host:port (got \"$CHROMA_URL\")."
fi
CHROMA_CLI="$ROOT/node_modules/chromadb/dist/cli.mjs"
CHROMA_DATA_DIR="$ROOT/.cache/chroma-data/$CHROMA_PORT"
CHROMA_PID_FILE="$STATE_DIR/chroma-$CHROMA_PORT.pid"
CHROMA_LOG="$STATE_DIR/chroma-$CHROMA_PORT.log"
# Creating a new database and loading the native bindings takes longer than Redis needs.
CHROMA_TIMEOUT=$((TIMEOUT > 60 ? TIMEOUT : 60))

chroma_heartbeat() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsS -m 2 -o /dev/null "$CHROMA_URL/api/v2/heartbeat" 2>/dev/null
  else
    # No curl: plain HTTP over bash's /dev/tcp (https needs curl), in a subshell so fd 3
    # and the silenced stderr do not outlive the check.
    [[ "$CHROMA_SCHEME" == http ]] || return 1
    (
      exec 3<>"/dev/tcp/$CHROMA_HOST/$CHROMA_PORT" || exit 1
      printf 'GET /api/v2/heartbeat HTTP/1.0\r\nHost: %s\r\n\r\n' "$CHROMA_HOST" >&3
      read -r -t 2 status <&3 || exit 1
      [[ "$status" == HTTP/1.[01]\ 200* ]]
    ) 2>/dev/null
  fi
}

# True when the pid file names a live Chroma started from this checkout: after a reboot the
# pid may belong to another process, which must not be stopped.
chroma_owned() {
  pid_alive "$CHROMA_PID_FILE" && tr '\0' ' ' <"/proc/$(cat "$CHROMA_PID_FILE")/cmdline" 2>/dev/null | grep -qF "$CHROMA_CLI"
}

# Waits for the heartbeat of the server just started; fails at once if it exits.
chroma_started() {
  local deadline=$((SECONDS + CHROMA_TIMEOUT))
  until chroma_heartbeat; do
    pid_alive "$CHROMA_PID_FILE" && ((SECONDS < deadline)) || return 1
    sleep 0.3
  done
}

# A Chroma can answer its heartbeat and still fail every request: one started from a checkout
# that was deleted since keeps running without its data dir ("unable to open database file").
chroma_serves() {
  command -v curl >/dev/null 2>&1 || return 0
  curl -fsS -m 5 -o /dev/null "$CHROMA_URL/api/v2/tenants/default_tenant/databases/default_database/collections?limit=1" 2>/dev/null
}

# The pid of a local Chroma CLI on this port whose data dir is gone (left by a removed checkout).
chroma_orphan_pid() {
  local pid args path
  for pid in $(pgrep -f "chromadb/dist/cli.mjs run" 2>/dev/null); do
    args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
    [[ "$args" == *"--port $CHROMA_PORT "* || "$args" == *"--port $CHROMA_PORT" ]] || continue
    path=$(sed -E 's/.*--path ([^ ]+).*/\1/' <<<"$args")
    if [[ -n "$path" && ! -d "$path" ]]; then echo "$pid"; return 0; fi
  done
  return 1
}

chroma_up() {
  if chroma_heartbeat; then
    local orphan
    # an orphan may still list collections (its open files survive) but fails to create any
    if ! orphan=$(chroma_orphan_pid); then
      chroma_serves && { say "chroma: up at $CHROMA_URL"; return; }
      die "chroma: $CHROMA_URL answers its heartbeat but cannot list collections; stop that server or set STRATA_CHROMA_URL to another one."
    fi
    say "chroma: the server at $CHROMA_URL (pid $orphan) lost its data dir; stopping it to start a new one"
    kill "$orphan" 2>/dev/null || true
    local deadline=$((SECONDS + 15))
    while chroma_heartbeat && ((SECONDS < deadline)); do sleep 0.3; done
    chroma_heartbeat && die "chroma: the orphaned server (pid $orphan) did not stop."
  fi
  [[ "$CHROMA_SCHEME" == http ]] && is_loopback "$CHROMA_HOST" \
    || die "chroma: no answer at $CHROMA_URL, and only a local http Chroma can be started here."
  [[ -f "$CHROMA_CLI" ]] || die "chroma: $CHROMA_CLI is missing; run npm ci first."
  command -v node >/dev/null 2>&1 || die "chroma: node is not on PATH."
  mkdir -p "$STATE_DIR" "$CHROMA_DATA_DIR"
  say "chroma: starting on $CHROMA_HOST:$CHROMA_PORT (data: $CHROMA_DATA_DIR, log: $CHROMA_LOG)"
  # nohup execs node, so $! is the server itself (the server runs inside the node process).
  nohup node "$CHROMA_CLI" run --path "$CHROMA_DATA_DIR" --host "$CHROMA_HOST" --port "$CHROMA_PORT" \
    >"$CHROMA_LOG" 2>&1 </dev/null &
  echo $! >"$CHROMA_PID_FILE"
  if ! chroma_started; then
    local reason="the server exited"
    pid_alive "$CHROMA_PID_FILE" && reason="no heartbeat after ${CHROMA_TIMEOUT}s"
    printf 'services: chroma: %s (%s); last lines of %s:\n' "$reason" "$CHROMA_URL" "$CHROMA_LOG" >&2
    tail -n 20 "$CHROMA_LOG" >&2 || true
    if pid_alive "$CHROMA_PID_FILE"; then stop_pid_file "$CHROMA_PID_FILE"; else rm -f "$CHROMA_PID_FILE"; fi
    exit 1
  fi
  say "chroma: up at $CHROMA_URL (pid $(cat "$CHROMA_PID_FILE"))"
}

chroma_down() {
  if chroma_owned; then
    stop_pid_file "$CHROMA_PID_FILE"
    say "chroma: stopped ($CHROMA_URL)"
  elif chroma_heartbeat; then
    rm -f "$CHROMA_PID_FILE"
    say "chroma: left running at $CHROMA_URL (not started by this script)"
  else
    rm -f "$CHROMA_PID_FILE"
    say "chroma: down"
  fi
}

chroma_status() {
  local owner=""
  chroma_owned && owner=" (started by services.sh, pid $(cat "$CHROMA_PID_FILE"))"
  if chroma_heartbeat; then say "chroma: up at $CHROMA_URL$owner"; else say "chroma: down ($CHROMA_URL)"; fi
}

# --- chromium --------------------------------------------------------------------------
# Not a server: the browser the web app's tests drive with playwright-core (Debian's package;
# no browser download). `up` installs it when missing; `down` leaves it installed.
CHROMIUM="${STRATA_CHROMIUM:-/usr/bin/chromium}"

chromium_up() {
  if [[ -x "$CHROMIUM" ]]; then say "chromium: installed at $CHROMIUM"; return; fi
  [[ "$CHROMIUM" == /usr/bin/chromium ]] || die "chromium: $CHROMIUM (STRATA_CHROMIUM) does not exist."
  is_root || die "chromium is not installed and we are not root. Install it (apt-get install -y chromium) or set STRATA_CHROMIUM to a Chromium binary."
  say "chromium: installing chromium with apt-get (for the web app's browser tests)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  [[ -x "$CHROMIUM" ]] || die "chromium: apt-get install chromium did not put a browser at $CHROMIUM."
  say "chromium: installed at $CHROMIUM"
}

chromium_down() { :; }

chromium_status() {
  if [[ -x "$CHROMIUM" ]]; then say "chromium: installed at $CHROMIUM"; else say "chromium: not installed ($CHROMIUM)"; fi
}

# --- main ------------------------------------------------------------------------------

main() {
  local command="${1:-}" i
  case "$command" in
    up | status)
      for i in "${SERVICES[@]}"; do "${i}_${command}"; done ;;
    down)
      # Reverse order: later services may depend on earlier ones.
      for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do "${SERVICES[i]}_down"; done ;;
    *)
      die "usage: scripts/services.sh up | down | status (got \"$command\")" ;;
  esac
}

main "$@"
