#!/usr/bin/env bash
# Runs one command (a test binary) against a throw-away PostgreSQL cluster: pg_virtualenv (Debian's
# postgresql-common) creates it, exports PGHOST/PGPORT/PGUSER/PGPASSWORD/PGDATABASE, runs the command
# with RECHARGEDESK_TEST_PG=1 (tests/support/teststore.h then gives every test its own database) and
# drops the cluster. CTest's pg_* tests use this; by hand: tests/tools/with_postgres.sh build/tests/tst_salesapi_sales
#
# When no PostgreSQL can be started (pg_virtualenv or the server package is missing, or the cluster does
# not come up) it prints "SKIP: ..." saying why and exits 77, which CTest reports as a skipped test
# (SKIP_RETURN_CODE in tests/CMakeLists.txt), never as passed. CI must not skip silently: with
# RECHARGEDESK_REQUIRE_POSTGRES=1 (.ci/run sets it) or CI=true the same cases FAIL (exit 1) instead.
# Install the packages with `bash packaging/install-deps.sh`.
set -uo pipefail

readonly kSkip=77

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi
command_name=$(basename "$1")

# Prints why no PostgreSQL run is possible and exits: 77 (skip) on a developer's machine, 1 where
# PostgreSQL is required.
unavailable() {
    if [ "${RECHARGEDESK_REQUIRE_POSTGRES:-0}" = 1 ] || [ "${CI:-}" = true ]; then
        echo "FAIL: with_postgres: $* (PostgreSQL is required here: RECHARGEDESK_REQUIRE_POSTGRES=1 or CI=true)" >&2
        exit 1
    fi
    echo "SKIP: with_postgres: $*; the PostgreSQL run of $command_name is skipped" \
         "(set RECHARGEDESK_REQUIRE_POSTGRES=1 to make this a failure)" >&2
    exit "$kSkip"
}

if ! command -v pg_virtualenv >/dev/null 2>&1; then
    unavailable "pg_virtualenv not found; the PostgreSQL tests need the Debian packages postgresql and" \
                "postgresql-common (bash packaging/install-deps.sh)"
fi
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    unavailable "no PostgreSQL server is installed (/usr/lib/postgresql/*/bin/pg_ctl); the PostgreSQL tests" \
                "need the Debian package postgresql (bash packaging/install-deps.sh)"
fi

# pg_createcluster picks the first free port, and two clusters created at the same moment (ctest -j, or
# another checkout's tests) can pick the same one. Cluster creation is therefore serialised with a lock
# that the command releases once its cluster is up; the tests themselves run in parallel.
lock="${TMPDIR:-/tmp}/rechargedesk-with-postgres.lock"
exec 9>>"$lock"
chmod a+rw "$lock" 2>/dev/null || true
flock 9

# The command leaves this mark once its cluster is up: a failure without it is the cluster's, not the test's.
started=$(mktemp "${TMPDIR:-/tmp}/rechargedesk-with-postgres.XXXXXX")
rm -f "$started"
trap 'rm -f "$started"' EXIT

export RECHARGEDESK_TEST_PG=1
# -t: a cluster in a temporary directory even when run as root (the default root cluster "regress"
# lives in /etc/postgresql and only one can exist at a time).
pg_virtualenv -t bash -c 'flock -u 9; exec 9>&-; : >"$0"; exec "$@"' "$started" "$@"
status=$?
if [ ! -e "$started" ]; then
    unavailable "the throw-away PostgreSQL cluster did not start (pg_virtualenv exited with $status; its" \
                "messages are above)"
fi
exit "$status"
