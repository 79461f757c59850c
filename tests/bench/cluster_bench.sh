#!/usr/bin/env bash
# Issue 16's benchmark: initiate through haproxy to 1, 2 and 3 `rechargedesk serve` processes on one PostgreSQL
# database, against PostgreSQL alone doing the same writes per sale (pgbench), at the same client count, on the same
# throw-away cluster (tests/tools/cluster.sh: pg_virtualenv, which runs PostgreSQL with fsync=off; both sides pay the
# same). Figures and what they mean: docs/benchmarks.md, "Several servers on one PostgreSQL".
#
#   tests/bench/cluster_bench.sh [BUILD_DIR]        (default build; needs wrk, haproxy, PostgreSQL: install-deps.sh)
#
# Environment: CONNECTIONS (64), DURATION (15 s per run), WARMUP (3 s, not counted), ACCOUNTS (1: every sale on the
# test key's account, so every sale debits the same wallet row; N > 1: N accounts (shops) with a test pos key and
# wallet each, every sale on one of them at random, in wrk and in pgbench alike).
#
# Per run it prints wrk's RESULT line (req/s, p50/p99 in ms, errors), then a summary: req/s and p50/p99 for 1, 2 and
# 3 servers, pgbench's tps and latency, each server figure's ratio to pgbench (target >= 1.0) and the load average
# (1 min) after each run: on a shared machine read the figures with it.
set -euo pipefail

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench_dir="$repo_dir/tests/bench"
connections=${CONNECTIONS:-64}
duration=${DURATION:-15}
warmup=${WARMUP:-3}

if [ "${1:-}" != --inside-cluster ]; then
    build_dir="$(realpath "${1:-build}")"
    exec bash "$repo_dir/tests/tools/cluster.sh" --servers 3 "$build_dir/app/rechargedesk" \
        bash "${BASH_SOURCE[0]}" --inside-cluster
fi

# Inside the cluster (tests/tools/cluster.sh exported CLUSTER_*). cli ARGS: the command line on the cluster's database.
cli() { "$CLUSTER_BINARY" "$@" --data-dir "$CLUSTER_DATA_DIR" --database "$CLUSTER_DATABASE"; }
# fund [ACCOUNT]: money for every sale the runs make (₹9.80 each), on the test key's account or ACCOUNT's.
fund() {
    for _ in 1 2 3; do
        cli wallet topup --mode test --amount 1000000 --note bench ${1:+--account "$1"} >/dev/null
    done
}
export BENCH_DIR="$bench_dir"
BENCH_AUTH="Basic $(printf '%s' "$CLUSTER_KEY" | base64 -w0)"
export BENCH_AUTH
accounts=${ACCOUNTS:-1}
if [ "$accounts" -gt 1 ]; then
    auths=()
    for a in $(seq 1 "$accounts"); do
        key="$(cli keys create --name bench --mode test --scope pos --account "bench$a")"
        auths+=("Basic $(printf '%s:%s' "$(awk '$1 == "key_id:" { print $2 }' <<<"$key")" \
            "$(awk '$1 == "key_secret:" { print $2 }' <<<"$key")" | base64 -w0)")
        fund "bench$a"
    done
    BENCH_AUTHS="$(IFS=,; echo "${auths[*]}")"
    export BENCH_AUTHS
    # Made one after the other, so their ids are consecutive: pgbench picks one by random(first, last).
    read -r first_account last_account < <(psql -X -At -F ' ' "$CLUSTER_DATABASE" -c \
        "SELECT min(id), max(id) FROM accounts WHERE name LIKE 'bench%' HAVING max(id) - min(id) = count(*) - 1")
    [ -n "${last_account:-}" ] || { echo "cluster_bench: the bench accounts' ids are not consecutive" >&2; exit 1; }
else
    fund
fi

load1() { cut -d' ' -f1 /proc/loadavg; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

# serve_with K: haproxy sends to servers s1..sK only (the others in maintenance, as when draining one), and waits
# until it sees them so.
serve_with() {
    local k=$1 i state
    for i in 1 2 3; do
        state=maint
        [ "$i" -le "$k" ] && state=ready
        bash "$repo_dir/tests/tools/cluster.sh" haproxy-command "$CLUSTER_HAPROXY_SOCKET" \
            "set server rechargedesk_servers/s$i state $state" >/dev/null
    done
    for _ in $(seq 1 100); do
        [ "$(bash "$repo_dir/tests/tools/cluster.sh" servers-up "$CLUSTER_HAPROXY_SOCKET")" -eq "$k" ] && return
        sleep 0.1
    done
    echo "cluster_bench: haproxy does not show $k server(s) up" >&2
    exit 1
}

declare -A rps p50 p99 loads
for k in 1 2 3; do
    serve_with "$k"
    BENCH_NAME=warmup wrk -t2 -c"$connections" -d"${warmup}s" -s "$bench_dir/initiate.lua" "$CLUSTER_URL" >/dev/null
    line="$(BENCH_NAME="cluster_$k" wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$bench_dir/initiate.lua" \
        "$CLUSTER_URL" | grep '^RESULT')"
    loads[$k]="$(load1)"
    echo "$line load1=${loads[$k]}"
    rps[$k]="$(field rps <<<"$line")"
    p50[$k]="$(field p50_ms <<<"$line")"
    p99[$k]="$(field p99_ms <<<"$line")"
done

# PostgreSQL alone: per transaction what a sale writes: the debit of the account's wallet row, the sale's row, the
# ledger row, into the same tables of the same database. The account as in the load above: the test key's (every
# client on the same wallet row, contended the same way), or with ACCOUNTS > 1 one of the bench accounts at random.
if [ "$accounts" -gt 1 ]; then
    account_choice="\\set account random($first_account, $last_account)"
    account=":account"
else
    account_choice=""
    account="$(psql -X -At "$CLUSTER_DATABASE" -c "SELECT account_id FROM api_keys WHERE key_id = '${CLUSTER_KEY%%:*}'")"
fi
script="$CLUSTER_WORK/sale.pgbench"
now_ms="(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
cat >"$script" <<SQL
\\set n random(100000000, 999999999)
$account_choice
BEGIN;
UPDATE wallets SET balance = balance - 980 WHERE account_id = $account AND mode = 'test';
INSERT INTO transactions (account_id, mode, type, operator_code, number, bill_amount, discount, paid, status,
    fingerprint, key_id, created_at, updated_at)
    VALUES ($account, 'test', 'MOBILE', 'AT', '9' || :n, 1000, 20, 980, 'SUCCESS', 'pgbench', 'pgbench', $now_ms,
    $now_ms);
INSERT INTO wallet_ledger (account_id, mode, amount, kind, transaction_id, created_at)
    VALUES ($account, 'test', -980, 'debit', currval(pg_get_serial_sequence('transactions', 'id')), $now_ms);
END;
SQL
warmup_out="$CLUSTER_WORK/pgbench-warmup.out"
pgbench -n -c "$connections" -j 2 -T "$warmup" -f "$script" "$CLUSTER_DATABASE" >"$warmup_out" 2>&1 ||
    { cat "$warmup_out" >&2; exit 1; }
pgbench_out="$(pgbench -n -c "$connections" -j 2 -T "$duration" -r -f "$script" "$CLUSTER_DATABASE" 2>&1)"
loads[pg]="$(load1)"
tps="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$pgbench_out" | head -n 1)"
pg_latency="$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$pgbench_out")"
echo "RESULT name=pgbench_sale clients=$connections tps=$tps latency_avg_ms=$pg_latency load1=${loads[pg]}"
settings="$(psql -X -At "$CLUSTER_DATABASE" -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name)
    FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'max_connections', 'shared_buffers')")"

echo
echo "Several servers on one PostgreSQL: initiate at $connections connections through haproxy, ${duration} s per run," \
    "$accounts account(s)"
echo "PostgreSQL $(psql -X -At "$CLUSTER_DATABASE" -c 'SHOW server_version'): $settings; $(nproc) core(s)"
printf '%-34s %10s %9s %9s %12s %7s\n' "" "req/s" "p50 ms" "p99 ms" "vs pgbench" "load1"
for k in 1 2 3; do
    printf '%-34s %10.0f %9.1f %9.1f %11.2fx %7s\n' "$k server(s) behind haproxy" "${rps[$k]}" "${p50[$k]}" \
        "${p99[$k]}" "$(echo "${rps[$k]} / $tps" | bc -l)" "${loads[$k]}"
done
printf '%-34s %10.0f %9s %9s %12s %7s\n' "pgbench, the same 3 writes (tps)" "$tps" "avg $pg_latency" "" "1.00x" \
    "${loads[pg]}"
