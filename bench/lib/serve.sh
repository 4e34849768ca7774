# Shared by the bench scripts: build release products, start `kith serve` on a free loopback port
# with a temporary data directory, stop it and clean up on exit.
#
#   source bench/lib/serve.sh
#   bench_build kith [other products]    # sets $bench_bin (the release bin directory)
#   bench_serve "$database_url"          # sets $url, $server_pid, $bench_tmp; "" means SQLite
#                                        # (runs $bench_kith if set, else $bench_bin/kith)

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="$PATH:/opt/swift/usr/bin"
fi

bench_tmp=$(mktemp -d /tmp/kith-bench.XXXXXX)
server_pid=""

bench_cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        # Give it a moment to shut down gracefully, then insist.
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$bench_tmp"
}
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bench_build() {
    local product
    for product in "$@"; do
        echo "==> swift build -c release --product $product"
        swift build -c release --product "$product"
    done
    bench_bin="$(swift build -c release --show-bin-path)"
}

bench_serve() {
    local database_url=$1 port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    local serve_args=(serve --data "$bench_tmp/data" --port "$port")
    if [[ -n "$database_url" ]]; then
        serve_args+=(--database-url "$database_url")
    fi
    echo "==> kith ${serve_args[*]} (KITH_BCRYPT_COST=${KITH_BCRYPT_COST:-})"
    mkdir -p "$bench_tmp/data"
    # A measurement never asks OpenStreetMap's public geocoder (bench/monica.py adds addresses).
    KITH_GEOCODER_URL=off "${bench_kith:-$bench_bin/kith}" "${serve_args[@]}" >"$bench_tmp/server.log" 2>&1 </dev/null &
    server_pid=$!

    # Wait up to 60 s for /healthz to answer 200; bail out early if the server died.
    url="http://127.0.0.1:$port"
    local ready=0
    for _ in $(seq 1 300); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            break
        fi
        if python3 -c 'import sys, urllib.request; sys.exit(0 if urllib.request.urlopen(sys.argv[1], timeout=2).status == 200 else 1)' \
            "$url/healthz" >/dev/null 2>&1; then
            ready=1
            break
        fi
        sleep 0.2
    done
    if [[ $ready -ne 1 ]]; then
        echo "bench: server did not become healthy at $url/healthz; its log:" >&2
        tail -n 50 "$bench_tmp/server.log" >&2 || true
        exit 1
    fi
}
