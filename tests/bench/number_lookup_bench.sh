#!/usr/bin/env bash
# Issue 29, the number lookup at scale: seeds N sales (default 1,000,000; `rechargedesk dev seed`, about three quarters
# of them mobile sales to 20,000 repeat customers, each with a circle) into a fresh data directory, prints the query
# plans of the lookup, serves the database with `rechargedesk serve`, and measures GET /api/v1/numbers/{phone_number}
# over HTTP with number_lookup_bench.py: one keep-alive connection, one request at a time, LOOKUPS numbers the shop
# sold to (200) and LOOKUPS/4 it never did (404), after a warm-up; it prints p50, p90, p99 and the slowest.
# Target (issue 29): an answer in under 5 ms with a million sales.
#
#   tests/bench/number_lookup_bench.sh [N]
#
# Settings (environment): BINARY (a rechargedesk to use; default: build Release in BUILD_DIR, <repo>/build-release),
# DATA_DIR (default mktemp -d; a directory seeded before is used as it is), KEEP_DATA=1 (keep it), LOOKUPS (2000),
# PORT (18089).
set -euo pipefail
N=${1:-1000000}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
DATA_DIR=${DATA_DIR:-$(mktemp -d /tmp/rd-numbers-XXXXXX)}
PORT=${PORT:-18089}
for tool in python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (bash packaging/install-deps.sh)" >&2; exit 1; }
done
if [ -n "${BINARY:-}" ]; then
    RD="$BINARY"
else
    build="${BUILD_DIR:-$root/build-release}"
    echo "== building Release in $build"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_TESTS=OFF \
        -DRECHARGEDESK_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" -j2 --target rechargedesk
    RD="$build/app/rechargedesk"
fi

if [ ! -f "$DATA_DIR/rechargedesk.db" ]; then
    mkdir -p "$DATA_DIR"
    echo "== seeding $N transactions into $DATA_DIR"
    "$RD" dev seed --transactions "$N" --data-dir "$DATA_DIR" 2>/dev/null | tee "$DATA_DIR/seed.txt"
fi
KEY_ID=$(awk '/key_id:/ {print $2}' "$DATA_DIR/seed.txt" | head -1)
KEY_SECRET=$(awk '/key_secret:/ {print $2}' "$DATA_DIR/seed.txt" | head -1)
echo "db_size_mib $(( $(stat -c %s "$DATA_DIR/rechargedesk.db") / 1048576 ))"
# Opening the database applies pending migrations (migration 18 builds the lookup's index: seconds at 1M rows, once).
"$RD" keys list --data-dir "$DATA_DIR" >/dev/null

"$RD" serve --data-dir "$DATA_DIR" --listen "127.0.0.1:$PORT" >"$DATA_DIR/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; [ "${KEEP_DATA:-0}" = 1 ] || rm -rf "$DATA_DIR"' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
python3 "$here/number_lookup_bench.py" --url "http://127.0.0.1:$PORT" --key-id "$KEY_ID" --key-secret "$KEY_SECRET" \
    --db "$DATA_DIR/rechargedesk.db" --lookups "${LOOKUPS:-2000}"
