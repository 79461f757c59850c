#include "serverhost.h"

#include "clock.h"
#include "operatorcatalog.h"
#include "store/database.h"

ServerHost::ServerHost(QString databaseLocation, ServerOptions options, QObject *parent)
    : QThread(parent), m_location(std::move(databaseLocation)), m_options(std::move(options))
{
    setObjectName(QStringLiteral("api-server"));
}

ServerHost::~ServerHost()
{
    quit();
    wait();
}

bool ServerHost::startAndWait(QString *error)
{
    start();
    m_started.acquire();
    if (!m_error.isEmpty()) {
        *error = m_error;
        wait();
        return false;
    }
    return true;
}

void ServerHost::run()
{
    QString error;
    std::unique_ptr<Database> db = Database::open(m_location, &error);
    if (!db) {
        m_error = error;
        m_started.release();
        return;
    }
    SystemClock clock;
    const OperatorCatalog catalog = OperatorCatalog::builtIn();
    ApiServer server(*db, catalog, clock, m_options);
    if (!server.listen(&error)) {
        m_error = error;
        m_started.release();
        return;
    }
    m_url = server.url();
    m_started.release();
    exec();
}
