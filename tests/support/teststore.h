#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

/// Where one test keeps its data: a temporary data directory (keys, plan catalogue) and a fresh database.
/// By default the database is an SQLite file in that directory. When RECHARGEDESK_TEST_PG is set (to
/// anything but 0), it is instead a new schema in the PostgreSQL database the libpq PG* variables name
/// (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, as `pg_virtualenv` sets them), created here with a
/// unique name and dropped with its tables by the destructor, so stores stay isolated and may run in
/// parallel. The location is then a postgres:// URL whose `options` query parameter sets the
/// connection's search_path to that schema (a schema costs milliseconds, a CREATE DATABASE ~0.5 s).
class TestStore
{
public:
    /// Creates the directory and, for PostgreSQL, the database; qFatal() when the server cannot be reached.
    TestStore();
    ~TestStore();
    TestStore(const TestStore &) = delete;
    TestStore &operator=(const TestStore &) = delete;

    /// True when tests run against PostgreSQL (RECHARGEDESK_TEST_PG).
    static bool postgres();

    bool isValid() const { return m_dir.isValid(); }
    /// The data directory (QTemporaryDir-compatible names, so the two swap in tests).
    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    /// What Database::open() and `--database` take: the SQLite file path, or a postgres:// URL.
    const QString &location() const { return m_location; }
    /// PostgreSQL: the schema the location's search_path names (empty for SQLite).
    const QString &pgSchema() const { return m_pgSchema; }
    /// Command-line options that point `rechargedesk` at this store: `--data-dir DIR`, plus
    /// `--database URL` for PostgreSQL (SQLite uses the data directory's default file).
    QStringList arguments() const;
    /// A separate read-only connection to this store's database, named `connectionName`, already open
    /// (check isOpen()); for tests that look at the rows a stopped server left. Remove it with
    /// QSqlDatabase::removeDatabase when done.
    QSqlDatabase openReadOnly(const QString &connectionName) const;
    /// The first column of the first row of `sql` on a read-only connection of its own (openReadOnly()), as an
    /// integer; -999 (and a warning) when the query fails or returns no row.
    qint64 scalar(const QString &sql) const;
    /// PostgreSQL: ends every session opened with this store's location and waits until they are gone, as
    /// a PostgreSQL restart does. Nothing on SQLite (there is no connection to lose).
    void terminateSessions() const;

private:
    QTemporaryDir m_dir;
    QString m_location;
    QString m_pgSchema; ///< the PostgreSQL schema to drop, empty for SQLite
};
