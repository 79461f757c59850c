#!/usr/bin/env bash
# RechargeDesk plans-lookup benchmark (issue 3, item 5): endpoint 4 (POST prepaid-plans, served
# from the pre-serialized catalogue) against Debian's nginx serving the very same response bytes
# as a static file, side by side in one run, at 32 connections each. Target: >= 0.8x nginx.
#
# Fair comparison: the RechargeDesk server answers on one thread, so nginx runs with ONE worker
# process (worker_processes 1). Both get the same wrk settings (WRK_THREADS, default 1, so wrk
# itself leaves a core free on small machines).
#
# Usage: bash tests/bench/plans_benchmark.sh      (about 30 s after the build)
# Settings (environment): BUILD_DIR (default <repo>/build-release), DURATION (wrk seconds, 10),
# CONNECTIONS (32), WRK_THREADS (1), OPERATOR (AT), CIRCLE (DL), NGINX_WORKERS (1).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/start_server.sh"
. "$(dirname "${BASH_SOURCE[0]}")/nginx.sh"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$root/build-release}"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-32}"
wrk_threads="${WRK_THREADS:-1}"
operator="${OPERATOR:-AT}"
circle="${CIRCLE:-DL}"
nginx_workers="${NGINX_WORKERS:-1}"
nginx_bin="${NGINX:-/usr/sbin/nginx}"

for tool in wrk curl cmake ninja python3 "$nginx_bin"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (see packaging/install-deps.sh)" >&2; exit 1; }
done

echo "== building Release in $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target rechargedesk | tail -n 1
binary="$build/app/rechargedesk"

work="$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-plans-bench.XXXXXX")"
server_pid=""
nginx_pid=""
cleanup() {
    for pid in "$server_pid" "$nginx_pid"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== machine: $(nproc) CPU(s), $cpu; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $("$nginx_bin" -v 2>&1); $(wrk --version 2>&1 | head -n 1)"

# -- the RechargeDesk server ------------------------------------------------------------------
echo "== starting $binary serve"
start_server "$binary" "127.0.0.1:0" "$work/data" "$work"
auth="Basic $(printf '%s:%s' "$key_id" "$key_secret" | base64 -w0)"
body="{\"operator_code\":\"$operator\",\"circle_code\":\"$circle\"}"
lookup_url="$server_url/api/v1/plans/mobile/prepaid-plans"

mkdir -p "$work/www"
curl -sS --fail -o "$work/www/plans.json" -H "Authorization: $auth" -H 'Content-Type: application/json' \
    --data "$body" "$lookup_url"
echo "== response for ($operator, $circle): $(wc -c <"$work/www/plans.json") bytes"

# -- nginx serving the same bytes as a static file ----------------------------------------------
start_nginx "$work" "$work/www" "private, max-age=300"
nginx_url="$nginx_url/plans.json"
curl -sS --fail -o "$work/from-nginx.json" "$nginx_url"
cmp -s "$work/www/plans.json" "$work/from-nginx.json" || { echo "nginx does not serve the same bytes" >&2; exit 1; }
echo "== nginx $nginx_url: worker_processes $nginx_workers, Content-Type $(curl -sI "$nginx_url" | tr -d '\r' | awk -F': ' 'tolower($1)=="content-type"{print $2}')"

# -- wrk --------------------------------------------------------------------------------------
cat >"$work/report.lua" <<'EOF'
function done(summary, latency, requests)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format("RESULT rps=%.0f p50_ms=%.3f p99_ms=%.3f requests=%d non2xx=%d socket_errors=%d\n",
        summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
EOF
cat >"$work/server.lua" <<EOF
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "$auth"
dofile("$work/report.lua")
EOF

run_wrk() { # name url script
    wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --latency -s "$3" "$2" >"$work/$1.wrk"
    grep '^RESULT' "$work/$1.wrk" | sed "s/^RESULT/$1/"
}
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

echo "== warm-up (2 s each)"
wrk -t1 -c4 -d2s -s "$work/server.lua" "$lookup_url" >/dev/null
wrk -t1 -c4 -d2s "$nginx_url" >/dev/null

echo "== wrk -t$wrk_threads -c$connections -d${duration}s, one after the other in this run"
server_line="$(run_wrk rechargedesk "$lookup_url" "$work/server.lua")"
echo "$server_line"
nginx_line="$(run_wrk nginx "$nginx_url" "$work/report.lua")"
echo "$nginx_line"

server_rps="$(field "$server_line" rps)"
nginx_rps="$(field "$nginx_line" rps)"
for line in "$server_line" "$nginx_line"; do
    if [ "$(field "$line" non2xx)" != "0" ] || [ "$(field "$line" socket_errors)" != "0" ]; then
        echo "WARNING: errors during the run: $line" >&2
    fi
done
ratio="$(python3 -c "print(f'{$server_rps / $nginx_rps:.2f}')")"
verdict="$(python3 -c "print('MET' if $server_rps >= 0.8 * $nginx_rps else 'MISSED')")"
echo
echo "== summary (32 connections is the issue's setting; nginx worker_processes $nginx_workers)"
printf '%-14s %10s %10s %10s\n' "" "req/s" "p50 ms" "p99 ms"
printf '%-14s %10s %10s %10s\n' "rechargedesk" "$server_rps" "$(field "$server_line" p50_ms)" "$(field "$server_line" p99_ms)"
printf '%-14s %10s %10s %10s\n' "nginx static" "$nginx_rps" "$(field "$nginx_line" p50_ms)" "$(field "$nginx_line" p99_ms)"
echo "ratio rechargedesk/nginx: $ratio (target >= 0.80): $verdict"
