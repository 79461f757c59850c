#pragma once

#include <QString>

/// A consistent copy of the live database, taken while the server keeps writing (issue 15), and its way back.
/// SQLite: `VACUUM INTO` on a read-only connection (one read transaction: every committed sale before it, none
/// after; WAL lets writers go on). PostgreSQL: `pg_dump --format=custom` (one repeatable-read snapshot) and
/// `pg_restore` (Debian's postgresql-client). The password of a postgres:// URL goes to the tools in PGPASSWORD,
/// never on their command line.
namespace DatabaseSnapshot {

/// True for a postgres:// or postgresql:// location (as Database::open() decides).
bool isPostgres(const QString &location);
/// The SQLite file of a location ("sqlite:" prefix removed); empty for PostgreSQL.
QString sqlitePath(const QString &location);
/// Copies the database at `location` into the new file `output` (which must not exist). False with *error set
/// when the database cannot be read or the tool fails (its stderr in the message).
bool take(const QString &location, const QString &output, QString *error);
/// The highest migration applied in the SQLite file `path`, read without migrating it; -1 with *error set
/// when the file is not an SQLite database of this program.
int sqliteSchemaVersion(const QString &path, QString *error);
/// SQLite: "ok" when `PRAGMA integrity_check` finds nothing, else its first findings.
QString sqliteIntegrity(const QString &path);
/// PostgreSQL: loads the custom-format `dump` into the database at `location` in one transaction
/// (pg_restore --single-transaction --exit-on-error --no-owner): on any error nothing stays, so a database
/// that already holds the tables is left as it was. False with *error (pg_restore's message).
bool restorePostgres(const QString &dump, const QString &location, QString *error);

} // namespace DatabaseSnapshot
