#!/usr/bin/env bash
# Issue 12: do the connection limits (per-connection deadline bookkeeping, one sweep timer per server, read buffers
# sized per request) cost anything on the hot path? Runs the status-check load of run_benchmarks.sh (b) against two
# builds of `rechargedesk`, alternating A B A B ... so a changing machine load hits both alike.
#
#   bash tests/bench/limits_overhead.sh BEFORE_BINARY AFTER_BINARY
#
# Settings (environment): ROUNDS (pairs, 3), DURATION (wrk seconds, 10), CONNECTIONS (32), WRK_THREADS (2).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/start_server.sh"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
before="$1"
after="$2"
rounds="${ROUNDS:-3}"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-32}"
wrk_threads="${WRK_THREADS:-2}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-limits.XXXXXX")"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
export BENCH_DIR="$here"

# One measurement: a fresh server, 3 s of sales to have ids, then the status-check load.
measure() {
    local label=$1 binary=$2 run="$work/$1-$3"
    mkdir -p "$run"
    start_server "$binary" 127.0.0.1:0 "$run/data" "$run"
    "$binary" wallet topup --mode test --amount 1000000 --note bench --data-dir "$run/data" >/dev/null
    BENCH_AUTH="Basic $(printf '%s:%s' "$key_id" "$key_secret" | base64 -w0)"
    export BENCH_AUTH
    wrk -t"$wrk_threads" -c16 -d3s -s "$here/initiate.lua" "$server_url" >/dev/null
    local max_id
    max_id="$(sqlite3 "$run/data/rechargedesk.db" 'SELECT MAX(id) FROM transactions')"
    local load cpu_before cpu_after result requests
    load="$(cut -d' ' -f1 /proc/loadavg)"
    cpu_before="$(process_cpu_ticks "$server_pid")"
    result="$(BENCH_MAX_ID="$max_id" wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency \
        -s "$here/status.lua" "$server_url" | grep '^RESULT')"
    cpu_after="$(process_cpu_ticks "$server_pid")"
    requests="$(sed -n 's/.* requests=\([0-9]*\).*/\1/p' <<<"$result")"
    # The server's own CPU time per answered request (user + system): far less sensitive to the machine's load
    # than requests per second.
    echo "$label load=$load cpu_us_per_request=$(cpu_us_per_request $((cpu_after - cpu_before)) "$requests")" \
        "${result#RESULT }"
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

echo "== $(nproc) CPU(s), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
    measure before "$before" "$round"
    measure after "$after" "$round"
done
