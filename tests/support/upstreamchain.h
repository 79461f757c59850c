#pragma once

#include "faultproxy.h"
#include "httpclient.h"
#include "serverprocess.h"
#include "teststore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <memory>

/// A shop selling live through its upstream, as two real `rechargedesk serve` processes (issue 11, "Tests"):
///
///   test client --live key--> SHOP --FaultProxy--> DISTRIBUTOR (test mode: its sandbox outcomes)
///                             SHOP <--webhooks (/hooks/upstream)-- DISTRIBUTOR
///
/// Each server has its own TestStore (an SQLite file, or its own PostgreSQL schema under RECHARGEDESK_TEST_PG). The
/// distributor serves the shop's account "kirana" with a TEST pos key; its test webhook endpoint for that account is
/// the shop's /hooks/upstream with a password (set through the distributor's API each time the shop starts). The shop's
/// upstream (`rechargedesk upstream set`) is the proxy's URL with that key; the shop has a LIVE pos key, a LIVE admin
/// key, a TEST pos key and a funded live wallet.
class UpstreamChain
{
public:
    struct Options
    {
        int upstreamTimeoutMs = 2000;                           ///< shop: serve --upstream-timeout-ms
        QString upstreamRetryScale = QStringLiteral("0.01");    ///< shop: serve --upstream-retry-scale
        int distributorSettleDelayMs = 600;                     ///< distributor: sandbox PENDING -> final
        QString shopLiveFloatRupees = QStringLiteral("100000"); ///< shop: live wallet top-up
        QStringList shopArguments;                              ///< shop: more serve options (e.g. --lease-seconds)
    };

    /// The account name of the shop at the distributor.
    static QString distributorAccount() { return QStringLiteral("kirana"); }
    /// The webhook_password shared by the distributor's endpoint and the shop's upstream settings.
    static QString webhookPassword() { return QStringLiteral("chain-hook-password"); }

    UpstreamChain();
    explicit UpstreamChain(Options options);
    ~UpstreamChain();

    /// Creates the keys and settings, starts the distributor, the proxy and the shop. False with *error (the
    /// failing command and its output) on any failure.
    bool start(QString *error);

    FaultProxy &proxy() { return *m_proxy; }
    HttpClient &http() { return m_http; }
    const TestStore &shopStore() const { return m_shopStore; }
    const TestStore &distributorStore() const { return m_distributorStore; }
    /// http://127.0.0.1:<port> + path of each server.
    QUrl shopUrl(const QString &path) const;
    QUrl distributorUrl(const QString &path) const;

    /// Authorization header values.
    const QByteArray &shopLive() const { return m_shopLive; }
    const QByteArray &shopLiveAdmin() const { return m_shopLiveAdmin; }
    const QByteArray &shopTest() const { return m_shopTest; }
    const QByteArray &distributorAdmin() const { return m_distributorAdmin; } ///< test admin of "kirana"
    /// The shop's key at the distributor (what `upstream set` was given).
    const QString &upstreamKeyId() const { return m_upstreamKeyId; }
    /// The file holding that key's secret (given to `upstream set --key-secret-file`).
    QString upstreamSecretFile() const { return m_shopStore.filePath(QStringLiteral("upstream-key-secret")); }
    /// The shop's upstream URL: the proxy's, ending in /api/v1.
    QUrl upstreamUrl() const;

    /// POST path (e.g. "/api/v1/recharge/mobile/initiate-transaction") at the shop with `key` (default: live pos).
    HttpResult sell(const QString &path, const QJsonObject &body, const QByteArray &key = {});
    /// The shop's record of a sale (GET /api/v1/transactions/{id} with the live pos key); empty when unreadable.
    QJsonObject shopSale(qint64 transactionId);
    /// The distributor's sales of the shop's account with this reference_id (GET /api/v1/transactions?reference_id=).
    /// Never more than one when the chain is right.
    QJsonArray distributorSales(const QString &referenceId);
    /// shopSale(id)["upstream"]["reference_id"].
    QString upstreamReference(qint64 shopTransactionId);
    /// Empty when, in both databases, every wallet equals the sum of its ledger and every sale has one debit of
    /// `paid`, nets to zero when FAILED (refunded once) and to -paid otherwise; else what is wrong.
    QString ledgerProblems() const;
    /// Payloads (transaction records) of the live webhook events the shop queued for one of its sales, oldest first.
    QList<QJsonObject> shopWebhookPayloads(qint64 shopTransactionId) const;
    /// Rows of a one-column query on a read-only connection to the shop's database (for counts and states).
    qint64 shopScalar(const QString &sql) const;

    /// kill -9 the shop (no cleanup).
    void killShop();
    /// Starts the shop again on the same data directory and database, and points the distributor's webhook
    /// endpoint at its new port.
    bool startShop(QString *error);
    enum class Side
    {
        Shop,
        Distributor
    };
    /// Runs a `rechargedesk` command on one side's store (its --data-dir/--database appended), e.g. while that
    /// server runs. False with *error (the command and its output) when it exits non-zero.
    bool runCli(Side side, const QStringList &arguments, QString *error) const;
    /// stdout and stderr the shop printed since the last call (for failure messages).
    QString shopOutput() { return m_shop.readOutput(); }
    QString distributorOutput() { return m_distributor.readOutput(); }

private:
    bool cli(const TestStore &store, const QStringList &arguments, QString *output, QString *error) const;
    bool createKey(const TestStore &store, const QStringList &options, QString *keyId, QString *secret,
                   QString *error) const;

    Options m_options;
    TestStore m_distributorStore;
    TestStore m_shopStore;
    ServerProcess m_distributor;
    ServerProcess m_shop;
    std::unique_ptr<FaultProxy> m_proxy;
    HttpClient m_http;
    QByteArray m_shopLive;
    QByteArray m_shopLiveAdmin;
    QByteArray m_shopTest;
    QByteArray m_distributorAdmin;
    QString m_upstreamKeyId;
};
