#include "testserver.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

ServerOptions TestServer::defaultOptions()
{
    ServerOptions options;
    options.address = QHostAddress::LocalHost;
    options.port = 0;
    options.settleDelayMs = 50;
    // ctest's threads_* variants run an API suite again with HTTP worker threads (issue 17, HttpWorkerPool).
    options.httpThreads = qEnvironmentVariableIntValue("RECHARGEDESK_TEST_HTTP_THREADS");
    options.setupToken = "test-setup-token"; // a terminal's first-run screen may set the shop up
    return options;
}

TestServer::TestServer(ServerOptions options, const Clock *clock)
    : m_dataDirPath(m_store.path()), m_options(std::move(options)), m_clock(clock ? clock : &m_systemClock),
      m_catalog(OperatorCatalog::builtIn())
{
    if (m_options.dataDir.isEmpty())
        m_options.dataDir = m_dataDirPath;
    openDatabase();
    m_admin = createKey(Mode::Test, Scope::Admin);
    m_pos = createKey(Mode::Test, Scope::Pos);
    startServer();
}

void TestServer::openDatabase()
{
    QString error;
    m_db = Database::open(m_store.location(), &error);
    if (!m_db)
        qFatal("test database: %s", qPrintable(error));
}

void TestServer::startServer()
{
    QString error;
    m_server = std::make_unique<ApiServer>(*m_db, m_catalog, *m_clock, m_options);
    if (!m_server->listen(&error))
        qFatal("test server: %s", qPrintable(error));
    // The delivery thread opens its connection (Database::open migrates) a moment after the start: a test that then
    // changed schema_migrations (readyz's "behind") would race it re-applying the migration it removed.
    QDeadlineTimer started(10'000);
    while (!m_server->isDeliveringWebhooks() && !started.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    if (!m_server->isDeliveringWebhooks())
        qFatal("test server: the webhook delivery thread did not start within 10 s");
}

void TestServer::restart()
{
    stop();
    openDatabase();
    startServer();
}

TestServer::~TestServer()
{
    stop();
}

void TestServer::stop()
{
    m_server.reset();
    m_db.reset();
}

QUrl TestServer::url(const QString &path) const
{
    QUrl url = m_server->url();
    url.setPath(path);
    return url;
}

const QByteArray &TestServer::liveAdmin()
{
    if (m_liveAdmin.isEmpty())
        m_liveAdmin = createKey(Mode::Live, Scope::Admin);
    return m_liveAdmin;
}

QByteArray TestServer::createKey(Mode mode, Scope scope, const QString &account)
{
    const CreatedKey key = createKeyPair(mode, scope, account);
    return HttpClient::basic(key.keyId, key.secret);
}

CreatedKey TestServer::createKeyPair(Mode mode, Scope scope, const QString &account)
{
    return ApiKeyService(*m_db, *m_clock).create(account, QStringLiteral("test key"), mode, scope);
}

QStringList TestServer::cellsContaining(const QString &text)
{
    QStringList found;
    const QStringList tables = m_db->connection().tables();
    for (const QString &table : tables) {
        QSqlQuery query(m_db->connection());
        if (!query.exec(QStringLiteral("SELECT * FROM ") + table)) {
            found.append(table + QStringLiteral(" (unreadable)"));
            continue;
        }
        while (query.next()) {
            for (int i = 0; i < query.record().count(); ++i) {
                if (query.value(i).toString().contains(text))
                    found.append(table + QLatin1Char('.') + query.record().fieldName(i));
            }
        }
    }
    if (tables.isEmpty())
        found.append(QStringLiteral("(no tables read)"));
    return found;
}
