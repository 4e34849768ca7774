# shellcheck shell=bash
# shellcheck disable=SC2034  # the KITH_PGBOUNCER_* variables are for the caller
# Throwaway PgBouncer in transaction mode, in front of a PostgreSQL such as the one
# scripts/lib/postgres.sh starts. Source this file, then:
#
#   kith_pgbouncer_start "$KITH_PG_URL" || echo "no pgbouncer"   # call directly, NOT inside $(...),
#   echo "$KITH_PGBOUNCER_URL"                                     # so the variables survive
#   ...
#   kith_pgbouncer_stop                                            # or: kith_pgbouncer_stop "$dir"
#
# kith_pgbouncer_start POSTGRES_URL sets KITH_PGBOUNCER_DIR, KITH_PGBOUNCER_PORT and
# KITH_PGBOUNCER_URL, prints the URL on stdout (diagnostics go to stderr) and returns
# non-zero if anything failed, having cleaned up after itself. The URL is POSTGRES_URL
# with PgBouncer's loopback address in place of PostgreSQL's: the same role, password
# and database. Every database name is passed through to the same-named database
# behind it, so databases a test creates later are reachable without a reload.
#
# Clients authenticate with SCRAM against a userlist holding the URL's password, and
# PgBouncer signs in to PostgreSQL with the same role and password. Transaction
# pooling hands a server connection to a client for one transaction only, so anything
# that needs a session (LISTEN, session advisory locks, named prepared statements in
# this version) does not survive it; that is what the tests that use it are about.
#
# Written to be sourced by scripts running under `set -e`, like postgres.sh.

_kith_pgbouncer_binary() {
    local candidate
    for candidate in "$(command -v pgbouncer 2>/dev/null)" /usr/sbin/pgbouncer /usr/bin/pgbouncer; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# Running as the cluster's owner (PgBouncer, like the postmaster, refuses to run as
# root) and choosing a free port are postgres.sh's.
# shellcheck source=scripts/lib/postgres.sh
source "$(dirname "${BASH_SOURCE[0]}")/postgres.sh"

# Prints the URL's host, port, user, password and database, one a line.
_kith_pgbouncer_url_parts() {
    python3 - "$1" <<'PYTHON'
import sys
import urllib.parse

url = urllib.parse.urlsplit(sys.argv[1])
if url.scheme not in ("postgres", "postgresql") or not url.hostname or not url.username:
    sys.exit(f"not a postgres://user:password@host:port/database URL: {sys.argv[1]}")
print(url.hostname)
print(url.port or 5432)
print(urllib.parse.unquote(url.username))
print(urllib.parse.unquote(url.password or ""))
print(url.path.lstrip("/") or urllib.parse.unquote(url.username))
PYTHON
}

kith_pgbouncer_start() {
    local postgres_url=${1:-}
    local binary dir port attempt started=0 parts host pg_port user password database
    KITH_PGBOUNCER_DIR="" KITH_PGBOUNCER_PORT="" KITH_PGBOUNCER_URL=""

    if ! binary=$(_kith_pgbouncer_binary); then
        echo "kith_pgbouncer_start: no pgbouncer on PATH or in /usr/sbin (apt-get install pgbouncer)" >&2
        return 1
    fi
    if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
        echo "kith_pgbouncer_start: running as root but there is no 'postgres' OS user to run pgbouncer" >&2
        return 1
    fi
    if ! parts=$(_kith_pgbouncer_url_parts "$postgres_url"); then
        echo "kith_pgbouncer_start: give the PostgreSQL URL to put it in front of" >&2
        return 1
    fi
    {
        read -r host
        read -r pg_port
        read -r user
        read -r password
        read -r database
    } <<<"$parts"
    if [[ $user == *'"'* || $password == *'"'* ]]; then
        echo "kith_pgbouncer_start: a double quote in the role or password does not fit a userlist" >&2
        return 1
    fi

    dir=$(mktemp -d /tmp/kith-pgbouncer.XXXXXX) || return 1
    chmod 700 "$dir"
    printf '"%s" "%s"\n' "$user" "$password" >"$dir/userlist.txt"

    # Another process may grab the port between choosing it and binding it; retry.
    for attempt in 1 2 3; do
        port=$(_kith_pg_free_port) || break
        # The pool is smaller than what the servers under test open between them, so
        # their transactions really do share server connections.
        cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$host port=$pg_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
pool_mode = transaction
max_client_conn = 400
default_pool_size = 10
reserve_pool_size = 0
server_login_retry = 1
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
        if [[ $(id -u) -eq 0 ]]; then
            chown -R postgres: "$dir" || break
        fi
        rm -f "$dir/pgbouncer.pid"
        if _kith_pg_as_owner "$dir" "$binary" -d -q "$dir/pgbouncer.ini" >"$dir/start.log" 2>&1 &&
            _kith_pgbouncer_answers "$user" "$password" "$port" "$database"; then
            started=1
            break
        fi
        echo "kith_pgbouncer_start: pgbouncer did not start (attempt $attempt, port $port)" >&2
        _kith_pgbouncer_end "$dir"
    done
    if [[ $started -ne 1 ]]; then
        tail -n 20 "$dir/start.log" "$dir/pgbouncer.log" >&2 2>/dev/null
        _kith_pgbouncer_end "$dir"
        rm -rf "$dir"
        return 1
    fi

    KITH_PGBOUNCER_DIR=$dir
    KITH_PGBOUNCER_PORT=$port
    KITH_PGBOUNCER_URL=$(python3 -c '
import sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
credentials = url.netloc.rpartition("@")[0]
print(urllib.parse.urlunsplit(url._replace(netloc=f"{credentials}@127.0.0.1:{sys.argv[2]}")))
' "$postgres_url" "$port")
    echo "$KITH_PGBOUNCER_URL"
}

# Waits up to 10 s for a query through PgBouncer to answer (its daemon returns before
# it listens), which also proves the role and password get through to PostgreSQL.
_kith_pgbouncer_answers() {
    local user=$1 password=$2 port=$3 database=$4 try
    for try in $(seq 1 50); do
        if PGPASSWORD=$password PGCONNECT_TIMEOUT=2 psql -X -q -A -t -h 127.0.0.1 -p "$port" -U "$user" \
            -d "$database" -c 'SELECT 1' >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.2
    done
    return 1
}

# Ends the pgbouncer whose pid file is in DIR: SIGTERM (it closes every connection at
# once), then SIGKILL if it is still there after 10 s.
_kith_pgbouncer_end() {
    local dir=$1 pid try
    pid=$(cat "$dir/pgbouncer.pid" 2>/dev/null || true)
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for try in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# Stop PgBouncer and delete its directory. Safe to call twice, or when start failed.
kith_pgbouncer_stop() {
    local dir=${1:-${KITH_PGBOUNCER_DIR:-}}
    [[ -n "$dir" && -d "$dir" ]] || return 0
    _kith_pgbouncer_end "$dir"
    rm -rf "$dir"
    if [[ "$dir" == "${KITH_PGBOUNCER_DIR:-}" ]]; then
        KITH_PGBOUNCER_DIR="" KITH_PGBOUNCER_PORT="" KITH_PGBOUNCER_URL=""
    fi
    return 0
}
