#!/usr/bin/env bash
# Issue 30, a distributor's back office at scale: 5,000 shops and a million live sales spread over them (today and the
# 30 days before, IST), seeded in SQL by shops_bench.py into a fresh data directory (wallets, ledger and daily_totals
# kept consistent, as the server keeps them), served with `rechargedesk serve`, then GET /api/v1/shops (the first page
# of 100 and all 5,000, by name, by today's sales, by balance) and GET /api/v1/shops/{id}/statement for the month
# (JSON and CSV) timed over HTTP on one keep-alive connection, one request at a time after a warm-up: p50, p90, p99,
# the slowest, the answer's size and the load average. Target (issue 30): the Shops page opens as fast with 5,000
# shops as with 5 — the first page well under 100 ms, the whole list and a month's statement well under a second.
#
#   tests/bench/shops_bench.sh [SHOPS] [SALES]        (default 5000 1000000)
#
# Settings (environment): BINARY (a rechargedesk to use; default: build Release in BUILD_DIR, <repo>/build-release),
# DATA_DIR (default mktemp -d; a directory seeded before is used as it is), KEEP_DATA=1 (keep it), REPEAT (200
# requests per measurement; a tenth of that for the whole list), PORT (18090).
set -euo pipefail
SHOPS=${1:-5000}
SALES=${2:-1000000}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
DATA_DIR=${DATA_DIR:-$(mktemp -d /tmp/rd-shops-XXXXXX)}
PORT=${PORT:-18090}
for tool in python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (bash packaging/install-deps.sh)" >&2; exit 1; }
done
if [ -n "${BINARY:-}" ]; then
    RD="$BINARY"
else
    build="${BUILD_DIR:-$root/build-release}"
    echo "== building Release in $build"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j2 --target rechargedesk
    RD="$build/app/rechargedesk"
fi

mkdir -p "$DATA_DIR"
if [ ! -f "$DATA_DIR/key.txt" ]; then
    # Creates and migrates the database, the distributor's account `shop` and its live admin key.
    "$RD" keys create --name "shops bench" --mode live --scope admin --data-dir "$DATA_DIR" >"$DATA_DIR/key.txt"
fi
KEY_ID=$(awk '/key_id:/ {print $2}' "$DATA_DIR/key.txt")
KEY_SECRET=$(awk '/key_secret:/ {print $2}' "$DATA_DIR/key.txt")
echo "== seeding $SHOPS shops and $SALES sales into $DATA_DIR"
python3 "$here/shops_bench.py" seed --db "$DATA_DIR/rechargedesk.db" --shops "$SHOPS" --sales "$SALES"
echo "db_size_mib $(( $(stat -c %s "$DATA_DIR/rechargedesk.db") / 1048576 ))"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) MiB; binary: $RD"

"$RD" serve --data-dir "$DATA_DIR" --listen "127.0.0.1:$PORT" >"$DATA_DIR/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; [ "${KEEP_DATA:-0}" = 1 ] || rm -rf "$DATA_DIR"' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
python3 "$here/shops_bench.py" measure --url "http://127.0.0.1:$PORT" --key-id "$KEY_ID" --key-secret "$KEY_SECRET" \
    --shops "$SHOPS" --repeat "${REPEAT:-200}"
