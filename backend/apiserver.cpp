#include "apiserver.h"

#include "api/healthcontroller.h"
#include "api/salescontroller.h"
#include "api/transactionscontroller.h"
#include "api/walletcontroller.h"
#include "auth/authenticator.h"
#include "http/apirouter.h"
#include "http/limitedtcpserver.h"
#include "services/commitbatcher.h"
#include "services/fulfilment.h"
#include "services/settlementservice.h"
#include "services/transactionservice.h"
#include "services/walletservice.h"

#include <QHttpServer>

struct ApiServer::Parts
{
    Parts(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options)
        : batcher(db), settlements(db, clock),
          transactions(db, batcher, catalog, sandbox, nullptr, settlements, clock, options.settleDelayMs),
          wallets(db, clock), authenticator(db, clock), router(http, authenticator), sales(transactions, catalog),
          transactionsApi(transactions), walletApi(wallets), health(db)
    {
        sales.registerRoutes(router);
        transactionsApi.registerRoutes(router);
        walletApi.registerRoutes(router);
        health.registerRoutes(router);
        // ROUTES (plans) go here
        // ROUTES (aadhaar) go here
        // ROUTES (webhooks) go here
    }

    SandboxFulfilment sandbox;
    CommitBatcher batcher;
    SettlementService settlements;
    TransactionService transactions;
    WalletService wallets;
    Authenticator authenticator;
    QHttpServer http;
    ApiRouter router;
    SalesController sales;
    TransactionsController transactionsApi;
    WalletController walletApi;
    HealthController health;
    // MEMBERS (plans) go here
    // MEMBERS (aadhaar) go here
    // MEMBERS (webhooks) go here
    LimitedTcpServer *tcp = nullptr;
};

ApiServer::ApiServer(Database &db, const OperatorCatalog &catalog, const Clock &clock, const ServerOptions &options,
                     QObject *parent)
    : QObject(parent), m_parts(std::make_unique<Parts>(db, catalog, clock, options)), m_options(options)
{
}

ApiServer::~ApiServer() = default;

bool ApiServer::listen(QString *error)
{
    m_parts->tcp = new LimitedTcpServer(m_options.maxBodyBytes, &m_parts->http);
    if (!m_parts->tcp->listen(m_options.address, m_options.port)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3")
                     .arg(m_options.address.toString())
                     .arg(m_options.port)
                     .arg(m_parts->tcp->errorString());
        return false;
    }
    m_parts->http.bind(m_parts->tcp);
    m_parts->settlements.start();
    return true;
}

quint16 ApiServer::port() const
{
    return m_parts->tcp ? m_parts->tcp->serverPort() : 0;
}

QUrl ApiServer::url() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    const QHostAddress address = m_parts->tcp ? m_parts->tcp->serverAddress() : m_options.address;
    url.setHost(address == QHostAddress::Any || address == QHostAddress::AnyIPv6 ? QStringLiteral("127.0.0.1")
                                                                                   : address.toString());
    url.setPort(port());
    return url;
}

TransactionService &ApiServer::transactions()
{
    return m_parts->transactions;
}

SettlementService &ApiServer::settlements()
{
    return m_parts->settlements;
}

WalletService &ApiServer::wallets()
{
    return m_parts->wallets;
}

Authenticator &ApiServer::authenticator()
{
    return m_parts->authenticator;
}
