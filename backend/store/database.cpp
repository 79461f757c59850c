#include "database.h"

#include "migrations.h"
#include "privatefiles.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QSqlDriver>
#include <QSqlError>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <sqlite3.h>

namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("rechargedesk-%1").arg(counter.fetchAndAddRelaxed(1));
}

bool isUniqueViolation(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    return code == QLatin1String("23505") || code == QLatin1String("2067") || code == QLatin1String("1555") ||
           error.databaseText().contains(QLatin1String("UNIQUE constraint failed"));
}

/// libpq connection parameters from the query of a postgres:// URL (`?sslmode=require&connect_timeout=5`,
/// `?host=/run/postgresql` for a socket directory), as QPSQL connect options. False with *error for a
/// parameter libpq would misread: only [a-z_] names and values without spaces, quotes, ';' or backslashes.
bool postgresOptions(const QUrl &url, QString *options, QString *error)
{
    static const QRegularExpression name(QStringLiteral("^[a-z_]+$"));
    static const QRegularExpression value(QStringLiteral("^[^\\s'\";\\\\]*$"));
    QStringList parts;
    for (const auto &[key, text] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        if (!name.match(key).hasMatch() || !value.match(text).hasMatch()) {
            *error =
                QStringLiteral("the database URL parameter \"%1\" is not a libpq parameter this server can pass on")
                    .arg(key);
            return false;
        }
        if (key != QLatin1String("host"))
            parts.append(key + QLatin1Char('=') + text);
    }
    // How the server's sessions show in pg_stat_activity, unless the URL names them otherwise.
    parts.append(QStringLiteral("fallback_application_name=rechargedesk"));
    // A database host that drops packets would hold the server's thread in connect() for minutes (TCP's own
    // retries): while PostgreSQL cannot be reached, each reconnection attempt gives up after 5 s instead.
    if (!QUrlQuery(url).hasQueryItem(QStringLiteral("connect_timeout")))
        parts.append(QStringLiteral("connect_timeout=5"));
    *options = parts.join(QLatin1Char(';'));
    return true;
}

/// Holds PostgreSQL's session advisory lock on migrations for its scope (nothing on SQLite, where
/// each migration's BEGIN IMMEDIATE already excludes every other writer).
class MigrationLock
{
public:
    explicit MigrationLock(Database &db) : m_db(db)
    {
        if (m_db.isPostgres())
            m_db.execute(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(kKey));
    }
    ~MigrationLock()
    {
        if (!m_db.isPostgres())
            return;
        try {
            m_db.execute(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(kKey));
        } catch (const DatabaseError &e) {
            qWarning("cannot release the migration lock: %s", e.what());
        }
    }
    MigrationLock(const MigrationLock &) = delete;
    MigrationLock &operator=(const MigrationLock &) = delete;

private:
    static constexpr qint64 kKey = 0x52444d4947524154; // "RDMIGRAT": one lock per database, all servers
    Database &m_db;
};

/// SQLite: foreign key enforcement off for its scope when `active` (a table rebuild, see MigrationScope), on
/// again after it. Both must run outside a transaction: SQLite ignores PRAGMA foreign_keys inside one.
class ForeignKeysOff
{
public:
    ForeignKeysOff(Database &db, bool active) : m_db(db), m_active(active)
    {
        if (m_active)
            m_db.execute(QStringLiteral("PRAGMA foreign_keys=OFF"));
    }
    ~ForeignKeysOff()
    {
        if (!m_active)
            return;
        try {
            m_db.execute(QStringLiteral("PRAGMA foreign_keys=ON"));
        } catch (const DatabaseError &e) {
            qWarning("cannot switch foreign keys on again: %s", e.what());
        }
    }
    ForeignKeysOff(const ForeignKeysOff &) = delete;
    ForeignKeysOff &operator=(const ForeignKeysOff &) = delete;

private:
    Database &m_db;
    bool m_active;
};

/// Statements that may run a second time after a lost connection: reads, BEGIN and session settings.
/// A write outside a transaction may have committed before the connection broke, so it never repeats.
bool safeToRepeat(const QString &sql)
{
    for (const char *start : {"SELECT ", "BEGIN", "SET "}) {
        if (sql.startsWith(QLatin1String(start), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

/// PostgreSQL's deadlock_detected and serialization_failure: the transaction lost to another one.
bool isRetryable(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    return code == QLatin1String("40P01") || code == QLatin1String("40001");
}

} // namespace

namespace {

constexpr int kBusyStepMicroseconds = 250;
constexpr int kBusyTries = 10'000'000 / kBusyStepMicroseconds; // about the 10 s of QSQLITE_BUSY_TIMEOUT

int waitAStep(void *, int tries)
{
    if (tries >= kBusyTries)
        return 0;
    QThread::usleep(kBusyStepMicroseconds);
    return 1;
}

} // namespace

void Database::waitForTheWriteLockInFineSteps(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return;
    if (sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData()))
        sqlite3_busy_handler(connection, waitAStep, nullptr);
}

std::unique_ptr<Database> Database::open(const QString &location, QString *error)
{
    const bool postgres =
        location.startsWith(QLatin1String("postgres://")) || location.startsWith(QLatin1String("postgresql://"));
    const QString driver = postgres ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        *error = QStringLiteral("the Qt SQL driver %1 is not installed").arg(driver);
        return nullptr;
    }
    std::unique_ptr<Database> database(new Database(nextConnectionName(), postgres));
    database->m_location = location;
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, database->m_connectionName);
    QString shownLocation = location;
    QString sqlitePath; // SQLite only: the database file
    if (postgres) {
        const QUrl url(location);
        if (!url.isValid() || url.path().size() < 2) {
            *error = QStringLiteral("a PostgreSQL URL is postgres://user:password@host:port/database, not %1")
                         .arg(url.toString(QUrl::RemovePassword));
            return nullptr;
        }
        shownLocation = url.toString(QUrl::RemovePassword);
        QString options;
        if (!postgresOptions(url, &options, error))
            return nullptr;
        // Parts the URL leaves out (host, port, user, password) come from libpq's defaults: the PG*
        // environment variables, ~/.pgpass, the local socket, port 5432.
        db.setHostName(QUrlQuery(url).hasQueryItem(QStringLiteral("host"))
                           ? QUrlQuery(url).queryItemValue(QStringLiteral("host"), QUrl::FullyDecoded)
                           : url.host());
        if (url.port() > 0)
            db.setPort(url.port());
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(url.path().mid(1));
        db.setConnectOptions(options);
    } else {
        QString &path = sqlitePath;
        path = location;
        if (path.startsWith(QLatin1String("sqlite:")))
            path = path.mid(7);
        // The shop's sales, keys' hashes and sealed secrets: owner-only directory and files (issue 12).
        PrivateFiles::ensureDirectory(QFileInfo(path).absolutePath(), nullptr);
        if (!QFileInfo::exists(path)) {
            QString createError;
            // Another process opening the same fresh database at this moment may have created it first.
            if (!PrivateFiles::writeFile(path, QByteArray(), &createError) && !QFileInfo::exists(path)) {
                *error = QStringLiteral("cannot open the database %1: %2").arg(path, createError);
                return nullptr;
            }
        }
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    }
    if (!db.open()) {
        *error = QStringLiteral("cannot open the database %1: %2").arg(shownLocation, db.lastError().text());
        return nullptr;
    }
    if (!postgres)
        waitForTheWriteLockInFineSteps(db);
    try {
        if (postgres) {
            // libpq prints NOTICEs (such as "relation ... already exists, skipping" of the migrations'
            // CREATE TABLE IF NOT EXISTS) on stderr, into the output of every command; only warnings matter.
            database->addSessionStatement(QStringLiteral("SET client_min_messages = warning"));
        } else {
            database->execute(QStringLiteral("PRAGMA journal_mode=WAL"));
            database->execute(QStringLiteral("PRAGMA synchronous=FULL"));
            database->execute(QStringLiteral("PRAGMA foreign_keys=ON"));
            // Erased data (the sealed Aadhaar number after a flow) is overwritten, not left in free pages.
            database->execute(QStringLiteral("PRAGMA secure_delete=ON"));
            // A grouped commit gives each request a savepoint; SQLite journals the pages a savepoint changes, and
            // past 64 KiB that journal went to a temporary file opened, written and unlinked in every commit (issue
            // 17). In memory it is bounded by one commit's pages; temporary tables and indexes stay in memory too.
            database->execute(QStringLiteral("PRAGMA temp_store=MEMORY"));
            // SQLite gives -wal and -shm the database file's mode; an older database may be looser.
            for (const char *suffix : {"", "-wal", "-shm"})
                PrivateFiles::restrictToOwner(sqlitePath + QLatin1String(suffix));
        }
        database->migrate();
    } catch (const DatabaseError &e) {
        *error = QString::fromStdString(e.what());
        return nullptr;
    }
    return database;
}

Database::Database(QString connectionName, bool postgres)
    : m_connectionName(std::move(connectionName)), m_postgres(postgres)
{}

Database::~Database()
{
    m_statements.clear();
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
}

QSqlDatabase Database::connection() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

void Database::fail(const QSqlQuery &query, const QString &what)
{
    fail(query.lastError(), what);
}

void Database::fail(const QSqlError &error, const QString &what)
{
    if (connectionLost(error))
        throwUnavailable(what + QStringLiteral(": the connection to PostgreSQL was lost: ") + error.text());
    throw DatabaseError(what + QStringLiteral(": ") + error.text(), isUniqueViolation(error), isRetryable(error));
}

namespace {

/// The most placeholders a statement is given names for (the longest INSERT has 17).
constexpr qsizetype kNamedPlaceholders = 64;

/// ":0", ":1", … — the names numberedPlaceholders() gives the `?`s, built once.
const QString &placeholderName(qsizetype i)
{
    static const QList<QString> names = [] {
        QList<QString> list;
        for (qsizetype n = 0; n < kNamedPlaceholders; ++n)
            list.append(QLatin1Char(':') + QString::number(n));
        return list;
    }();
    return names.at(i);
}

/// `sql` with its `?` placeholders (outside quotes, as QtSql finds them) named ":0", ":1", … in order. QtSql
/// binds a value by position only after formatting the position's name with QString::arg (~2,000 instructions
/// per value, ~10 % of a live sale: docs/benchmarks.md, "Upstream chain"); by name it is one hash lookup.
/// Both drivers send the statement with the values in the same order as before. Unchanged when it has more
/// than kNamedPlaceholders `?`s or already names any (then bound by position).
QString numberedPlaceholders(const QString &sql)
{
    if (!sql.contains(QLatin1Char('?')) || sql.contains(QLatin1Char(':')))
        return sql;
    QString out;
    out.reserve(sql.size() + 64);
    QChar closingQuote;
    qsizetype count = 0;
    for (const QChar ch : sql) {
        if (!closingQuote.isNull()) {
            if (ch == closingQuote)
                closingQuote = QChar();
            out += ch;
        } else if (ch == QLatin1Char('?')) {
            if (count == kNamedPlaceholders)
                return sql;
            out += placeholderName(count++);
        } else {
            if (ch == QLatin1Char('\'') || ch == QLatin1Char('"') || ch == QLatin1Char('`'))
                closingQuote = ch;
            else if (ch == QLatin1Char('['))
                return sql; // QtSql's SQLite rules for [quoted] names: leave such a statement as it is
            out += ch;
        }
    }
    return out;
}

} // namespace

void Database::throwUnavailable(const QString &what) const
{
    const qint64 waitMs = m_nextReconnect.remainingTime();
    throw DatabaseError::unavailable(what, int((qMax<qint64>(waitMs, 0) + 999) / 1000));
}

QSqlQuery &Database::prepare(const QString &sql)
{
    ensureConnected();
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        const QString named = numberedPlaceholders(sql);
        QSqlQuery query(connection());
        // Forward-only: QtSql then caches one row instead of 128 (QSqlCachedResult), which was
        // ~70 % of the CPU of a one-row SELECT such as the status check (docs/benchmarks.md).
        query.setForwardOnly(true);
        if (!query.prepare(named)) {
            if (!reconnectIfLost(query.lastError()))
                fail(query, QStringLiteral("cannot prepare \"%1\"").arg(sql));
            query = QSqlQuery(connection());
            query.setForwardOnly(true);
            if (!query.prepare(named))
                fail(query, QStringLiteral("cannot prepare \"%1\"").arg(sql));
        }

        it = m_statements.insert(sql, query);
    }
    it->finish();
    return *it;
}

bool Database::isAnswering()
{
    try {
        run(QStringLiteral("SELECT 1")).finish();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

QSqlQuery &Database::run(const QString &sql, const QVariantList &values)
{
    for (bool retried = false;; retried = true) {
        QSqlQuery &query = prepare(sql);
        const bool positional = query.lastQuery().size() == sql.size(); // prepared as it was: no names
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (positional || i >= kNamedPlaceholders)
                query.bindValue(int(i), values.at(i));
            else
                query.bindValue(placeholderName(i), values.at(i));
        }
        if (query.exec())
            return query;
        // A read that met a lost connection outside a transaction runs again on a new one (`query`,
        // from the old connection's cache, is gone then; prepare() makes it anew).
        const QSqlError error = query.lastError();
        if (retried || !safeToRepeat(sql) || !reconnectIfLost(error))
            fail(error, QStringLiteral("statement failed"));
    }
}

qint64 Database::insertReturningId(const QString &insertSql, const QVariantList &values)
{
    if (!m_postgres) {
        QSqlQuery &q = run(insertSql, values);
        const QVariant id = q.lastInsertId();
        q.finish();
        if (!id.isValid())
            throw DatabaseError(QStringLiteral("insert returned no id"));
        return id.toLongLong();
    }
    QSqlQuery &q = run(insertSql + QStringLiteral(" RETURNING id"), values);
    if (!q.next())
        throw DatabaseError(QStringLiteral("insert returned no id"));
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

void Database::execute(const QString &sql)
{
    ensureConnected();
    QSqlQuery query(connection());
    if (query.exec(sql))
        return;
    if (!safeToRepeat(sql) || !reconnectIfLost(query.lastError()))
        fail(query, QStringLiteral("\"%1\" failed").arg(sql));
    QSqlQuery again(connection());
    if (!again.exec(sql))
        fail(again, QStringLiteral("\"%1\" failed").arg(sql));
}

void Database::addSessionStatement(const QString &sql)
{
    execute(sql);
    m_sessionStatements.append(sql);
}

bool Database::reconnectIfLost(const QSqlError &error)
{
    // Inside a transaction a new connection could not continue the transaction: the error goes up
    // (fail() turns a lost connection into "unavailable"), and the next begin() reconnects.
    if (!m_postgres || m_inTransaction || !connectionLost(error))
        return false;
    ensureConnected(); // reconnects now or throws DatabaseError::unavailable()
    return true;
}

bool Database::connectionLost(const QSqlError &error)
{
    if (m_outage)
        return true;
    if (!m_postgres)
        return false;
    // A statement's own failure carries its SQLSTATE; a lost connection carries none (libpq's "server
    // closed the connection unexpectedly", "no connection to the server"), or class 08 (connection
    // exception) or 57P01-57P03 (the session was terminated, the server shuts down or is starting).
    const QString code = error.nativeErrorCode();
    if (!code.isEmpty() && !code.startsWith(QLatin1String("08")) && !code.startsWith(QLatin1String("57P")))
        return false;
    {
        QSqlQuery probe(connection());
        if (probe.exec(QStringLiteral("SELECT 1")))
            return false; // the connection works: the statement itself failed
        // In an aborted transaction the probe fails with in_failed_sql_transaction: the connection works.
        if (probe.lastError().nativeErrorCode() == QLatin1String("25P02"))
            return false;
    }
    qWarning("rechargedesk: the connection to PostgreSQL was lost (%s); reconnecting", qPrintable(error.text()));
    m_outage = true;
    m_retryDelayMs = 0;
    m_nextReconnect = QDeadlineTimer(0); // the first attempt is due at once
    m_statements.clear();                // prepared statements die with their session
    connection().close();
    return true;
}

void Database::ensureConnected()
{
    if (!m_outage)
        return;
    if (m_inTransaction)
        throwUnavailable(QStringLiteral("the connection to PostgreSQL was lost during this transaction"));
    if (!m_nextReconnect.hasExpired())
        throwUnavailable(QStringLiteral("PostgreSQL cannot be reached; the next attempt to reconnect is due later"));
    if (reopen()) {
        m_outage = false;
        m_retryDelayMs = 0;
        qWarning("rechargedesk: reconnected to PostgreSQL");
        return;
    }
    m_retryDelayMs = m_retryDelayMs == 0 ? kFirstRetryMs : qMin(2 * m_retryDelayMs, kMaxRetryMs);
    m_nextReconnect.setRemainingTime(m_retryDelayMs);
    throwUnavailable(QStringLiteral("PostgreSQL cannot be reached"));
}

bool Database::reopen()
{
    QSqlDatabase db = connection();
    db.close();
    if (!db.open()) {
        qWarning("rechargedesk: cannot reconnect to PostgreSQL: %s", qPrintable(db.lastError().text()));
        return false;
    }
    for (const QString &sql : std::as_const(m_sessionStatements)) {
        QSqlQuery setup(db);
        if (!setup.exec(sql)) {
            qWarning("rechargedesk: \"%s\" failed after reconnecting: %s", qPrintable(sql),
                     qPrintable(setup.lastError().text()));
            db.close();
            return false;
        }
    }
    return true;
}

void Database::begin()
{
    if (!m_postgres) {
        // A cached read left active (a one-row lookup stepped once) holds this connection's read snapshot; once
        // another connection (the webhook delivery thread, the wallet CLI) has committed, BEGIN IMMEDIATE on a
        // stale snapshot fails at once with SQLITE_BUSY instead of waiting. Finishing an inactive statement is a
        // no-op.
        for (QSqlQuery &query : m_statements) {
            if (query.isActive())
                query.finish();
        }
    }
    execute(m_postgres ? QStringLiteral("BEGIN") : QStringLiteral("BEGIN IMMEDIATE"));
    m_inTransaction = true;
}

void Database::commit()
{
    // Whatever COMMIT answers, the transaction is over (a failed COMMIT of PostgreSQL rolls back). It
    // never runs again on a new connection: there it would "commit" nothing and report success.
    m_inTransaction = false;
    if (m_outage)
        throwUnavailable(QStringLiteral("the connection to PostgreSQL was lost during this transaction"));
    QSqlQuery query(connection());
    if (!query.exec(QStringLiteral("COMMIT")))
        fail(query, QStringLiteral("COMMIT failed"));
}

void Database::rollback()
{
    m_inTransaction = false;
    if (m_outage)
        return; // the server rolled the transaction back when the connection went
    QSqlQuery query(connection());
    if (!query.exec(QStringLiteral("ROLLBACK")))
        fail(query, QStringLiteral("ROLLBACK failed"));
}

void Database::savepoint(const QString &name)
{
    executeCached(QStringLiteral("SAVEPOINT ") + name);
}

void Database::releaseSavepoint(const QString &name)
{
    executeCached(QStringLiteral("RELEASE SAVEPOINT ") + name);
}

void Database::rollbackToSavepoint(const QString &name)
{
    executeCached(QStringLiteral("ROLLBACK TO SAVEPOINT ") + name);
}

void Database::executeCached(const QString &sql)
{
    // SQLite prepares SAVEPOINT and RELEASE like any statement: prepared once, they cost a sale ~25 k
    // instructions less (docs/benchmarks.md, "Instructions per request"). PostgreSQL cannot PREPARE them.
    if (m_postgres)
        execute(sql);
    else
        run(sql).finish();
}

int Database::schemaVersion()
{
    QSqlQuery &query = run(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
    const int version = query.next() ? query.value(0).toInt() : 0;
    // Without finish() the cached statement stays active and holds an SQLite read transaction
    // on the start-up snapshot for the life of the connection: WAL checkpoints then never get
    // past it (the -wal file grows without bound), and once another process (the wallet CLI)
    // commits, every BEGIN IMMEDIATE here fails at once with "database is locked".
    query.finish();
    return version;
}

QSet<int> Database::appliedMigrations()
{
    QSet<int> applied;
    QSqlQuery &query = run(QStringLiteral("SELECT version FROM schema_migrations"));
    while (query.next())
        applied.insert(query.value(0).toInt());
    query.finish(); // no read transaction left open on SQLite (see schemaVersion())
    return applied;
}

void Database::migrate()
{
    // Several servers may start at once on one PostgreSQL database (after an upgrade, say): one
    // migrates while the others wait here, then find every migration applied. Without it, both
    // would run migration N and the loser would fail to start on "relation already exists".
    const MigrationLock lock(*this);
    execute(QStringLiteral(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"));
    const QString idColumn = m_postgres ? QStringLiteral("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
                                        : QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT");
    const QSet<int> applied = appliedMigrations();
    // Every migration not yet applied runs, in version order; membership (not the highest number)
    // decides, so a database never skips a step that was added between two others.
    for (const Migration &migration : allMigrations()) {
        if (applied.contains(migration.version))
            continue;
        const bool rebuild = migration.scope == MigrationScope::SqliteTableRebuild;
        const bool runsHere = !(rebuild && m_postgres);
        // Outside the transaction: SQLite ignores PRAGMA foreign_keys inside one.
        const ForeignKeysOff foreignKeysOff(*this, rebuild && runsHere);
        WriteTransaction transaction(*this);
        // SQLite has no advisory lock: another process may have applied this step between the read
        // above and this transaction's BEGIN IMMEDIATE (which excludes every other writer from here).
        if (!m_postgres && appliedMigrations().contains(migration.version))
            continue;
        for (const QString &statement : runsHere ? migration.statements : QStringList()) {
            QString sql = statement;
            execute(sql.replace(QLatin1String("%ID%"), idColumn));
        }
        if (rebuild && runsHere)
            requireNoForeignKeyViolation(migration.version);
        run(QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"),
            {migration.version, QDateTime::currentMSecsSinceEpoch()});
        transaction.commit();
    }
}

void Database::requireNoForeignKeyViolation(int version)
{
    QSqlQuery &check = run(QStringLiteral("PRAGMA foreign_key_check"));
    if (!check.next()) {
        check.finish();
        return;
    }
    const QString table = check.value(0).toString();
    const qint64 rowid = check.value(1).toLongLong();
    const QString parent = check.value(2).toString();
    check.finish();
    throw DatabaseError(QStringLiteral("migration %1 would leave row %2 of %3 without its row in %4; nothing changed")
                            .arg(QString::number(version), QString::number(rowid), table, parent));
}

WriteTransaction::~WriteTransaction()
{
    if (!m_done) {
        try {
            m_db.rollback();
        } catch (const DatabaseError &e) {
            qWarning("rollback failed: %s", e.what());
        }
    }
}

void WriteTransaction::commit()
{
    m_done = true;
    try {
        m_db.commit();
    } catch (const DatabaseError &) {
        m_db.rollback();
        throw;
    }
}
