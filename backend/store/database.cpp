#include "database.h"

#include "migrations.h"

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QSqlError>
#include <QUrl>

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

} // namespace

std::unique_ptr<Database> Database::open(const QString &location, QString *error)
{
    const bool postgres = location.startsWith(QLatin1String("postgres://")) ||
                          location.startsWith(QLatin1String("postgresql://"));
    const QString driver = postgres ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        *error = QStringLiteral("the Qt SQL driver %1 is not installed").arg(driver);
        return nullptr;
    }
    std::unique_ptr<Database> database(new Database(nextConnectionName(), postgres));
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, database->m_connectionName);
    if (postgres) {
        const QUrl url(location);
        db.setHostName(url.host());
        db.setPort(url.port(5432));
        db.setUserName(url.userName());
        db.setPassword(url.password());
        db.setDatabaseName(url.path().mid(1));
    } else {
        QString path = location;
        if (path.startsWith(QLatin1String("sqlite:")))
            path = path.mid(7);
        QDir().mkpath(QFileInfo(path).absolutePath());
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    }
    if (!db.open()) {
        *error = QStringLiteral("cannot open the database %1: %2").arg(location, db.lastError().text());
        return nullptr;
    }
    try {
        if (!postgres) {
            database->execute(QStringLiteral("PRAGMA journal_mode=WAL"));
            database->execute(QStringLiteral("PRAGMA synchronous=FULL"));
            database->execute(QStringLiteral("PRAGMA foreign_keys=ON"));
            // Erased data (the sealed Aadhaar number after a flow) is overwritten, not left in free pages.
            database->execute(QStringLiteral("PRAGMA secure_delete=ON"));
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
{
}

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

void Database::fail(const QSqlQuery &query, const QString &what) const
{
    const QSqlError error = query.lastError();
    throw DatabaseError(what + QStringLiteral(": ") + error.text(), isUniqueViolation(error));
}

QSqlQuery &Database::prepare(const QString &sql)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        QSqlQuery query(connection());
        // Forward-only: QtSql then caches one row instead of 128 (QSqlCachedResult), which was
        // ~70 % of the CPU of a one-row SELECT such as the status check (docs/benchmarks.md).
        query.setForwardOnly(true);
        if (!query.prepare(sql))
            fail(query, QStringLiteral("cannot prepare \"%1\"").arg(sql));
        it = m_statements.insert(sql, query);
    }
    it->finish();
    return *it;
}

QSqlQuery &Database::run(const QString &sql, const QVariantList &values)
{
    QSqlQuery &query = prepare(sql);
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), values.at(i));
    if (!query.exec())
        fail(query, QStringLiteral("statement failed"));
    return query;
}

void Database::execute(const QString &sql)
{
    QSqlQuery query(connection());
    if (!query.exec(sql))
        fail(query, QStringLiteral("\"%1\" failed").arg(sql));
}

void Database::begin()
{
    execute(m_postgres ? QStringLiteral("BEGIN") : QStringLiteral("BEGIN IMMEDIATE"));
}

void Database::commit()
{
    execute(QStringLiteral("COMMIT"));
}

void Database::rollback()
{
    execute(QStringLiteral("ROLLBACK"));
}

void Database::savepoint(const QString &name)
{
    execute(QStringLiteral("SAVEPOINT ") + name);
}

void Database::releaseSavepoint(const QString &name)
{
    execute(QStringLiteral("RELEASE SAVEPOINT ") + name);
}

void Database::rollbackToSavepoint(const QString &name)
{
    execute(QStringLiteral("ROLLBACK TO SAVEPOINT ") + name);
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

void Database::migrate()
{
    execute(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"));
    const QString idColumn = m_postgres ? QStringLiteral("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
                                        : QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT");
    QSet<int> applied;
    {
        QSqlQuery &query = run(QStringLiteral("SELECT version FROM schema_migrations"));
        while (query.next())
            applied.insert(query.value(0).toInt());
        query.finish();
    }
    // Every migration not yet applied runs, in version order; membership (not the highest number)
    // decides, so a database never skips a step that was added between two others.
    for (const Migration &migration : allMigrations()) {
        if (applied.contains(migration.version))
            continue;
        WriteTransaction transaction(*this);
        for (const QString &statement : migration.statements) {
            QString sql = statement;
            execute(sql.replace(QLatin1String("%ID%"), idColumn));
        }
        run(QStringLiteral("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"),
            {migration.version, QDateTime::currentMSecsSinceEpoch()});
        transaction.commit();
    }
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
