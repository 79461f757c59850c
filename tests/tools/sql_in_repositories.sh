#!/bin/bash
# SQL lives only in backend/store/ and in repository classes (*repository.h/.cpp), so a reader finds every
# query of a table in one place (docs/architecture.md, "Time, money, storage"). Lists each other backend file
# that builds a QSqlQuery or holds an SQL statement, and fails if there is one.
#
# Usage: sql_in_repositories.sh [backend directory]   (default: the backend/ beside tests/)
#
# Allowed besides: backend/backup/databasesnapshot.cpp, the engine-level snapshot of a whole database file
# (VACUUM INTO, PRAGMA integrity_check, the schema version of a file that is not the live one); it reads no
# table of the application and runs on its own connection, so it is store plumbing, not a repository.
set -u
backend=${1:-$(dirname "$0")/../../backend}
cd "$backend" || exit 2
allowed='^(store/[^:]*|backup/databasesnapshot\.cpp)|repository\.(h|cpp)'
pattern='QSqlQuery|\b(SELECT|INSERT INTO|DELETE FROM|VACUUM|PRAGMA)\b|\bUPDATE [a-z_]+ SET\b|pg_advisory'
# Every matching line that is not a comment, as "file:line:text".
hits=$(grep -rnE --include='*.h' --include='*.cpp' "$pattern" . | sed 's#^\./##' |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|/?\*)' | grep -vE "^[^:]*($allowed)" | sort -t: -k1,1 -k2,2n)
if [ -n "$hits" ]; then
    echo "SQL outside the repositories (move it into a *Repository class or backend/store/):"
    echo "$hits" | sed 's#^#  backend/#'
    exit 1
fi
echo "SQL only in backend/store/ and *repository.* files"
