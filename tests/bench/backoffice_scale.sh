#!/usr/bin/env bash
# Back office at scale (issue 6): seeds N transactions (default 1,000,000) into a fresh data
# directory, serves it with `rechargedesk serve` (Release build) and drives the real
# HistoryPage from a separate process (backoffice_bench), printing: time to the first page,
# filter times, the longest GUI stall while scrolling to row 10,000, and the peak RSS of both
# processes. Also prints the SQLite query plans of the listing/summary/filter queries.
#
#   tests/bench/backoffice_scale.sh [N]        (env: BUILD_DIR, DATA_DIR, KEEP_DATA=1)
set -euo pipefail
N=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench-backoffice}
DATA_DIR=${DATA_DIR:-$(mktemp -d /tmp/rd-backoffice-XXXXXX)}
PORT=${PORT:-18086}

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRECHARGEDESK_BUILD_BENCH=ON \
    -DRECHARGEDESK_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD_DIR" -j2 --target rechargedesk backoffice_bench
RD="$BUILD_DIR/app/rechargedesk"
[ -x "$RD" ] || RD=$(find "$BUILD_DIR" -name rechargedesk -type f -perm -u+x | head -1)

if [ ! -f "$DATA_DIR/rechargedesk.db" ]; then
    mkdir -p "$DATA_DIR" # tee below writes seed.txt there before the seeder creates it
    echo "== seeding $N transactions into $DATA_DIR"
    start=$(date +%s.%N)
    "$RD" dev seed --transactions "$N" --data-dir "$DATA_DIR" 2>/dev/null | tee "$DATA_DIR/seed.txt"
    echo "seed_wall_s $(echo "$(date +%s.%N) - $start" | bc)"
fi
KEY_ID=$(awk '/key_id:/ {print $2}' "$DATA_DIR/seed.txt" | head -1)
KEY_SECRET=$(awk '/key_secret:/ {print $2}' "$DATA_DIR/seed.txt" | head -1)
echo "db_size_mib $(( $(stat -c %s "$DATA_DIR/rechargedesk.db") / 1048576 ))"

# Opening the database applies pending migrations (migration 6 builds the amount index and the
# daily_totals rollups: a few seconds at 1M rows, once); do it here so `serve` starts at once.
start=$(date +%s.%N)
"$RD" keys list --data-dir "$DATA_DIR" >/dev/null
echo "open_and_migrate_s $(echo "$(date +%s.%N) - $start" | bc)"

echo "== query plans (SQLite, $N rows)"
DB="$DATA_DIR/rechargedesk.db"
ACC="(SELECT id FROM accounts LIMIT 1)"
TO=$(( $(date +%s) * 1000 ))
FROM=$(( TO - 3 * 365 * 86400000 ))
plan() { echo "-- $1"; sqlite3 "$DB" "EXPLAIN QUERY PLAN $2" | sed 's/^/   /'; }
DAY=$(( TO - 30 * 86400000 ))
DAY_END=$(( DAY + 86400000 ))
# The shapes TransactionRepository sends (newest first by created_at; amount orders either walk the
# amount index with the other columns written +column, or sort the range with +bill_amount).
plan "list newest, 2 years" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND created_at >= $FROM AND created_at < $TO ORDER BY created_at DESC, id DESC LIMIT 200"
plan "list newest, no dates" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' ORDER BY created_at DESC, id DESC LIMIT 200"
plan "list status FAILED" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND status = 'FAILED' AND created_at >= $FROM AND created_at < $TO ORDER BY created_at DESC, id DESC LIMIT 200"
plan "list operator BS" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND operator_code = 'BS' AND created_at >= $FROM AND created_at < $TO ORDER BY created_at DESC, id DESC LIMIT 200"
plan "list type VOUCHER" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND type = 'VOUCHER' AND created_at >= $FROM AND created_at < $TO ORDER BY created_at DESC, id DESC LIMIT 200"
plan "list amount desc, 2 years (walk)" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND +created_at >= $FROM AND +created_at < $TO ORDER BY bill_amount DESC, id DESC LIMIT 200"
plan "list amount desc, one day (sort)" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND created_at >= $DAY AND created_at < $DAY_END ORDER BY +bill_amount DESC, +id DESC LIMIT 200"
plan "list text prefix" "SELECT * FROM transactions WHERE account_id = $ACC AND mode = 'test' AND (id = -1 OR number LIKE '98%' ESCAPE '\\' OR reference_id LIKE '98%' ESCAPE '\\') ORDER BY created_at DESC, id DESC LIMIT 200"
plan "summary 2 years, whole days (rollups)" "SELECT SUM(tx_count), SUM(bill_amount) FROM daily_totals WHERE account_id = $ACC AND mode = 'test' AND ist_day >= $(( (FROM + 19800000) / 86400000 + 1 )) AND ist_day < $(( (TO + 19800000) / 86400000 ))"
plan "summary partial day (rows)" "SELECT COUNT(*), SUM(bill_amount) FROM transactions WHERE account_id = $ACC AND mode = 'test' AND created_at >= $DAY AND created_at < $DAY_END"
plan "summary text prefix (rows)" "SELECT COUNT(*) FROM transactions WHERE account_id = $ACC AND mode = 'test' AND created_at >= $FROM AND (id = -1 OR number LIKE '98%' ESCAPE '\\' OR reference_id LIKE '98%' ESCAPE '\\')"

echo "== serve + back-office bench"
"$RD" serve --data-dir "$DATA_DIR" --listen "127.0.0.1:$PORT" >"$DATA_DIR/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; [ "${KEEP_DATA:-0}" = 1 ] || rm -rf "$DATA_DIR"' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
RD_BASE_URL="http://127.0.0.1:$PORT" RD_KEY_ID="$KEY_ID" RD_KEY_SECRET="$KEY_SECRET" RD_SERVER_PID=$SERVER \
    QT_QPA_PLATFORM=offscreen "$BUILD_DIR/tests/bench/backoffice_bench"
