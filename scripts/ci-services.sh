#!/usr/bin/env bash
# Test services on loopback for `.ci/run` (issue #15): a throwaway PostgreSQL cluster and Redis.
#   scripts/ci-services.sh start   installs postgresql and redis-server (Debian) if missing, starts
#                                  a cluster and a Redis in $SQ_SERVICES_DIR on 127.0.0.1:<free
#                                  ports>, writes $SQ_SERVICES_DIR/env (export
#                                  SUPERQODE_TEST_DATABASE_URL=… SUPERQODE_TEST_REDIS_URL=…)
#   scripts/ci-services.sh stop    stops both and removes $SQ_SERVICES_DIR
# SQ_SERVICES_REDIS=0 starts PostgreSQL only (npm run bench).
# The role may create databases: each PostgreSQL test creates (and drops) its own database.
set -euo pipefail
DIR="${SQ_SERVICES_DIR:-/tmp/superqode-ci-services}"
PGDATA="$DIR/pg"
REDIS_DIR="$DIR/redis"

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
}

pg_bin() {
  local bin
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  [ -n "$bin" ] && echo "$bin"
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  if [ -z "$(pg_bin)" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local bin port password
  bin="$(pg_bin)"
  stop_cluster
  stop_redis
  mkdir -p "$DIR" && rm -rf "$PGDATA"
  port="$(free_port)"
  password="$(node -e "process.stdout.write(require('crypto').randomBytes(18).toString('hex'))")"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR"
  printf '%s\n' "$password" >"$DIR/pwfile"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR/pwfile"
  chmod 600 "$DIR/pwfile"
  as_postgres "$bin/initdb" -D "$PGDATA" -U superqode --pwfile="$DIR/pwfile" \
    --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$DIR/pwfile"
  as_postgres "$bin/pg_ctl" -D "$PGDATA" -l "$DIR/postgres.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $DIR -c max_connections=300 -c fsync=off" start >/dev/null
  local url="postgres://superqode:${password}@127.0.0.1:${port}/postgres"
  printf 'export SUPERQODE_TEST_DATABASE_URL=%q\n' "$url" >"$DIR/env"
  chmod 600 "$DIR/env"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (env: $DIR/env)" >&2
  [ "${SQ_SERVICES_REDIS:-1}" = 0 ] || start_redis
}

# Redis on loopback with a random password, no persistence; shared rate limits (--redis-url).
start_redis() {
  if ! command -v redis-server >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  local port password
  port="$(free_port)"
  password="$(node -e "process.stdout.write(require('crypto').randomBytes(18).toString('hex'))")"
  mkdir -p "$REDIS_DIR" && chmod 700 "$REDIS_DIR"
  printf 'bind 127.0.0.1\nport %s\nrequirepass %s\nsave ""\nappendonly no\ndaemonize yes\ndir %s\npidfile %s/redis.pid\nlogfile %s/redis.log\n' \
    "$port" "$password" "$REDIS_DIR" "$REDIS_DIR" "$REDIS_DIR" >"$REDIS_DIR/redis.conf"
  chmod 600 "$REDIS_DIR/redis.conf"
  redis-server "$REDIS_DIR/redis.conf"
  for _ in $(seq 1 50); do
    REDISCLI_AUTH="$password" redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  printf 'export SUPERQODE_TEST_REDIS_URL=%q\n' "redis://:${password}@127.0.0.1:${port}/0" >>"$DIR/env"
  echo "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) on 127.0.0.1:$port" >&2
}

stop_redis() {
  if [ -f "$REDIS_DIR/redis.pid" ]; then
    kill "$(cat "$REDIS_DIR/redis.pid")" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -f "$REDIS_DIR/redis.pid" ] || break; sleep 0.1; done
  fi
}

stop_cluster() {
  local bin
  bin="$(pg_bin || true)"
  if [ -n "$bin" ] && [ -f "$PGDATA/postmaster.pid" ]; then
    as_postgres "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null || true
  fi
}

stop() {
  stop_cluster
  stop_redis
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
