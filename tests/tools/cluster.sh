#!/usr/bin/env bash
# Several `rechargedesk serve` processes on one throw-away PostgreSQL database behind Debian's haproxy (issue 16),
# for the failover test (CTest cluster_failover) and the benchmark (tests/bench/cluster_bench.sh).
#
#   tests/tools/cluster.sh [--servers N] BINARY COMMAND [ARGS...]
#
# starts PostgreSQL (tests/tools/with_postgres.sh: pg_virtualenv), a fresh database in it, N servers (default 3) and
# haproxy with packaging/examples/haproxy.cfg, waits until haproxy sees every server ready (GET /readyz), runs
# COMMAND with the cluster in its environment and stops everything (servers it killed itself are simply gone):
#
#   CLUSTER_URL           http://127.0.0.1:PORT, haproxy's frontend
#   CLUSTER_KEY           key_id:key_secret of a test admin key (HTTP Basic)
#   CLUSTER_DATABASE      postgres://... of the servers' database (psql takes it as is)
#   CLUSTER_BINARY        BINARY; CLUSTER_DATA_DIR: server 1's data directory (for `BINARY wallet ... --data-dir`)
#   CLUSTER_SERVER_PIDS   the servers' process ids, in order (space separated)
#   CLUSTER_SERVER_NAMES  haproxy's names of them (s1 s2 s3)
#   CLUSTER_SERVER_URLS   their own http://127.0.0.1:PORT, past haproxy
#   CLUSTER_HAPROXY_SOCKET  haproxy's runtime API: tests/tools/cluster.sh haproxy-command SOCKET 'show stat',
#                         tests/tools/cluster.sh servers-up SOCKET (how many servers are UP)
#   CLUSTER_WORK          a scratch directory that is removed afterwards
#
# HAPROXY names the haproxy binary (default: the one on PATH, else /usr/sbin/haproxy).
# The servers sell in test mode with a 3 s sandbox settle delay (SERVE_ARGS adds options to every `serve`).
# Exit status: COMMAND's; 77 (skipped) when PostgreSQL or haproxy is missing, unless RECHARGEDESK_REQUIRE_POSTGRES=1
# or CI=true, which make that a failure (as with_postgres.sh does).
set -uo pipefail

readonly kSkip=77
tools_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$tools_dir/../.." && pwd)"
# HAPROXY: the haproxy binary (default: the one on PATH, else Debian's /usr/sbin/haproxy).
haproxy_bin="${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}"

# haproxy_command SOCKET COMMAND: one command of haproxy's runtime API (no socat on a stock machine).
haproxy_command() {
    python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
out = b""
while chunk := s.recv(65536):
    out += chunk
sys.stdout.write(out.decode())
PY
}

# servers_up SOCKET: how many servers haproxy's checks see UP (maintenance and DOWN ones do not count).
servers_up() {
    haproxy_command "$1" "show stat" 2>/dev/null |
        awk -F, '$1 == "rechargedesk_servers" && $2 != "BACKEND" && $18 == "UP"' | wc -l
}

# The two helpers as commands, for the scripts run inside: cluster.sh haproxy-command|servers-up SOCKET [COMMAND].
case "${1:-}" in
haproxy-command) haproxy_command "$2" "$3"; exit $? ;;
servers-up) servers_up "$2"; exit $? ;;
esac

servers=3
if [ "${1:-}" = --servers ]; then
    servers=$2
    shift 2
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--servers N] BINARY COMMAND [ARGS...]" >&2
    exit 2
fi

# Outside the throw-away PostgreSQL: check haproxy, then run this script again inside one.
if [ -z "${RECHARGEDESK_CLUSTER_IN_PG:-}" ]; then
    if [ ! -x "$haproxy_bin" ]; then
        if [ "${RECHARGEDESK_REQUIRE_POSTGRES:-0}" = 1 ] || [ "${CI:-}" = true ]; then
            echo "FAIL: cluster.sh: haproxy is not installed (bash packaging/install-deps.sh)" >&2
            exit 1
        fi
        echo "SKIP: cluster.sh: haproxy is not installed (bash packaging/install-deps.sh)" >&2
        exit "$kSkip"
    fi
    export HAPROXY="$haproxy_bin" RECHARGEDESK_CLUSTER_IN_PG=1
    exec bash "$tools_dir/with_postgres.sh" bash "${BASH_SOURCE[0]}" --servers "$servers" "$@"
fi

binary="$(realpath "$1")"
shift
work="$(mktemp -d "${TMPDIR:-/tmp}/rechargedesk-cluster.XXXXXX")"
server_pids=()
server_names=()
server_urls=()
haproxy_pid=""

# shellcheck disable=SC2317 # run by the EXIT trap
stop_cluster() {
    local pid
    [ -n "$haproxy_pid" ] && kill "$haproxy_pid" 2>/dev/null
    for pid in "${server_pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${server_pids[@]}"; do
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    done
    [ -n "$haproxy_pid" ] && wait "$haproxy_pid" 2>/dev/null
    rm -rf "$work"
}
trap stop_cluster EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# The database: one per run, in the cluster with_postgres.sh started (libpq's PG* variables name it).
database="rechargedesk_cluster"
createdb -T template0 --locale=C.UTF-8 "$database" || exit 1
database_url="postgres://${PGUSER}@${PGHOST}:${PGPORT}/${database}"

# start_server I [ARGS...]: `serve` number I on a free port; sets server_address_I. Its output goes to
# $work/sI/serve.out and serve.err; the script ends if it does not come up within 60 s.
start_server() {
    local i=$1 dir="$work/s$1"
    shift
    mkdir -m 700 "$dir" "$dir/data"
    # Every server needs the same vault key: the webhook and upstream secrets in the database are sealed with it.
    if [ "$i" != 1 ]; then
        mkdir -p "$dir/data/keys"
        install -m 600 "$work/s1/data/keys/aadhaar.key" "$dir/data/keys/aadhaar.key"
    fi
    # shellcheck disable=SC2086 # SERVE_ARGS is a list of options
    QT_LOGGING_RULES="rechargedesk.auth.info=false;rechargedesk.http.info=false" \
        "$binary" serve --listen 127.0.0.1:0 --data-dir "$dir/data" --database "$database_url" \
        --settle-delay-ms 3000 --max-connections-per-address 1024 ${SERVE_ARGS:-} "$@" \
        >"$dir/serve.out" 2>"$dir/serve.err" &
    server_pids+=($!)
    # Not a job of this shell: a server the test kills with -9 is then not reported ("Killed") in its output.
    disown "$!"
    server_names+=("s$i")
    for _ in $(seq 1 600); do
        grep -q 'listening on' "$dir/serve.out" 2>/dev/null && break
        if ! kill -0 "${server_pids[-1]}" 2>/dev/null; then
            cat "$dir/serve.err" >&2
            echo "cluster.sh: server $i exited at start" >&2
            exit 1
        fi
        sleep 0.1
    done
    local url
    url="$(sed -n 's/^RechargeDesk API listening on http:\/\/\([^/]*\)\/api\/v1$/\1/p' "$dir/serve.out" | head -n 1)"
    if [ -z "$url" ]; then
        cat "$dir/serve.out" "$dir/serve.err" >&2
        echo "cluster.sh: server $i did not say where it listens" >&2
        exit 1
    fi
    printf -v "server_address_$i" '%s' "$url"
    server_urls+=("http://$url")
}

# Server 1 migrates the fresh database and makes the test key and the vault key; the others then start together.
start_server 1 --new-test-key
key_file="$(sed -n 's/^  key_file: //p' "$work/s1/serve.out" | head -n 1)"
key_id="$(awk '$1 == "key_id:" { print $2; exit }' "$key_file")"
key_secret="$(awk '$1 == "key_secret:" { print $2; exit }' "$key_file")"
if [ -z "$key_id" ] || [ -z "$key_secret" ]; then
    echo "cluster.sh: no test key in $key_file" >&2
    exit 1
fi
for i in $(seq 2 "$servers"); do
    start_server "$i"
done

# haproxy with the example configuration; server lines beyond N point at a closed port and are put in maintenance.
haproxy_port="$(free_port)"
haproxy_socket="$work/haproxy.sock"
export RECHARGEDESK_HAPROXY_BIND="127.0.0.1:$haproxy_port" RECHARGEDESK_HAPROXY_SOCKET="$haproxy_socket"
for i in 1 2 3; do
    address_var="server_address_$i"
    export "RECHARGEDESK_SERVER$i=${!address_var:-127.0.0.1:1}"
done
"$haproxy_bin" -db -f "$repo_dir/packaging/examples/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 1 100); do
    [ -S "$haproxy_socket" ] && break
    sleep 0.1
done
for i in $(seq $((servers + 1)) 3); do
    haproxy_command "$haproxy_socket" "set server rechargedesk_servers/s$i state maint" >/dev/null
done
# Ready when haproxy's checks say every started server is UP.
up=0
for _ in $(seq 1 300); do
    up="$(servers_up "$haproxy_socket")"
    [ "$up" -ge "$servers" ] && break
    sleep 0.1
done
if [ "$up" -lt "$servers" ]; then
    cat "$work/haproxy.log" >&2
    echo "cluster.sh: haproxy sees $up of $servers servers up" >&2
    exit 1
fi
echo "cluster.sh: $servers server(s) behind haproxy at http://127.0.0.1:$haproxy_port (database $database_url)"

export CLUSTER_URL="http://127.0.0.1:$haproxy_port"
export CLUSTER_KEY="$key_id:$key_secret"
export CLUSTER_DATABASE="$database_url"
export CLUSTER_BINARY="$binary"
export CLUSTER_DATA_DIR="$work/s1/data"
export CLUSTER_SERVER_PIDS="${server_pids[*]}"
export CLUSTER_SERVER_NAMES="${server_names[*]}"
export CLUSTER_SERVER_URLS="${server_urls[*]}"
export CLUSTER_HAPROXY_SOCKET="$haproxy_socket"
export CLUSTER_WORK="$work"
"$@"
status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne "$kSkip" ]; then
    # What the servers and haproxy said, for the failure's report (the last lines of each).
    for log in "$work"/s*/serve.err "$work/haproxy.log"; do
        echo "--- $log (last 20 lines)" >&2
        tail -n 20 "$log" >&2
    done
fi
exit "$status"
