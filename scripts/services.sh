#!/usr/bin/env bash
# Local services for integration tests: up | down | status. Idempotent.
#
#   bash scripts/services.sh up       # make every service answer, starting what is missing
#   bash scripts/services.sh down     # stop only what this script started
#   bash scripts/services.sh status   # one line per service
#
# Each service is a set of functions <name>_up / <name>_down / <name>_status, listed in
# SERVICES; add a service (e.g. chroma) by writing its three functions and listing it.
# What this script starts is recorded by a pid file in .cache/services/, so `down` never
# stops a server that was already running (e.g. the machine's own Redis).
#
# Env: STRATA_REDIS_URL (default redis://127.0.0.1:6379)
#      STRATA_SERVICES_TIMEOUT seconds to wait for a service to answer (default 20)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_DIR="$ROOT/.cache/services"
TIMEOUT="${STRATA_SERVICES_TIMEOUT:-20}"
SERVICES=(redis)

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
