#include "teststore.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>

namespace {

/// The database the PG* variables name (PGDATABASE, default "postgres") as a postgres:// URL; a unix-socket
/// PGHOST goes in ?host=, and a `schema` becomes the connection's search_path (libpq's `options`) and its
/// application_name (so terminateSessions() finds this store's sessions only).
QUrl serverUrl(const QString &schema = {})
{
    QUrl url;
    url.setScheme(QStringLiteral("postgres"));
    const QString host = qEnvironmentVariable("PGHOST", QStringLiteral("localhost"));
    QUrlQuery query;
    if (host.startsWith(QLatin1Char('/'))) {
        url.setHost(QStringLiteral("localhost"));
        query.addQueryItem(QStringLiteral("host"), host);
    } else {
        url.setHost(host);
    }
    if (!schema.isEmpty()) {
        query.addQueryItem(QStringLiteral("options"), QStringLiteral("-csearch_path=") + schema);
        query.addQueryItem(QStringLiteral("application_name"), schema);
    }
    url.setQuery(query);
    bool ok = false;
    const int port = qEnvironmentVariableIntValue("PGPORT", &ok);
    if (ok)
        url.setPort(port);
    url.setUserName(qEnvironmentVariable("PGUSER"));
    url.setPassword(qEnvironmentVariable("PGPASSWORD"));
    url.setPath(QLatin1Char('/') + qEnvironmentVariable("PGDATABASE", QStringLiteral("postgres")));
    return url;
}

/// A QPSQL connection named `name` to the database of `url` (not yet opened).
QSqlDatabase addPostgres(const QString &name, const QUrl &url)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    const QUrlQuery query(url);
    db.setHostName(query.hasQueryItem(QStringLiteral("host")) ? query.queryItemValue(QStringLiteral("host"))
                                                              : url.host());
    if (query.hasQueryItem(QStringLiteral("options")))
        db.setConnectOptions(QStringLiteral("options=") +
                             query.queryItemValue(QStringLiteral("options"), QUrl::FullyDecoded));
    if (url.port() > 0)
        db.setPort(url.port());
    db.setUserName(url.userName());
    db.setPassword(url.password());
    db.setDatabaseName(url.path().mid(1));
    return db;
}

/// Runs `sql` on a short-lived connection to the maintenance database (PGDATABASE, default "postgres").
void administer(const QString &sql)
{
    static QAtomicInteger<quint64> counter;
    const QString name = QStringLiteral("teststore-admin-%1").arg(counter.fetchAndAddRelaxed(1));
    {
        const QUrl url = serverUrl();
        QSqlDatabase db = addPostgres(name, url);
        if (!db.open())
            qFatal("TestStore: cannot reach the PostgreSQL server named by the PG* variables (%s): %s",
                   qPrintable(url.toString(QUrl::RemovePassword)), qPrintable(db.lastError().text()));
        QSqlQuery query(db);
        query.exec(QStringLiteral("SET client_min_messages = warning")); // no NOTICE per table a DROP cascades to
        if (!query.exec(sql))
            qFatal("TestStore: \"%s\" failed: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    }
    QSqlDatabase::removeDatabase(name);
}

} // namespace

bool TestStore::postgres()
{
    const QByteArray value = qgetenv("RECHARGEDESK_TEST_PG");
    return !value.isEmpty() && value != "0";
}

TestStore::TestStore()
{
    if (!postgres()) {
        m_location = m_dir.filePath(QStringLiteral("rechargedesk.db"));
        return;
    }
    static QAtomicInteger<quint64> counter;
    m_pgSchema = QStringLiteral("rechargedesk_test_%1_%2_%3")
                     .arg(QCoreApplication::applicationPid())
                     .arg(counter.fetchAndAddRelaxed(1))
                     .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
    administer(QStringLiteral("CREATE SCHEMA ") + m_pgSchema);
    m_location = serverUrl(m_pgSchema).toString();
}

TestStore::~TestStore()
{
    if (!m_pgSchema.isEmpty())
        administer(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(m_pgSchema));
}

void TestStore::terminateSessions() const
{
    if (!m_pgSchema.isEmpty())
        administer(QStringLiteral("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                                  " WHERE application_name = '%1'")
                       .arg(m_pgSchema));
}

QStringList TestStore::arguments() const
{
    QStringList arguments{QStringLiteral("--data-dir"), path()};
    if (!m_pgSchema.isEmpty())
        arguments << QStringLiteral("--database") << m_location;
    return arguments;
}

QSqlDatabase TestStore::openReadOnly(const QString &connectionName) const
{
    if (m_pgSchema.isEmpty()) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName);
        db.setDatabaseName(m_location);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        db.open();
        return db;
    }
    QSqlDatabase db = addPostgres(connectionName, QUrl(m_location));
    if (db.open())
        QSqlQuery(db).exec(QStringLiteral("SET default_transaction_read_only = on"));
    return db;
}

qint64 TestStore::scalar(const QString &sql) const
{
    const QString name = QStringLiteral("teststore-scalar");
    qint64 value = -999;
    {
        QSqlDatabase db = openReadOnly(name);
        QSqlQuery query(db);
        if (db.isOpen() && query.exec(sql) && query.next())
            value = query.value(0).toLongLong();
        else
            qWarning("%s: %s %s", qPrintable(sql), qPrintable(db.lastError().text()),
                     qPrintable(query.lastError().text()));
    }
    QSqlDatabase::removeDatabase(name);
    return value;
}
