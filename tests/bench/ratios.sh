#!/usr/bin/env bash
# Issue 17's three ratios in ONE run on the same machine, each pair one after the other, with the load average
# printed before every wrk run:
#   (1) status check GET /api/v1/transactions/{id}, 32 connections   vs  nginx (1 worker) serving the same
#       body bytes (one status-check answer) as a static file          target >= 0.5x
#   (2) plans lookup POST /api/v1/plans/mobile/prepaid-plans, 32 conn  vs  nginx serving the same bytes   >= 0.8x
#   (3) mobile initiate (sandbox SUCCESS path), 64 connections         vs  raw SQLite durable commits, one per
#       sale (tests/bench/sqlite_baseline.cpp, 1 thread)               target >= 2.0x, initiate p99 < 20 ms
# nginx runs with worker_processes 1, the reference issue 17 names (the server itself reads and writes HTTP on its
# --http-threads workers, by default one per CPU core). The status checks ask for random ids among the sales of (3),
# which are all final (SUCCESS); most are not in the server's FinalRecordCache (10 000 answers), so they are reads.
# Beside each rate: the CPU time per request of the process answering (all its threads) and of wrk, from
# /proc/PID/stat and GNU time, which the machine's load changes less than the rates.
#
# Usage: bash tests/bench/ratios.sh    (about a minute after the build)
# Settings (environment): BUILD_DIR (default <repo>/build-release, Release with the bench tools), BINARY and
# BASELINE (use these binaries, build nothing), DURATION (wrk seconds, 10), BASELINE_SECONDS (5), WRK_THREADS (1),
# NGINX (/usr/sbin/nginx), BENCH_TMPDIR (databases; default mktemp -d: put it on the disk to measure), SERVE_ARGS
# (more serve options, e.g. "--http-threads 0" for every request on the server thread). LD_LIBRARY_PATH reaches the
# server too (e.g. a QtHttpServer built with a change to try); the line after it starts names the library it loaded.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/start_server.sh"
. "$here/nginx.sh"
duration="${DURATION:-10}"
baseline_seconds="${BASELINE_SECONDS:-5}"
wrk_threads="${WRK_THREADS:-1}"

for tool in wrk curl sqlite3 python3 /usr/bin/time "${NGINX:-/usr/sbin/nginx}"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (bash packaging/install-deps.sh)" >&2; exit 1; }
done
if [ -n "${BINARY:-}" ] && [ -n "${BASELINE:-}" ]; then
    binary="$BINARY"
    baseline="$BASELINE"
else
    build="${BUILD_DIR:-$root/build-release}"
    echo "== building Release in $build"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF \
        -DRECHARGEDESK_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" --target rechargedesk sqlite_baseline | tail -n 1
    binary="$build/app/rechargedesk"
    baseline="$build/tests/bench/sqlite_baseline"
fi

work="${BENCH_TMPDIR:-$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-ratios.XXXXXX")}"
mkdir -p "$work"
server_pid=""
nginx_pid=""
cleanup() {
    for pid in "$server_pid" "$nginx_pid"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    if [ -z "${BENCH_TMPDIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 >= b + 0) ? "met" : "MISSED" }'; }

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
fs="$(df -PT "$work" | awk 'NR == 2 { print $1 " (" $2 ")" }')"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) CPU(s), $cpu; $(uname -sr); data on $fs"
echo "== $binary serve ${SERVE_ARGS:-}; load average $(load)"

# -- (3b) the raw durable-commit baseline, first, while nothing else writes -----------------------------------
echo "== raw SQLite durable commits, 1 thread, ${baseline_seconds} s (load $(load))"
base="$("$baseline" --db "$work/baseline.db" --seconds "$baseline_seconds")"
echo "$base"

# -- the server ------------------------------------------------------------------------------------------------
start_server "$binary" "127.0.0.1:0" "$work/data" "$work"
fund_test_wallet "$binary" "$work/data"
export_bench_auth "$here"
echo "== $server_url, test key $key_id, test wallet topped up; QtHttpServer: $(qt_http_library "$server_pid")"

ticks() { # PID: CPU time so far (user + system, all threads) of PID and its children (nginx's worker), clock ticks
    local pid total=0
    for pid in "$1" $(pgrep -P "$1" || true); do
        total=$((total + $(process_cpu_ticks "$pid")))
    done
    echo "$total"
}
run_wrk() { # NAME CONNECTIONS SCRIPT URL PID -> the RESULT line (with name=NAME), plus the CPU time per request of
    # the process PID answering (cpu_us_server, all its threads) and of wrk (cpu_us_wrk), in microseconds
    local name=$1 connections=$2 script=$3 url=$4 pid=$5 before after requests
    echo "== wrk $name: $connections connections, ${duration} s (load $(load))" >&2
    before="$(ticks "$pid")"
    BENCH_NAME="$name" /usr/bin/time -f '%U %S' -o "$work/$name.time" \
        wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency -s "$script" "$url" >"$work/$name.wrk"
    after="$(ticks "$pid")"
    requests="$(sed -n "s/^RESULT name=$name .*requests=\([0-9]*\).*/\1/p" "$work/$name.wrk")"
    awk -v hz="$(getconf CLK_TCK)" -v n="${requests:-0}" -v s=$((after - before)) \
        -v line="$(grep '^RESULT' "$work/$name.wrk")" '{
            n = (n > 0) ? n : 1
            printf "%s cpu_us_server=%.1f cpu_us_wrk=%.1f\n", line, s / hz * 1e6 / n, ($1 + $2) * 1e6 / n }' \
        "$work/$name.time"
}

# -- (3a) initiate -----------------------------------------------------------------------------------------------
initiate="$(run_wrk initiate 64 "$here/initiate.lua" "$server_url" "$server_pid")"
echo "$initiate"
max_id="$(sqlite3 "$work/data/rechargedesk.db" 'SELECT MAX(id) FROM transactions')"
ledger_ok="$(sqlite3 "$work/data/rechargedesk.db" "SELECT (SELECT balance FROM wallets WHERE mode = 'test') =
                                   (SELECT SUM(amount) FROM wallet_ledger WHERE mode = 'test')")"

# -- nginx serving the same body bytes ------------------------------------------------------------------------------
mkdir -p "$work/www"
curl -sS --fail -o "$work/www/status.json" -H "Authorization: $BENCH_AUTH" "$server_url/api/v1/transactions/$max_id"
curl -sS --fail -o "$work/www/plans.json" -H "Authorization: $BENCH_AUTH" -H 'Content-Type: application/json' \
    --data '{"operator_code":"AT","circle_code":"DL"}' "$server_url/api/v1/plans/mobile/prepaid-plans"
start_nginx "$work" "$work/www" "no-store"
for file in status.json plans.json; do
    curl -sS --fail -o "$work/from-nginx" "$nginx_url/$file"
    cmp -s "$work/www/$file" "$work/from-nginx" || { echo "nginx does not serve the same bytes of $file" >&2; exit 1; }
done
echo "== nginx $nginx_url (worker_processes 1): status body $(wc -c <"$work/www/status.json") bytes, plans body" \
    "$(wc -c <"$work/www/plans.json") bytes"
cat >"$work/static.lua" <<LUA
local common = dofile("$here/common.lua")
function done(summary, latency, requests) common.report(os.getenv("BENCH_NAME"), summary, latency) end
LUA

# -- (1) status check, (2) plans ---------------------------------------------------------------------------------------
status="$(BENCH_MAX_ID="$max_id" run_wrk status 32 "$here/status.lua" "$server_url" "$server_pid")"
echo "$status"
nginx_status="$(run_wrk nginx_status 32 "$work/static.lua" "$nginx_url/status.json" "$nginx_pid")"
echo "$nginx_status"
plans="$(run_wrk plans 32 "$here/plans.lua" "$server_url" "$server_pid")"
echo "$plans"
nginx_plans="$(run_wrk nginx_plans 32 "$work/static.lua" "$nginx_url/plans.json" "$nginx_pid")"
echo "$nginx_plans"

# -- summary ---------------------------------------------------------------------------------------------------------
errors=0
for line in "$initiate" "$status" "$plans" "$nginx_status" "$nginx_plans"; do
    errors=$((errors + $(field "$line" non2xx) + $(field "$line" socket_errors)))
done
s_ratio="$(ratio "$(field "$status" rps)" "$(field "$nginx_status" rps)")"
p_ratio="$(ratio "$(field "$plans" rps)" "$(field "$nginx_plans" rps)")"
i_ratio="$(ratio "$(field "$initiate" rps)" "$(field "$base" commits_per_s)")"
i_p99="$(field "$initiate" p99_ms)"
echo
echo "== summary ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPU(s) $cpu, data on $fs, load average now $(load))"
printf '%-44s %10s %10s %10s %12s %10s\n' "measure" "per s" "p50 ms" "p99 ms" "server µs/req" "wrk µs/req"
for pair in "initiate, 64 connections:$initiate" "raw SQLite durable commits, 1 thread:$base" \
    "status check, 32 connections:$status" "nginx, same status bytes, 32 connections:$nginx_status" \
    "plans lookup, 32 connections:$plans" "nginx, same plans bytes, 32 connections:$nginx_plans"; do
    line="${pair#*:}"
    per_s="$(field "$line" rps)"
    [ -n "$per_s" ] || per_s="$(field "$line" commits_per_s)"
    printf '%-44s %10s %10s %10s %12s %10s\n' "${pair%%:*}" "$per_s" "$(field "$line" p50_ms)" "$(field "$line" p99_ms)" \
        "$(field "$line" cpu_us_server)" "$(field "$line" cpu_us_wrk)"
done
echo
echo "targets (issue 17)"
printf '  %-52s %-7s %s\n' "status check >= 0.5x nginx" "$(verdict "$s_ratio" 0.5)" "${s_ratio}x"
printf '  %-52s %-7s %s\n' "plans lookup >= 0.8x nginx" "$(verdict "$p_ratio" 0.8)" "${p_ratio}x"
printf '  %-52s %-7s %s\n' "initiate >= 2.0x raw durable commits" "$(verdict "$i_ratio" 2.0)" "${i_ratio}x"
printf '  %-52s %-7s %s\n' "initiate p99 < 20 ms" \
    "$(awk -v a="$i_p99" 'BEGIN { print (a + 0 < 20) ? "met" : "MISSED" }')" "$i_p99 ms"
printf '  %-52s %-7s %s\n' "no errors, test wallet equals its ledger" \
    "$([ "$errors" -eq 0 ] && [ "$ledger_ok" = 1 ] && echo met || echo MISSED)" "$errors errors"
