#pragma once

#include <QDeadlineTimer>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>
#include <stdexcept>

/// A database failure the caller cannot fix (I/O error, constraint violation that code should
/// have prevented). Mapped to HTTP 500 by the router; a lost connection (isUnavailable()) to 503
/// with Retry-After instead.
class DatabaseError final : public std::runtime_error
{
public:
    explicit DatabaseError(const QString &message, bool uniqueViolation = false, bool retryable = false)
        : std::runtime_error(message.toStdString()), m_uniqueViolation(uniqueViolation), m_retryable(retryable)
    {}
    /// The connection to PostgreSQL is lost and not yet restored; the next attempt to reconnect is
    /// `retryAfterSeconds` (at least 1) away. Nothing of the statement's transaction was committed
    /// (except for a COMMIT that failed this way: its outcome is unknown, as for any lost answer).
    static DatabaseError unavailable(const QString &message, int retryAfterSeconds)
    {
        DatabaseError error(message);
        error.m_retryAfterSeconds = qMax(1, retryAfterSeconds);
        return error;
    }
    /// True when the statement broke a UNIQUE constraint (used to detect concurrent duplicates).
    bool isUniqueViolation() const { return m_uniqueViolation; }
    /// True when PostgreSQL gave up on the transaction because of other writers (deadlock detected,
    /// serialization failure): the same work in a new transaction may well succeed.
    bool isRetryable() const { return m_retryable; }
    /// True when the database cannot be reached at the moment (see unavailable()).
    bool isUnavailable() const { return m_retryAfterSeconds > 0; }
    /// Seconds until the next reconnection attempt (at least 1) when isUnavailable(), else 0.
    int retryAfterSeconds() const { return m_retryAfterSeconds; }

private:
    bool m_uniqueViolation;
    bool m_retryable;
    int m_retryAfterSeconds = 0;
};

/// One QtSql connection (SQLite file by default, PostgreSQL by URL) with the schema migrated.
/// Lives on the thread that opened it (QtSql connections are per thread). SQLite runs in WAL
/// mode with synchronous=FULL, so a committed transaction is on disk (architecture.md,
/// "Persistence"). All SQL of the product goes through this class and the repositories.
///
/// A lost PostgreSQL connection (server restart, network cut, session terminated) is an outage:
/// every statement then throws DatabaseError::unavailable() at once, without touching the
/// network, until a reconnection succeeds. Reconnection is tried on use, at most once per backoff
/// step: at once, then after 0.5 s, doubling up to 10 s (kFirstRetryMs, kMaxRetryMs). A transaction
/// that was open when the connection broke stays broken (every statement throws) until its
/// rollback(), so no statement of it can land on the new connection outside the transaction.
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
    /// Runs `insertSql`, an INSERT of one row into a table with an `id` key (without RETURNING), binding
    /// `values` as run() does, and returns the new row's id: `RETURNING id` on PostgreSQL, the connection's last
    /// insert rowid on SQLite (whose RETURNING builds a temporary table on every execution, ~27 k instructions,
    /// issue 17). Throws DatabaseError.
    qint64 insertReturningId(const QString &insertSql, const QVariantList &values);
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
    /// The versions recorded in schema_migrations (readiness compares them with allMigrations()).
    /// Throws DatabaseError.
    QSet<int> appliedMigrations();

    static constexpr int kFirstRetryMs = 500;  ///< backoff after the first failed reconnection
    static constexpr int kMaxRetryMs = 10'000; ///< the backoff doubles up to this

private:
    Database(QString connectionName, bool postgres);
    void migrate();
    /// Inside a migration's transaction: throws DatabaseError naming the first row `PRAGMA foreign_key_check`
    /// finds whose parent row is missing (after a table rebuild of migration `version`).
    void requireNoForeignKeyViolation(int version);
    /// A transaction-control statement: prepared once and cached on SQLite, execute() on PostgreSQL.
    void executeCached(const QString &sql);
    /// PostgreSQL, outside a transaction: when `error` came from a connection that no longer answers
    /// (the server restarted, or ended the session), opens a new one, runs the session statements and
    /// returns true, so the caller can run its statement again. False when the connection works or in a
    /// transaction; throws DatabaseError::unavailable() when it cannot be restored now.
    bool reconnectIfLost(const QSqlError &error);
    /// PostgreSQL: true when `error` came from a connection that no longer answers (then an outage
    /// starts: the connection is closed and its statements dropped).
    bool connectionLost(const QSqlError &error);
    /// Throws DatabaseError::unavailable() during an outage unless a due reconnection succeeds.
    void ensureConnected();
    /// Opens the connection again and runs the session statements; false when it cannot.
    bool reopen();
    [[noreturn]] void throwUnavailable(const QString &what) const;
    [[noreturn]] void fail(const QSqlQuery &query, const QString &what);
    [[noreturn]] void fail(const QSqlError &error, const QString &what);
    /// SQLite: a connection waiting for the write lock (held by the server's other connection, the webhook delivery
    /// thread's, issue 17) tries again every 250 µs for about 10 s, instead of the default busy handler's growing
    /// sleeps (1, 2, 5 … 100 ms), which leave the lock idle while the waiter sleeps.
    static void waitForTheWriteLockInFineSteps(const QSqlDatabase &db);

    QString m_connectionName;
    bool m_postgres;
    QString m_location;
    QHash<QString, QSqlQuery> m_statements;
    QStringList m_sessionStatements;
    bool m_inTransaction = false;
    bool m_outage = false;          ///< the connection is lost and not yet restored
    int m_retryDelayMs = 0;         ///< the current backoff step (0: the first attempt is due at once)
    QDeadlineTimer m_nextReconnect; ///< when the next reconnection may be tried
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
