#!/usr/bin/env bash
# Instructions per request, per request type (issue 17): runs `rechargedesk serve` under
# `valgrind --tool=callgrind --instr-atstart=no`, drives each path with a short, light wrk load
# (1 thread, 4 connections) and counts only while that path runs (callgrind_control -i on/off,
# one dump per path). Prints one line per path:
#   CALLGRIND path=status requests=N ir=TOTAL ir_per_request=R
# Instruction counts do not depend on the machine's load, so before/after figures of two binaries
# compare even on a busy machine (the wall-clock wrk figures printed by wrk here mean nothing).
#
# Usage: bash tests/bench/callgrind_paths.sh [BINARY]     (default build/app/rechargedesk)
# Settings (environment): SECONDS_PER_PATH (8), PATHS (default
# "status plans initiate_success initiate_failed initiate_pending"), KEEP (1: keep the work dir).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/start_server.sh"
binary="$(realpath "${1:-$root/build/app/rechargedesk}")"
seconds="${SECONDS_PER_PATH:-8}"
paths="${PATHS:-status plans initiate_success initiate_failed initiate_pending}"
for tool in valgrind callgrind_control wrk; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-callgrind.XXXXXX")"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    [ "${KEEP:-0}" = 1 ] && echo "work dir kept: $work" || rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/serve-under-callgrind" <<WRAP
#!/bin/sh
exec valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.out" "$binary" "\$@"
WRAP
chmod +x "$work/serve-under-callgrind"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $binary, load average $(cut -d' ' -f1-3 /proc/loadavg)"
START_TIMEOUT_S=120 start_server "$work/serve-under-callgrind" "127.0.0.1:0" "$work/data" "$work"
fund_test_wallet "$binary" "$work/data"
export_bench_auth "$here"

# Final sales for the status checks (not counted): ids 1..max_id.
wrk -t1 -c4 -d"${seconds}s" -s "$here/initiate.lua" "$server_url" >/dev/null
max_id="$(sqlite3 "$work/data/rechargedesk.db" 'SELECT MAX(id) FROM transactions')"

run_path() { # path seconds -> wrk output
    local d="$2"
    case "$1" in
    status) BENCH_MAX_ID="$max_id" wrk -t1 -c4 -d"${d}s" -s "$here/status.lua" "$server_url" ;;
    plans) wrk -t1 -c4 -d"${d}s" -s "$here/plans.lua" "$server_url" ;;
    initiate_success) BENCH_ENDING="" wrk -t1 -c4 -d"${d}s" -s "$here/initiate.lua" "$server_url" ;;
    initiate_failed) BENCH_ENDING=0000 wrk -t1 -c4 -d"${d}s" -s "$here/initiate.lua" "$server_url" ;;
    initiate_pending) BENCH_ENDING=1111 wrk -t1 -c4 -d"${d}s" -s "$here/initiate.lua" "$server_url" ;;
    *) echo "unknown path $1" >&2; exit 1 ;;
    esac
}

n=0
for path in $paths; do
    n=$((n + 1))
    # Warm-up of this path (its statements prepared, caches filled) outside the count.
    run_path "$path" 2 >/dev/null
    callgrind_control -z "$server_pid" >/dev/null 2>&1
    callgrind_control -i on "$server_pid" >/dev/null 2>&1
    out="$(run_path "$path" "$seconds")"
    callgrind_control -i off "$server_pid" >/dev/null 2>&1
    callgrind_control -d "$path" "$server_pid" >/dev/null 2>&1
    requests="$(sed -n 's/^RESULT .* requests=\([0-9]*\).*/\1/p' <<<"$out")"
    dump="$(ls -t "$work"/callgrind.out.* | head -n 1)"
    ir="$(awk '/^totals:/ { print $2; exit }' "$dump")"
    echo "CALLGRIND path=$path requests=$requests ir=$ir ir_per_request=$((ir / requests))"
    [ "${KEEP:-0}" = 1 ] && cp "$dump" "$work/path-$path.callgrind"
done
