# Sourced by the benchmark scripts: starts `rechargedesk serve` in the background and waits for
# its "listening on" line; the test key it creates is read from the key file it names (serve
# prints the key id and the file, never the secret).
#
#   start_server BINARY LISTEN DATA_DIR WORK_DIR
#
# Sets server_pid, key_id, key_secret and server_url (http://host:port); the server's output
# goes to WORK_DIR/serve.out and serve.err. Exits the script if the server does not come up within
# START_TIMEOUT_S seconds (20; more for a server under valgrind). SERVE_ARGS adds serve options (e.g.
# "--http-threads 0" to compare with every request on the server thread). Every client of a benchmark is this machine,
# one address, so the per-address cap is raised above the default 64: wrk opens one connection to test the address
# and closes it just before its 64 (initiate), and a server that has not yet seen that close counts 65 (refused 503).
start_server() {
    local binary=$1 listen=$2 data=$3 work=$4
    QT_LOGGING_RULES="rechargedesk.auth.info=false;rechargedesk.http.info=false" \
        "$binary" serve --listen "$listen" --data-dir "$data" --max-connections-per-address 1024 ${SERVE_ARGS:-} \
        >"$work/serve.out" 2>"$work/serve.err" &
    server_pid=$!
    for _ in $(seq 1 $((${START_TIMEOUT_S:-20} * 10))); do
        grep -q 'listening on' "$work/serve.out" 2>/dev/null && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.err" >&2; echo "server exited" >&2; exit 1; }
        sleep 0.1
    done
    key_id="$(awk '$1 == "key_id:" { print $2; exit }' "$work/serve.out")"
    key_file="$(sed -n 's/^  key_file: //p' "$work/serve.out" | head -n 1)"
    key_secret="$([ -n "$key_file" ] && awk '$1 == "key_secret:" { print $2; exit }' "$key_file")"
    server_url="$(sed -n 's/^RechargeDesk API listening on \(http:[^ ]*\)\/api\/v1$/\1/p' "$work/serve.out" | head -n 1)"
    if [ -z "$key_id" ] || [ -z "$key_secret" ] || [ -z "$server_url" ]; then
        echo "could not read the URL and the test key from the server's output:" >&2
        cat "$work/serve.out" "$work/serve.err" >&2
        exit 1
    fi
}

# fund_test_wallet BINARY DATA_DIR [N]: N (default ten) top-ups of the test wallet by `rechargedesk wallet topup` (₹1,000,000 each,
# the most one top-up may be; ₹9.80 is paid per ₹10 sale, so they cover a million sales).
fund_test_wallet() {
    for _ in $(seq 1 "${3:-10}"); do
        "$1" wallet topup --mode test --amount 1000000 --note bench --data-dir "$2" >/dev/null
    done
}

# process_cpu_ticks PID: the CPU time PID has used so far (user + system, all its threads), in clock ticks; 0 once
# PID is gone.
process_cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# cpu_us_per_request TICKS REQUESTS: TICKS of CPU time spread over REQUESTS, in microseconds ("?" without requests).
cpu_us_per_request() {
    awk -v t="$1" -v hz="$(getconf CLK_TCK)" -v n="$2" \
        'BEGIN { if (n > 0) printf "%.1f", t / hz * 1e6 / n; else print "?" }'
}

# qt_http_library PID: the libQt6HttpServer file PID has loaded (Debian's, or a build of one's own put first with
# LD_LIBRARY_PATH, which start_server passes on), so a figure says which HTTP library served it.
qt_http_library() {
    grep -m1 -o '/[^ ]*libQt6HttpServer[^ ]*' "/proc/$1/maps" 2>/dev/null || echo "(not found)"
}

# export_bench_auth DIR: exports BENCH_DIR (where the wrk scripts are) and BENCH_AUTH ("Basic …" of the key
# start_server read) for the wrk scripts.
export_bench_auth() {
    export BENCH_DIR="$1"
    BENCH_AUTH="Basic $(printf '%s:%s' "$key_id" "$key_secret" | base64 -w0)"
    export BENCH_AUTH
}
