#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and local trials (data in a fresh /tmp folder).
#
#   scripts/pg-throwaway.sh start          start one; prints shell-evaluable lines:
#                                          PGDIR=/tmp/ocp-pg.XXXX PGPORT=NNNN
#                                          OCP_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:NNNN/ocp
#   scripts/pg-throwaway.sh pause  PGDIR   stop the server, keep its data
#   scripts/pg-throwaway.sh resume PGDIR   start it again on the same port
#   scripts/pg-throwaway.sh stop   PGDIR   stop the server and delete its folder
#
# As root the server runs as the `postgres` user (it refuses to run as root), so the folder
# lives under /tmp where that user can reach it. Durability is switched off: it is thrown away.
# Needs the server binaries: apt-get install -y postgresql
set -euo pipefail

die() { echo "pg-throwaway: $*" >&2; exit 1; }

pgbin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [[ -z "$dir" ]] && command -v initdb >/dev/null; then
        dir=$(dirname "$(command -v initdb)")
    fi
    [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]] ||
        die "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install -y postgresql"
    echo "$dir"
}

as_pg() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

server_start() {
    local dir=$1 bin port
    bin=$(pgbin)
    port=$(cat "$dir/port")
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $dir/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null || { cat "$dir/log" >&2; die "the server did not start"; }
}

server_stop() {
    local dir=$1 bin
    bin=$(pgbin)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
}

check_dir() {
    [[ -n "${1:-}" && -f "$1/port" && -d "$1/data" ]] || die "not a throwaway cluster folder: ${1:-}"
}

case "${1:-}" in
start)
    bin=$(pgbin)
    dir=$(mktemp -d /tmp/ocp-pg.XXXXXX)
    mkdir -p "$dir/sock"
    free_port >"$dir/port"
    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || die "no postgres user (install the postgresql package)"
        chown -R postgres: "$dir"
    fi
    as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=trust \
        -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    server_start "$dir"
    port=$(cat "$dir/port")
    as_pg "$bin/createdb" -h "$dir/sock" -p "$port" -U postgres ocp
    echo "PGDIR=$dir"
    echo "PGPORT=$port"
    echo "OCP_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:$port/ocp"
    ;;
pause)
    check_dir "${2:-}"
    server_stop "$2"
    ;;
resume)
    check_dir "${2:-}"
    server_start "$2"
    ;;
stop)
    check_dir "${2:-}"
    server_stop "$2" || true
    rm -rf "$2"
    ;;
*)
    sed -n '2,12p' "$0" >&2
    exit 2
    ;;
esac
