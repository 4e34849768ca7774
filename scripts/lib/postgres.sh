# shellcheck shell=bash
# shellcheck disable=SC2034  # the KITH_PG_* variables are for the caller
# Throwaway PostgreSQL cluster for tests and benchmarks. Source this file, then:
#
#   kith_pg_start || echo "no postgres"     # call directly, NOT inside $(...),
#   echo "$KITH_PG_URL"                      # so the KITH_PG_* variables survive
#   ...
#   kith_pg_stop                             # or: kith_pg_stop "$dir"
#
# kith_pg_start sets KITH_PG_DIR, KITH_PG_PORT, KITH_PG_URL (TCP) and
# KITH_PG_SOCKET_URL (the same database over its Unix socket), prints the URL on
# stdout (diagnostics go to stderr) and returns non-zero if anything failed, having
# cleaned up after itself. The cluster lives entirely in a temp directory on a
# random port, so it never touches (or needs) the system's own "main" cluster.
#
# KITH_PG_OPTIONS adds postmaster options (a benchmark's `-c shared_preload_libraries=…`).
#
# The URL is postgres://kith:kith@127.0.0.1:PORT/kith_test; role kith is a
# SUPERUSER so tests can create and drop their own databases.
#
# Written to be sourced by scripts running under `set -e`: every step checks
# its own result and returns instead of relying on errexit (which bash ignores
# inside functions called from `if`/`||`).

# Highest-versioned PostgreSQL bin dir, e.g. /usr/lib/postgresql/15/bin.
_kith_pg_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -n "$dir" && -x "$dir/pg_ctl" && -x "$dir/initdb" ]] || return 1
    echo "$dir"
}

# Run a server-side binary as the cluster's owner. The postmaster refuses to run
# as root, so root runs it as the `postgres` OS user (created by Debian's package);
# anyone else runs it as themselves. cd into the cluster dir first so the child
# never trips over a cwd it cannot read (e.g. /root/...).
_kith_pg_as_owner() {
    local dir=$1
    shift
    if [[ $(id -u) -eq 0 ]]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        (cd "$dir" && "$@")
    fi
}

_kith_pg_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

kith_pg_start() {
    local bindir dir port attempt started=0
    KITH_PG_DIR="" KITH_PG_PORT="" KITH_PG_URL="" KITH_PG_SOCKET_URL=""

    if ! bindir=$(_kith_pg_bindir); then
        echo "kith_pg_start: no PostgreSQL server under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2
        return 1
    fi
    if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
        echo "kith_pg_start: running as root but there is no 'postgres' OS user to own the cluster" >&2
        return 1
    fi

    # Short path: the Unix socket lives in here too and sun_path is ~107 bytes.
    dir=$(mktemp -d /tmp/kith-pg.XXXXXX) || return 1
    echo "$bindir" >"$dir/bindir" # lets kith_pg_stop DIR work from another shell
    if [[ $(id -u) -eq 0 ]]; then
        chown -R postgres: "$dir" || { rm -rf "$dir"; return 1; }
    fi
    chmod 700 "$dir"

    # Local socket: trust (only the setup below uses it). TCP: a real password
    # check, as in production, so the Swift driver's SCRAM path is exercised.
    if ! _kith_pg_as_owner "$dir" "$bindir/initdb" -D "$dir/data" -U postgres \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C --no-sync \
        >"$dir/initdb.log" 2>&1; then
        echo "kith_pg_start: initdb failed:" >&2
        tail -n 20 "$dir/initdb.log" >&2
        rm -rf "$dir"
        return 1
    fi

    # Another process may grab the port between choosing it and binding it; retry.
    for attempt in 1 2 3; do
        port=$(_kith_pg_free_port) || break
        # Durability is pointless for a throwaway cluster; turning it off makes tests faster.
        if _kith_pg_as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${KITH_PG_OPTIONS:-}" \
            start >"$dir/pg_ctl.log" 2>&1; then
            started=1
            break
        fi
        echo "kith_pg_start: pg_ctl start failed (attempt $attempt, port $port)" >&2
    done
    if [[ $started -ne 1 ]]; then
        tail -n 20 "$dir/pg_ctl.log" "$dir/server.log" >&2 2>/dev/null
        _kith_pg_as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
        rm -rf "$dir"
        return 1
    fi

    if ! "$bindir/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE kith WITH LOGIN SUPERUSER PASSWORD 'kith'" \
        -c "CREATE DATABASE kith_test OWNER kith" >"$dir/setup.log" 2>&1; then
        echo "kith_pg_start: creating role/database failed:" >&2
        cat "$dir/setup.log" >&2
        kith_pg_stop "$dir"
        return 1
    fi

    KITH_PG_DIR=$dir
    KITH_PG_PORT=$port
    KITH_PG_URL="postgres://kith:kith@127.0.0.1:$port/kith_test"
    KITH_PG_SOCKET_URL="postgres://kith:kith@/kith_test?host=$dir&port=$port"
    echo "$KITH_PG_URL"
}

# Stop the cluster (immediate: no checkpoint, we are throwing it away) and delete
# its directory. Safe to call twice, or when start failed.
kith_pg_stop() {
    local dir=${1:-${KITH_PG_DIR:-}}
    local bindir pid
    [[ -n "$dir" && -d "$dir" ]] || return 0
    bindir=$(cat "$dir/bindir" 2>/dev/null || _kith_pg_bindir || true)
    if [[ -f "$dir/data/postmaster.pid" ]]; then
        if [[ -n "$bindir" ]]; then
            _kith_pg_as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
        fi
        # pg_ctl failed or is missing: don't leave a postmaster running.
        if [[ -f "$dir/data/postmaster.pid" ]]; then
            pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)
            if [[ "$pid" =~ ^[0-9]+$ ]]; then
                kill -9 "$pid" 2>/dev/null || true
            fi
        fi
    fi
    rm -rf "$dir"
    if [[ "$dir" == "${KITH_PG_DIR:-}" ]]; then
        KITH_PG_DIR="" KITH_PG_PORT="" KITH_PG_URL="" KITH_PG_SOCKET_URL=""
    fi
    return 0
}
