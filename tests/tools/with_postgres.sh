#!/usr/bin/env bash
# Runs one command (a test binary) against a throw-away PostgreSQL cluster: pg_virtualenv (Debian's
# postgresql-common) creates it, exports PGHOST/PGPORT/PGUSER/PGPASSWORD/PGDATABASE, runs the command
# with RECHARGEDESK_TEST_PG=1 (tests/support/teststore.h then gives every test its own database) and
# drops the cluster. CTest's pg_* tests use this; by hand: tests/tools/with_postgres.sh build/tests/tst_salesapi
#
# Without pg_virtualenv (or a PostgreSQL server package) it FAILS, so a PostgreSQL run never passes
# unnoticed: install the packages with `bash packaging/install-deps.sh`.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi
if ! command -v pg_virtualenv >/dev/null 2>&1; then
    echo "with_postgres: pg_virtualenv not found; the PostgreSQL tests need the Debian packages postgresql" \
         "and postgresql-common (bash packaging/install-deps.sh)" >&2
    exit 1
fi
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    echo "with_postgres: no PostgreSQL server is installed (/usr/lib/postgresql/*/bin/pg_ctl); the PostgreSQL" \
         "tests need the Debian package postgresql (bash packaging/install-deps.sh)" >&2
    exit 1
fi

# pg_createcluster picks the first free port, and two clusters created at the same moment (ctest -j, or
# another checkout's tests) can pick the same one. Cluster creation is therefore serialised with a lock
# that the command releases once its cluster is up; the tests themselves run in parallel.
lock="${TMPDIR:-/tmp}/rechargedesk-with-postgres.lock"
exec 9>>"$lock"
chmod a+rw "$lock" 2>/dev/null || true
flock 9

export RECHARGEDESK_TEST_PG=1
# -t: a cluster in a temporary directory even when run as root (the default root cluster "regress"
# lives in /etc/postgresql and only one can exist at a time).
exec pg_virtualenv -t bash -c 'flock -u 9; exec 9>&-; exec "$@"' with_postgres "$@"
