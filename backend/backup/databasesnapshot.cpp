#include "databasesnapshot.h"

#include <QAtomicInteger>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

namespace {

/// A private QtSql connection to an SQLite file for one scope, removed after.
class SqliteConnection
{
public:
    SqliteConnection(const QString &path, bool readOnly)
    {
        static QAtomicInteger<quint64> counter;
        m_name = QStringLiteral("rechargedesk-snapshot-%1").arg(counter.fetchAndAddRelaxed(1));
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.setConnectOptions(readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=30000")
                                      : QStringLiteral("QSQLITE_BUSY_TIMEOUT=30000"));
        db.open();
    }
    ~SqliteConnection()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    SqliteConnection(const SqliteConnection &) = delete;
    SqliteConnection &operator=(const SqliteConnection &) = delete;
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }

private:
    QString m_name;
};

/// Runs a PostgreSQL client tool with the URL's password in PGPASSWORD (not in argv); the URL given to the
/// tool has none. False with *error set to the tool's stderr.
bool runPostgresTool(const QString &program, QStringList arguments, const QString &location, QString *error)
{
    QUrl url(location);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!url.password().isEmpty())
        environment.insert(QStringLiteral("PGPASSWORD"), url.password());
    url.setPassword(QString());
    if (url.scheme() == QLatin1String("postgres"))
        url.setScheme(QStringLiteral("postgresql"));
    arguments.append(QStringLiteral("--dbname=") + url.toString(QUrl::FullyEncoded));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    if (!process.waitForStarted(10'000)) {
        *error =
            QStringLiteral("cannot run %1 (Debian package postgresql-client): %2").arg(program, process.errorString());
        return false;
    }
    process.waitForFinished(-1);
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("%1 failed: %2")
                     .arg(program, QString::fromLocal8Bit(process.readAllStandardError()).trimmed());
        return false;
    }
    return true;
}

/// The schema a postgres:// URL's `options=-csearch_path=NAME` selects (tests use one schema per store); empty
/// for the default.
QString searchPathSchema(const QString &location)
{
    const QString options = QUrlQuery(QUrl(location)).queryItemValue(QStringLiteral("options"), QUrl::FullyDecoded);
    const qsizetype at = options.indexOf(QLatin1String("search_path="));
    return at < 0 ? QString() : options.mid(at + 12).section(QLatin1Char(' '), 0, 0).section(QLatin1Char(','), 0, 0);
}

} // namespace

namespace DatabaseSnapshot {

bool isPostgres(const QString &location)
{
    return location.startsWith(QLatin1String("postgres://")) || location.startsWith(QLatin1String("postgresql://"));
}

QString sqlitePath(const QString &location)
{
    if (isPostgres(location))
        return QString();
    return location.startsWith(QLatin1String("sqlite:")) ? location.mid(7) : location;
}

bool take(const QString &location, const QString &output, QString *error)
{
    if (isPostgres(location)) {
        QStringList arguments{QStringLiteral("--format=custom"), QStringLiteral("--no-owner"),
                              QStringLiteral("--file=") + output};
        const QString schema = searchPathSchema(location);
        if (!schema.isEmpty())
            arguments.append(QStringLiteral("--schema=") + schema);
        return runPostgresTool(QStringLiteral("pg_dump"), arguments, location, error);
    }
    const SqliteConnection connection(sqlitePath(location), true);
    if (!connection.db().isOpen()) {
        *error = QStringLiteral("cannot open the database %1: %2").arg(location, connection.db().lastError().text());
        return false;
    }
    QSqlQuery query(connection.db());
    QString quoted = output;
    quoted.replace(QLatin1Char('\''), QLatin1String("''"));
    if (!query.exec(QStringLiteral("VACUUM INTO '%1'").arg(quoted))) {
        *error = QStringLiteral("cannot copy the database %1: %2").arg(location, query.lastError().text());
        return false;
    }
    return true;
}

int sqliteSchemaVersion(const QString &path, QString *error)
{
    const SqliteConnection connection(path, true);
    QSqlQuery query(connection.db());
    if (!connection.db().isOpen() ||
        !query.exec(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")) || !query.next()) {
        *error = QStringLiteral("%1 is not a RechargeDesk database: %2").arg(path, query.lastError().text());
        return -1;
    }
    return query.value(0).toInt();
}

QString sqliteIntegrity(const QString &path)
{
    const SqliteConnection connection(path, true);
    QSqlQuery query(connection.db());
    if (!connection.db().isOpen() || !query.exec(QStringLiteral("PRAGMA integrity_check(5)")))
        return query.lastError().text();
    QStringList findings;
    while (query.next())
        findings.append(query.value(0).toString());
    return findings.join(QStringLiteral("; "));
}

bool restorePostgres(const QString &dump, const QString &location, QString *error)
{
    return runPostgresTool(
        QStringLiteral("pg_restore"),
        {QStringLiteral("--single-transaction"), QStringLiteral("--exit-on-error"), QStringLiteral("--no-owner"), dump},
        location, error);
}

} // namespace DatabaseSnapshot
