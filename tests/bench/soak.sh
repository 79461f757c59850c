#!/usr/bin/env bash
# Soak benchmark (issue 17): issue 17's mixed load for N minutes against one `rechargedesk serve` — wrk at 16
# connections, half sales with the four sandbox endings (so a quarter of the sales settle later and post a webhook),
# a quarter plan lookups, a quarter status checks (tests/bench/mix.lua); the test account has no webhook endpoint
# of its own, so its events go to the built-in inbox (POST /hooks/inbox on the same server). Prints, per minute:
# requests/s, p50/p99, the webhook outbox backlog (events not yet delivered), the server's RSS, and what one
# request cost the server that minute: CPU µs (all its threads) and KiB it wrote (write calls to the database, its
# WAL and the sockets; /proc/PID/io wchar), so a rate that falls shows whether the work per request grew; after the
# load, how long the backlog takes to drain. Targets: the last minute >= 0.9x the first, the backlog drained within 10 s
# of the load stopping, RSS flat.
#
# Usage: bash tests/bench/soak.sh [--minutes N]      (N default 10; --minutes 1 for a quick check)
# Settings (environment): BUILD_DIR (default <repo>/build-release), BINARY (use this binary, build nothing),
# CONNECTIONS (16), WRK_THREADS (1), DRAIN_WAIT_S (how long to watch the backlog after the load, 60),
# BENCH_TMPDIR (the database; default mktemp -d).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/start_server.sh"
minutes=10
while [ $# -gt 0 ]; do
    case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --minutes=*) minutes="${1#*=}"; shift ;;
    *) echo "usage: $0 [--minutes N]" >&2; exit 2 ;;
    esac
done
connections="${CONNECTIONS:-16}"
wrk_threads="${WRK_THREADS:-1}"
drain_wait="${DRAIN_WAIT_S:-60}"

for tool in wrk sqlite3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (bash packaging/install-deps.sh)" >&2; exit 1; }
done
if [ -n "${BINARY:-}" ]; then
    binary="$BINARY"
else
    build="${BUILD_DIR:-$root/build-release}"
    echo "== building Release in $build"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" --target rechargedesk | tail -n 1
    binary="$build/app/rechargedesk"
fi

work="${BENCH_TMPDIR:-$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-soak.XXXXXX")}"
mkdir -p "$work"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ -z "${BENCH_TMPDIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
rss_mib() { awk '$1 == "VmRSS:" { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status"; }
written_bytes() { awk '$1 == "wchar:" { print $2 }' "/proc/$server_pid/io"; }
db="$work/data/rechargedesk.db"
backlog() { sqlite3 "$db" "SELECT COUNT(*) FROM webhook_events WHERE status = 'pending'" 2>/dev/null || echo "?"; }
delivered() { sqlite3 "$db" "SELECT COUNT(*) FROM webhook_events WHERE status = 'delivered'" 2>/dev/null || echo "?"; }

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) CPU(s), $cpu; load average $(load)"
start_server "$binary" "127.0.0.1:0" "$work/data" "$work"
# ₹1,000,000 covers ~102 000 ₹9.80 sales: enough for 10 000 sales a second (far above this machine's) all run long.
fund_test_wallet "$binary" "$work/data" $((minutes * 6 + 10))
export_bench_auth "$here"
# A few sales first, so the status checks have ids to ask for.
wrk -t1 -c4 -d2s -s "$here/initiate.lua" "$server_url" >/dev/null
echo "== $binary at $server_url: $minutes minute(s) of the mix at $connections connections (RSS $(rss_mib) MiB)"
echo "== QtHttpServer: $(qt_http_library "$server_pid")"
printf '%-7s %8s %8s %8s %9s %10s %9s %9s %9s %s\n' minute "req/s" "p50 ms" "p99 ms" "errors" "backlog" "RSS MiB" \
    "CPU us/r" "KiB w/r" "load"
first=""
last=""
errors=0
first_rss=""
for minute in $(seq 1 "$minutes"); do
    max_id="$(sqlite3 "$db" 'SELECT MAX(id) FROM transactions')"
    ticks_before="$(process_cpu_ticks "$server_pid")"
    written_before="$(written_bytes)"
    line="$(BENCH_MAX_ID="$max_id" BENCH_NAME="minute$minute" wrk -t"$wrk_threads" -c"$connections" -d60s --latency \
        -s "$here/mix.lua" "$server_url" | grep '^RESULT')"
    rps="$(field "$line" rps)"
    rss="$(rss_mib)"
    requests="$(field "$line" requests)"
    cpu_us="$(cpu_us_per_request $(($(process_cpu_ticks "$server_pid") - ticks_before)) "$requests")"
    kib_written="$(awk -v b=$(($(written_bytes) - written_before)) -v n="$requests" \
        'BEGIN { if (n > 0) printf "%.1f", b / 1024 / n; else print "?" }')"
    [ -n "$first" ] || { first="$rps"; first_rss="$rss"; }
    last="$rps"
    minute_errors=$(($(field "$line" non2xx) + $(field "$line" socket_errors)))
    errors=$((errors + minute_errors))
    printf '%-7s %8s %8s %8s %9s %10s %9s %9s %9s %s\n' "$minute" "$rps" "$(field "$line" p50_ms)" \
        "$(field "$line" p99_ms)" "$minute_errors" "$(backlog)" "$rss" "$cpu_us" "$kib_written" "$(load)"
done

echo "== load stopped; backlog every second (at most ${drain_wait} s; PENDING sales still settle for 10 s)"
drained=""
for second in $(seq 0 "$drain_wait"); do
    pending="$(backlog)"
    echo "   +${second} s: backlog $pending, delivered $(delivered)"
    if [ "$pending" = 0 ] && [ "$second" -ge 11 ]; then drained="$second"; break; fi
    sleep 1
done
still="$(sqlite3 "$db" "SELECT COUNT(*) FROM settlements" 2>/dev/null || echo "?")"
final_rss="$(rss_mib)"
ratio="$(awk -v a="$last" -v b="$first" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
echo
echo "== summary ($(date -u '+%Y-%m-%d %H:%M UTC'), load average now $(load))"
echo "  last minute / first minute: $last / $first req/s = ${ratio}x (target >= 0.9): $(awk -v r="$ratio" 'BEGIN { print (r + 0 >= 0.9) ? "met" : "MISSED" }')"
echo "  errors (non-2xx or socket) during the mix: $errors (target 0): $([ "$errors" = 0 ] && echo met || echo MISSED)"
echo "  backlog drained: $([ -n "$drained" ] && echo "at +$drained s after the load (PENDING sales settle until +10 s; target: within 10 s of the last settlement)" || echo "NOT within $drain_wait s")"
echo "  settlements still queued: $still"
echo "  RSS: $first_rss MiB after minute 1, $final_rss MiB at the end"
