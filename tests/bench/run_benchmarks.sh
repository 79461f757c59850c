#!/usr/bin/env bash
# RechargeDesk benchmark (issue 2, item 7): builds a Release server, starts it on a fresh data
# directory, and measures with wrk
#   (a) POST initiate mobile recharge, sandbox SUCCESS path, 64 connections,
#   (b) GET /api/v1/transactions/{id} status check, 32 connections,
# and, in the same run, (c) a raw SQLite durable-commit baseline (tests/bench/sqlite_baseline.cpp:
# same tables, WAL, synchronous=FULL, one sale per commit). Prints a summary with the targets of
# docs/benchmarks.md. Usage: bash tests/bench/run_benchmarks.sh   (about 1 minute after the build)
#
# Settings (environment): BUILD_DIR (default <repo>/build-release), DURATION (wrk seconds, 10),
# BASELINE_SECONDS (5), WRK_THREADS (2), BENCH_TMPDIR (where the databases go; default: mktemp -d,
# which should be on the same disk as a real data directory), PORT (0 = any free port).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/start_server.sh"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$root/build-release}"
duration="${DURATION:-10}"
baseline_seconds="${BASELINE_SECONDS:-5}"
wrk_threads="${WRK_THREADS:-2}"
port="${PORT:-0}"

need_deps=0
for tool in wrk cmake ninja sqlite3 pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || need_deps=1
done
if [ "$need_deps" -eq 1 ]; then
    echo "== installing missing tools (packaging/install-deps.sh)"
    bash "$root/packaging/install-deps.sh"
fi

echo "== building Release in $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF \
    -DRECHARGEDESK_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target rechargedesk sqlite_baseline -- -j"$(nproc)" | tail -n 1
binary="$build/app/rechargedesk"
baseline="$build/tests/bench/sqlite_baseline"

work="${BENCH_TMPDIR:-$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-bench.XXXXXX")}"
mkdir -p "$work"
data="$work/data"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ -z "${BENCH_TMPDIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

# -- the machine ----------------------------------------------------------------------------
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
fs="$(df -PT "$work" | awk 'NR == 2 { print $1 " (" $2 ")" }')"
echo "== machine: $(nproc) CPU(s), $cpu; $(uname -sr); data on $fs; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# -- (c) raw SQLite baseline, run first while nothing else writes ---------------------------
echo "== raw SQLite durable-commit baseline (${baseline_seconds} s each)"
base1="$("$baseline" --db "$work/baseline-1.db" --seconds "$baseline_seconds")"
echo "$base1"
base64c="$("$baseline" --db "$work/baseline-64.db" --seconds "$baseline_seconds" --threads 64)"
echo "$base64c"

# -- the server -----------------------------------------------------------------------------
echo "== starting $binary serve"
start_server "$binary" "127.0.0.1:$port" "$data" "$work"
url="$server_url"
echo "   $url, key $key_id"

# ₹9.80 is paid per sale; a top-up is at most ₹1,000,000, so ten of them cover a million sales.
for _ in $(seq 1 10); do
    "$binary" wallet topup --mode test --amount 1000000 --note bench --data-dir "$data" >/dev/null
done
echo "   test wallet topped up with ₹10,000,000"

export BENCH_DIR="$here"
BENCH_AUTH="Basic $(printf '%s:%s' "$key_id" "$key_secret" | base64 -w0)"
export BENCH_AUTH

# One sale by hand first: the wrk figures mean nothing if this is not a 200 SUCCESS. (Without
# curl this is skipped; wrk's non-2xx count and the database check below still catch failures.)
if command -v curl >/dev/null 2>&1; then
    smoke="$(curl -sS -u "$key_id:$key_secret" -H 'Content-Type: application/json' \
        -d '{"phone_number":"9876543210","amount":"10","operator_code":"AT"}' \
        -w ' HTTP %{http_code}' "$url/api/v1/recharge/mobile/initiate-transaction")"
    case "$smoke" in
    *'"transaction_status":"SUCCESS"'*'HTTP 200') ;;
    *) echo "smoke sale failed: $smoke" >&2; exit 1 ;;
    esac
fi

# -- (a) initiate ---------------------------------------------------------------------------
echo "== wrk initiate: 64 connections, ${duration} s"
wrk -t"$wrk_threads" -c64 -d"${duration}s" --latency -s "$here/initiate.lua" "$url" | tee "$work/initiate.txt"
initiate="$(grep '^RESULT name=initiate' "$work/initiate.txt")"

db="$data/rechargedesk.db"
counts="$(sqlite3 "$db" "SELECT status || '=' || COUNT(*) FROM transactions GROUP BY status ORDER BY status" | paste -sd' ')"
max_id="$(sqlite3 "$db" 'SELECT MAX(id) FROM transactions')"
ledger_ok="$(sqlite3 "$db" "SELECT (SELECT balance FROM wallets WHERE mode = 'test') =
                                   (SELECT SUM(amount) FROM wallet_ledger WHERE mode = 'test')")"
echo "   database after the run: $counts; wallet equals ledger: $([ "$ledger_ok" = 1 ] && echo yes || echo NO)"

# -- (b) status check -----------------------------------------------------------------------
echo "== wrk status check: 32 connections, ${duration} s, ids 1..$max_id"
BENCH_MAX_ID="$max_id" wrk -t"$wrk_threads" -c32 -d"${duration}s" --latency -s "$here/status.lua" "$url" |
    tee "$work/status.txt"
status="$(grep '^RESULT name=status' "$work/status.txt")"

# -- summary --------------------------------------------------------------------------------
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 >= b + 0) ? "met" : "MISSED" }'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? "met" : "MISSED" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }

i_rps="$(field "$initiate" rps)"
s_rps="$(field "$status" rps)"
b_cps="$(field "$base1" commits_per_s)"
b64_cps="$(field "$base64c" commits_per_s)"
i_ratio="$(ratio "$i_rps" "$b_cps")"
s_ratio="$(ratio "$s_rps" 20000)"
failed=$(($(field "$initiate" non2xx) + $(field "$initiate" socket_errors) + $(field "$status" non2xx) + $(field "$status" socket_errors)))

echo
echo "== summary ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPU(s) $cpu, data on $fs)"
printf '%-34s %10s %9s %9s %9s  %s\n' "measure" "per s" "p50 ms" "p90 ms" "p99 ms" "errors"
printf '%-34s %10s %9s %9s %9s  %s\n' "initiate, 64 connections" "$i_rps" "$(field "$initiate" p50_ms)" \
    "$(field "$initiate" p90_ms)" "$(field "$initiate" p99_ms)" \
    "non-2xx $(field "$initiate" non2xx), socket $(field "$initiate" socket_errors)"
printf '%-34s %10s %9s %9s %9s  %s\n' "status check, 32 connections" "$s_rps" "$(field "$status" p50_ms)" \
    "$(field "$status" p90_ms)" "$(field "$status" p99_ms)" \
    "non-2xx $(field "$status" non2xx), socket $(field "$status" socket_errors)"
printf '%-34s %10s %9s %9s %9s\n' "raw SQLite commits, 1 thread" "$b_cps" "$(field "$base1" p50_ms)" \
    "$(field "$base1" p90_ms)" "$(field "$base1" p99_ms)"
printf '%-34s %10s %9s %9s %9s\n' "raw SQLite commits, 64 threads" "$b64_cps" "$(field "$base64c" p50_ms)" \
    "$(field "$base64c" p90_ms)" "$(field "$base64c" p99_ms)"
echo
echo "targets"
printf '  %-58s %-8s %s\n' "initiate >= 1.0x raw durable baseline (1 thread)" "$(verdict "$i_ratio" 1.0)" \
    "${i_ratio}x ($i_rps req/s / $b_cps commits/s; vs 64 threads: $(ratio "$i_rps" "$b64_cps")x)"
printf '  %-58s %-8s %s\n' "status check >= 20,000 req/s at 32 connections" "$(verdict "$s_rps" 20000)" \
    "$s_rps req/s (${s_ratio}x the target)"
printf '  %-58s %-8s %s\n' "initiate p99 < 20 ms" "$(below "$(field "$initiate" p99_ms)" 20)" \
    "$(field "$initiate" p99_ms) ms"
printf '  %-58s %-8s %s\n' "status check p99 < 20 ms" "$(below "$(field "$status" p99_ms)" 20)" \
    "$(field "$status" p99_ms) ms"
printf '  %-58s %-8s %s\n' "every response 2xx, wallet equals ledger" \
    "$([ "$failed" -eq 0 ] && [ "$ledger_ok" = 1 ] && echo met || echo MISSED)" \
    "$failed failed responses; $counts"
