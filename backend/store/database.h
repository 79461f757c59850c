#pragma once

#include <QHash>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>
#include <stdexcept>

/// A database failure the caller cannot fix (I/O error, constraint violation that code should
/// have prevented, lost connection). Mapped to HTTP 500 by the router.
class DatabaseError final : public std::runtime_error
{
public:
    explicit DatabaseError(const QString &message, bool uniqueViolation = false, bool retryable = false)
        : std::runtime_error(message.toStdString()), m_uniqueViolation(uniqueViolation), m_retryable(retryable)
    {}
    /// True when the statement broke a UNIQUE constraint (used to detect concurrent duplicates).
    bool isUniqueViolation() const { return m_uniqueViolation; }
    /// True when PostgreSQL gave up on the transaction because of other writers (deadlock detected,
    /// serialization failure): the same work in a new transaction may well succeed.
    bool isRetryable() const { return m_retryable; }

private:
    bool m_uniqueViolation;
    bool m_retryable;
};

/// One QtSql connection (SQLite file by default, PostgreSQL by URL) with the schema migrated.
/// Lives on the thread that opened it (QtSql connections are per thread). SQLite runs in WAL
/// mode with synchronous=FULL, so a committed transaction is on disk (architecture.md,
/// "Persistence"). All SQL of the product goes through this class and the repositories.
class Database
{
public:
    /// Opens `location` and applies pending migrations inside a transaction: a path to an SQLite
    /// file (created if missing; "sqlite:" prefix optional) or "postgres://user:pass@host:port/db"
    /// (the database must exist; parts left out come from libpq's defaults and PG* variables; query
    /// parameters such as `?sslmode=require` or `?host=/run/postgresql` go to libpq). Errors never
    /// show the password.
    /// Returns nullptr with *error set when the driver is missing, the file cannot be opened or a
    /// migration fails (the schema is then left as it was).
    static std::unique_ptr<Database> open(const QString &location, QString *error);
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    bool isPostgres() const { return m_postgres; }
    /// The location open() was given (an SQLite path or a postgres:// URL, password included): for tools that
    /// open their own connection to the same database (the nightly backup).
    const QString &location() const { return m_location; }
    QSqlDatabase connection() const;
    /// True when the database answers a trivial query now (GET /healthz); never throws.
    bool isAnswering();

    /// A prepared statement for `sql` with `?` placeholders, cached for the life of the
    /// connection. Bind with addBindValue() after clear (bindAll does both). The statement is
    /// forward-only: step through rows with next() only (no seek/previous/first/last).
    /// Throws DatabaseError.
    QSqlQuery &prepare(const QString &sql);
    /// Binds `values` in order to the cached statement for `sql` and executes it. Throws DatabaseError.
    QSqlQuery &run(const QString &sql, const QVariantList &values = {});
    /// Executes one statement without caching (DDL, PRAGMA). Throws DatabaseError.
    void execute(const QString &sql);
    /// PostgreSQL: executes `sql` now and again on every new connection after a lost one (session
    /// settings, session advisory locks). Throws DatabaseError.
    void addSessionStatement(const QString &sql);

    /// Starts a write transaction (SQLite: BEGIN IMMEDIATE, taking the write lock at once).
    void begin();
    void commit();
    void rollback();
    /// Savepoints inside a transaction: one per request of a grouped commit.
    void savepoint(const QString &name);
    void releaseSavepoint(const QString &name);
    void rollbackToSavepoint(const QString &name);

    /// The schema version after migrations (the highest applied migration number).
    int schemaVersion();

private:
    Database(QString connectionName, bool postgres);
    void migrate();
    /// A transaction-control statement: prepared once and cached on SQLite, execute() on PostgreSQL.
    void executeCached(const QString &sql);
    /// PostgreSQL, outside a transaction: when the connection no longer answers (the server restarted,
    /// or ended the session), opens a new one, runs the session statements and returns true, so the
    /// caller can run its statement again. False when the connection works or cannot be restored.
    bool reconnectIfLost();
    [[noreturn]] void fail(const QSqlQuery &query, const QString &what) const;
    [[noreturn]] void fail(const QSqlError &error, const QString &what) const;

    QString m_connectionName;
    bool m_postgres;
    QString m_location;
    QHash<QString, QSqlQuery> m_statements;
    QStringList m_sessionStatements;
    bool m_inTransaction = false;
};

/// A text value for a NOT NULL column: QtSql binds a null QString as SQL NULL, so a null
/// string becomes ''.
inline QVariant textValue(const QString &text)
{
    return text.isNull() ? QVariant(QStringLiteral("")) : QVariant(text);
}

/// Runs a write transaction for its scope: begin() now, rollback() on destruction unless
/// commit() was called. Use for single-shot writes outside the commit batcher.
class WriteTransaction
{
public:
    explicit WriteTransaction(Database &db) : m_db(db) { m_db.begin(); }
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;
    /// Commits; throws DatabaseError (the transaction is then rolled back).
    void commit();

private:
    Database &m_db;
    bool m_done = false;
};
