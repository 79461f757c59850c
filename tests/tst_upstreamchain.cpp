#include "services/walletservice.h"
#include "support/faultproxy.h"
#include "support/testserver.h"
#include "upstream/upstreamdispatcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <algorithm>
#include <memory>

using Headers = QList<std::pair<QByteArray, QByteArray>>;

/// Live sales through an upstream (issue 11), in one process: a distributor (an ordinary server,
/// its shop account selling with a TEST pos key, so its sandbox outcomes apply) and a shop whose
/// upstream is the distributor. Sells through the shop's live key and checks the final state,
/// the refund (once, only on a definite failure), wallet = ledger on both servers and one sale
/// per reference_id at the distributor. Faults beyond "nobody listens" are the proxy suite's.
class TestUpstreamChain : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kMobile = "/api/v1/recharge/mobile/initiate-transaction";
    static constexpr const char *kPassword = "chain-webhook-password";

    std::unique_ptr<TestServer> m_distributor;
    std::unique_ptr<TestServer> m_shop;
    CreatedKey m_distributorKey; ///< the shop's key at the distributor (test pos)
    QByteArray m_shopLiveAdmin;
    QByteArray m_shopLivePos;

    static HttpResult call(TestServer &server, const QByteArray &method, const QString &path, const QByteArray &key,
                           const QJsonObject &body = {})
    {
        Headers headers{{"Authorization", key}};
        QByteArray payload;
        if (method != "GET") {
            headers.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
            payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
        }
        QUrl url = server.url(path.section(QLatin1Char('?'), 0, 0));
        url.setQuery(path.section(QLatin1Char('?'), 1));
        return server.http().send(method, url, payload, headers);
    }

    static qint64 accountId(TestServer &server)
    {
        QSqlQuery &q = server.db().run(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        return q.next() ? q.value(0).toLongLong() : 0;
    }

    static qint64 scalar(TestServer &server, const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = server.db().run(sql, values);
        return q.next() ? q.value(0).toLongLong() : -1;
    }

    /// Every wallet of the server equals the sum of its ledger.
    static void checkWalletsEqualLedgers(TestServer &server)
    {
        QSqlQuery &q = server.db().run(QStringLiteral(
            "SELECT w.account_id, w.mode, w.balance, (SELECT COALESCE(SUM(amount), 0) FROM wallet_ledger l"
            " WHERE l.account_id = w.account_id AND l.mode = w.mode) FROM wallets w"));
        while (q.next())
            QVERIFY2(q.value(2).toLongLong() == q.value(3).toLongLong(),
                     qPrintable(QStringLiteral("wallet %1/%2: balance %3, ledger %4")
                                    .arg(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                                         q.value(3).toString())));
    }

    QJsonObject mobile(const QString &phone, int amount = 199) const
    {
        return QJsonObject{{QStringLiteral("phone_number"), phone},
                           {QStringLiteral("amount"), amount},
                           {QStringLiteral("operator_code"), QStringLiteral("AT")}};
    }

    HttpResult sell(const QString &phone)
    {
        return call(*m_shop, "POST", QString::fromLatin1(kMobile), m_shopLivePos, mobile(phone));
    }

    QJsonObject shopRecord(qint64 id)
    {
        return call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/%1").arg(id), m_shopLivePos).data();
    }

    QString status(qint64 id) { return shopRecord(id).value(QStringLiteral("transaction_status")).toString(); }

    /// Ledger rows of one shop sale of this kind ("debit", "refund").
    qint64 shopLedgerRows(qint64 id, const char *kind)
    {
        return scalar(*m_shop,
                      QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ? AND kind = ?"),
                      {id, QString::fromLatin1(kind)});
    }

    /// Sends a live mobile initiate on a raw connection of its own and returns without waiting for the answer
    /// (the test reads `client` or drops it). False when the shop cannot be reached.
    bool startLiveSale(QTcpSocket &client, const QJsonObject &sale)
    {
        const QByteArray body = QJsonDocument(sale).toJson(QJsonDocument::Compact);
        client.connectToHost(QHostAddress::LocalHost, m_shop->server().port());
        if (!client.waitForConnected(5000))
            return false;
        client.write(QByteArray("POST ") + kMobile + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + m_shopLivePos +
                     "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                     "\r\n\r\n" + body);
        return true;
    }

    /// The shop's own webhook events (its outbox) for one of its sales.
    qint64 shopWebhookEvents(qint64 id)
    {
        return scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE transaction_id = ?"), {id});
    }

    HttpResult configure(const QString &baseUrl)
    {
        return call(*m_shop, "PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
                    QJsonObject{{QStringLiteral("base_url"), baseUrl},
                                {QStringLiteral("key_id"), m_distributorKey.keyId},
                                {QStringLiteral("key_secret"), m_distributorKey.secret},
                                {QStringLiteral("webhook_password"), QString::fromLatin1(kPassword)}});
    }

    /// The distributor behind a FaultProxy, configured as the shop's upstream while the proxy passes everything:
    /// the shop reads the distributor's offers (a RechargeDesk upstream: re-sends and status checks allowed) before
    /// the test turns the fault on. Null (with a failed check) when the proxy cannot listen.
    std::unique_ptr<FaultProxy> rechargeDeskBehindProxy()
    {
        auto proxy = std::make_unique<FaultProxy>(QHostAddress::LocalHost, m_distributor->server().port());
        QString error;
        if (!proxy->listen(&error)) {
            qWarning("proxy: %s", qPrintable(error));
            return nullptr;
        }
        const HttpResult set = configure(proxy->url().toString() + QStringLiteral("/api/v1"));
        if (set.status != 200 || set.data().value(QStringLiteral("kind")).toString() != QLatin1String("rechargedesk")) {
            qWarning("configure: %d %s", set.status, set.body.constData());
            return nullptr;
        }
        return proxy;
    }

    /// An upstream address nobody listens on: every call is refused, so every outcome is unknown.
    static QString deadUrl()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return QStringLiteral("http://127.0.0.1:1/api/v1");
        return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(probe.serverPort());
    }

    void checkChainInvariants()
    {
        checkWalletsEqualLedgers(*m_shop);
        checkWalletsEqualLedgers(*m_distributor);
        // At most one distributor sale per reference_id, and one for each shop sale sent.
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM (SELECT reference_id FROM transactions"
                                                       " WHERE reference_id LIKE 'rd-%' GROUP BY reference_id"
                                                       " HAVING COUNT(*) > 1) dup")),
                 0);
    }

private slots:
    void init()
    {
        m_distributor = std::make_unique<TestServer>();
        m_distributorKey = m_distributor->createKeyPair(Mode::Test, Scope::Pos);
        WalletService(m_distributor->db(), SystemClock())
            .topup(accountId(*m_distributor), Mode::Test, 500'000 * 100, QStringLiteral("float"),
                   QStringLiteral("tests"));
        // The distributor tells the shop about PENDING sales at its /hooks/upstream.
        const QByteArray distributorAdmin = m_distributor->admin();
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        options.upstreamRetryScale = 0.01;
        m_shop = std::make_unique<TestServer>(options);
        m_shopLiveAdmin = m_shop->createKey(Mode::Live, Scope::Admin);
        m_shopLivePos = m_shop->createKey(Mode::Live, Scope::Pos);
        WalletService(m_shop->db(), SystemClock())
            .topup(accountId(*m_shop), Mode::Live, 10'000 * 100, QStringLiteral("float"), QStringLiteral("tests"));
        const HttpResult hook =
            call(*m_distributor, "PUT", QStringLiteral("/api/v1/webhook-endpoint"), distributorAdmin,
                 QJsonObject{{QStringLiteral("url"), m_shop->url(QStringLiteral("/hooks/upstream")).toString()},
                             {QStringLiteral("webhook_password"), QString::fromLatin1(kPassword)}});
        QVERIFY2(hook.status == 200 || hook.status == 201, hook.body.constData());
    }

    void cleanup()
    {
        m_shop.reset();
        m_distributor.reset();
    }

    void withoutUpstreamLiveSalesAnswer503WithHowTo()
    {
        const HttpResult r = sell(QStringLiteral("9876543210"));
        QCOMPARE(r.status, 503);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("no_live_provider"));
        QVERIFY(r.error().value(QStringLiteral("description")).toString().contains(QStringLiteral("upstream set")));
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM transactions")), 0);
    }

    void sandboxOutcomesArriveAtTheShop_data()
    {
        QTest::addColumn<QString>("phone");
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("final");
        QTest::newRow("success") << "9876543210"
                                 << "SUCCESS"
                                 << "SUCCESS";
        QTest::newRow("failed 0000") << "9876540000"
                                     << "FAILED"
                                     << "FAILED";
        QTest::newRow("pending then success 1111") << "9876541111"
                                                   << "PENDING"
                                                   << "SUCCESS";
        QTest::newRow("pending then failed 2222") << "9876542222"
                                                  << "PENDING"
                                                  << "FAILED";
    }

    void sandboxOutcomesArriveAtTheShop()
    {
        QFETCH(QString, phone);
        QFETCH(QString, first);
        QFETCH(QString, final);
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const qint64 shopBefore = scalar(*m_shop, QStringLiteral("SELECT balance FROM wallets WHERE mode = 'live'"));

        const HttpResult r = sell(phone);
        QCOMPARE(r.status, 200);
        const QJsonObject record = r.data();
        const qint64 id = record.value(QStringLiteral("transaction_id")).toInteger();
        const Paise paid = Money::parse(record.value(QStringLiteral("paid")).toString()).value_or(-1);
        QVERIFY(paid > 0);
        QCOMPARE(record.value(QStringLiteral("transaction_status")).toString(), first);
        const QJsonObject upstream = record.value(QStringLiteral("upstream")).toObject();
        const QString referenceId = upstream.value(QStringLiteral("reference_id")).toString();
        QVERIFY2(referenceId.startsWith(QStringLiteral("rd-")) && referenceId.endsWith(QStringLiteral("-%1").arg(id)),
                 qPrintable(referenceId));
        QCOMPARE(upstream.value(QStringLiteral("state")).toString(),
                 first == QLatin1String("PENDING") ? QStringLiteral("pending") : QStringLiteral("settled"));

        if (first == QLatin1String("PENDING")) {
            // Issue 27: a status check that waits (a long poll) is answered by the distributor's webhook ending the
            // sale at the shop, not by its wait running out.
            QUrl waiting = m_shop->url(QStringLiteral("/api/v1/transactions/%1").arg(id));
            waiting.setQuery(QUrlQuery{{QStringLiteral("wait_s"), QStringLiteral("10")}});
            const HttpResult waited = m_shop->http().get(waiting, m_shopLivePos);
            QCOMPARE(waited.status, 200);
            QCOMPARE(waited.data().value(QStringLiteral("transaction_status")).toString(), final);
        }
        QTRY_COMPARE_WITH_TIMEOUT(status(id), final, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            shopRecord(id).value(QStringLiteral("upstream")).toObject().value(QStringLiteral("state")).toString(),
            QStringLiteral("settled"), 10000);
        // The shop's own webhook (committed with the end): one for an end its client learns later, none when the
        // initiate answer already carried it — as for a sandbox sale (api-v1.md, Events: a move out of PENDING).
        QCOMPARE(shopWebhookEvents(id), first == QLatin1String("PENDING") ? 1 : 0);
        // The distributor holds exactly one sale for it, in the same final state.
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = ?"),
                        {referenceId}),
                 1);
        QCOMPARE(scalar(*m_distributor,
                        QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = ? AND status = ?"),
                        {referenceId, final}),
                 1);
        // Refunded once on a failure, never on a success.
        QCOMPARE(shopLedgerRows(id, "debit"), 1);
        QCOMPARE(shopLedgerRows(id, "refund"), final == QLatin1String("FAILED") ? 1 : 0);
        const qint64 shopAfter = scalar(*m_shop, QStringLiteral("SELECT balance FROM wallets WHERE mode = 'live'"));
        QCOMPARE(shopAfter, final == QLatin1String("FAILED") ? shopBefore : shopBefore - paid);
        // Every call is on record.
        const HttpResult calls =
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id), m_shopLiveAdmin);
        QCOMPARE(calls.status, 200);
        const QJsonArray items = calls.data().value(QStringLiteral("items")).toArray();
        QVERIFY(!items.isEmpty());
        QCOMPARE(items.first().toObject().value(QStringLiteral("endpoint")).toString(),
                 QStringLiteral("/recharge/mobile/initiate-transaction"));
        QCOMPARE(items.first().toObject().value(QStringLiteral("http_status")).toInt(), 200);
        checkChainInvariants();
        // Health seen from real calls.
        QCOMPARE(call(*m_shop, "GET", QStringLiteral("/api/v1/upstream"), m_shopLivePos)
                     .data()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("online"));
    }

    void vouchersAndDthGoThroughTheUpstream_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("final");
        const QString voucher = QStringLiteral("/api/v1/voucher/appstore/initiate-transaction");
        const QString dth = QStringLiteral("/api/v1/recharge/dth/initiate-transaction");
        const auto email = [](const QString &address) {
            return QJsonObject{{QStringLiteral("amount"), 100}, {QStringLiteral("customer_email"), address}};
        };
        QTest::newRow("voucher") << voucher << email(QStringLiteral("asha@example.com")) << "SUCCESS";
        QTest::newRow("voucher +pending") << voucher << email(QStringLiteral("asha+pending@example.com")) << "SUCCESS";
        QTest::newRow("voucher +failed") << voucher << email(QStringLiteral("asha+failed@example.com")) << "FAILED";
        QTest::newRow("dth Tata Play") << dth
                                       << QJsonObject{{QStringLiteral("number"), QStringLiteral("1012345678")},
                                                      {QStringLiteral("amount"), 300},
                                                      {QStringLiteral("operator_code"), QStringLiteral("TS")}}
                                       << "SUCCESS";
    }

    void vouchersAndDthGoThroughTheUpstream()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QString, final);
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const HttpResult r = call(*m_shop, "POST", path, m_shopLivePos, body);
        QCOMPARE(r.status, 200);
        const qint64 id = r.data().value(QStringLiteral("transaction_id")).toInteger();
        QTRY_COMPARE_WITH_TIMEOUT(status(id), final, 10000);
        const QString referenceId = shopRecord(id)
                                        .value(QStringLiteral("upstream"))
                                        .toObject()
                                        .value(QStringLiteral("reference_id"))
                                        .toString();
        QSqlQuery &q = m_distributor->db().run(
            QStringLiteral("SELECT redeem_code, status FROM transactions WHERE reference_id = ?"), {referenceId});
        QVERIFY(q.next());
        const QString distributorCode = q.value(0).toString();
        QCOMPARE(q.value(1).toString(), final);
        q.finish();
        // A voucher's code is the one the distributor issued, not one the shop made up.
        QCOMPARE(shopRecord(id).value(QStringLiteral("redeem_code")).toString(), distributorCode);
        QCOMPARE(shopLedgerRows(id, "refund"), final == QLatin1String("FAILED") ? 1 : 0);
        checkChainInvariants();
    }

    void unreachableUpstreamKeepsTheSalePendingAndResendsTheSameRequest()
    {
        // The distributor cut off: every connection closes at once, so the outcome is unknown.
        const std::unique_ptr<FaultProxy> proxy = rechargeDeskBehindProxy();
        QVERIFY(proxy);
        proxy->setMode(FaultProxy::Mode::Down);
        const HttpResult r = sell(QStringLiteral("9876543210"));
        QCOMPARE(r.status, 200);
        const qint64 id = r.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QCOMPARE(r.data().value(QStringLiteral("upstream")).toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("unknown"));
        // Retried with backoff, never refunded on a guess.
        QTRY_VERIFY_WITH_TIMEOUT(
            shopRecord(id).value(QStringLiteral("upstream")).toObject().value(QStringLiteral("attempts")).toInt() >= 3,
            10000);
        QCOMPARE(status(id), QStringLiteral("PENDING"));
        QCOMPARE(shopLedgerRows(id, "refund"), 0);
        const QJsonObject view = call(*m_shop, "GET", QStringLiteral("/api/v1/upstream"), m_shopLivePos).data();
        QCOMPARE(view.value(QStringLiteral("state")).toString(), QStringLiteral("unreachable"));
        QCOMPARE(view.value(QStringLiteral("unknown_sales")).toInt(), 1);
        // History filter, its totals and the day-end count see it apart.
        const HttpResult listed =
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions?upstream_state=unknown"), m_shopLivePos);
        QCOMPARE(listed.status, 200);
        QCOMPARE(listed.data().value(QStringLiteral("items")).toArray().size(), 1);
        QCOMPARE(
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/summary?upstream_state=unknown"), m_shopLivePos)
                .data()
                .value(QStringLiteral("count"))
                .toInt(),
            1);
        QCOMPARE(call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/summary?upstream_state=unknown&q=98765"),
                      m_shopLivePos)
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 1);
        const HttpResult bad =
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions?upstream_state=pending"), m_shopLivePos);
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.error().value(QStringLiteral("field")).toString(), QStringLiteral("upstream_state"));
        const QJsonObject dayEnd = call(*m_shop, "GET", QStringLiteral("/api/v1/reports/day-end"), m_shopLiveAdmin)
                                       .data()
                                       .value(QStringLiteral("unknown_at_upstream"))
                                       .toObject();
        QCOMPARE(dayEnd.value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(dayEnd.value(QStringLiteral("paid")).toString(),
                 shopRecord(id).value(QStringLiteral("paid")).toString());
        // A test-mode sale is never in that list.
        QCOMPARE(call(*m_shop, "GET", QStringLiteral("/api/v1/transactions?upstream_state=unknown"), m_shop->pos())
                     .data()
                     .value(QStringLiteral("items"))
                     .toArray()
                     .size(),
                 0);

        // A recheck asks again at once and answers the record afterwards.
        const int attemptsBefore =
            shopRecord(id).value(QStringLiteral("upstream")).toObject().value(QStringLiteral("attempts")).toInt();
        const HttpResult recheck =
            call(*m_shop, "POST", QStringLiteral("/api/v1/transactions/%1/upstream-recheck").arg(id), m_shopLivePos);
        QCOMPARE(recheck.status, 200);
        QCOMPARE(recheck.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        QVERIFY(recheck.data().value(QStringLiteral("upstream")).toObject().value(QStringLiteral("attempts")).toInt() >
                attemptsBefore);

        // The upstream comes back (here: the right address): the same reference_id sells once.
        const QString referenceId = shopRecord(id)
                                        .value(QStringLiteral("upstream"))
                                        .toObject()
                                        .value(QStringLiteral("reference_id"))
                                        .toString();
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("SUCCESS"), 15000);
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = ?"),
                        {referenceId}),
                 1);
        QCOMPARE(shopLedgerRows(id, "refund"), 0);
        QCOMPARE(
            call(*m_shop, "POST", QStringLiteral("/api/v1/transactions/%1/upstream-recheck").arg(id), m_shopLivePos)
                .status,
            409);
        QCOMPARE(call(*m_shop, "GET", QStringLiteral("/api/v1/transactions?upstream_state=unknown"), m_shopLivePos)
                     .data()
                     .value(QStringLiteral("items"))
                     .toArray()
                     .size(),
                 0);
        checkChainInvariants();
    }

    void withoutWebhooksPollingSettlesPendingSales()
    {
        // A shop behind NAT: the distributor's webhooks never arrive; the status check must settle.
        const HttpResult hook = call(
            *m_distributor, "PUT", QStringLiteral("/api/v1/webhook-endpoint"), m_distributor->admin(),
            QJsonObject{{QStringLiteral("url"), deadUrl().replace(QStringLiteral("/api/v1"), QStringLiteral("/hooks"))},
                        {QStringLiteral("webhook_password"), QString::fromLatin1(kPassword)}});
        QVERIFY2(hook.status == 200 || hook.status == 201, hook.body.constData());
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        const qint64 id = sell(QStringLiteral("9876542222")).data().value(QStringLiteral("transaction_id")).toInteger();
        QTRY_COMPARE_WITH_TIMEOUT(status(id), QStringLiteral("FAILED"), 10000);
        QCOMPARE(shopLedgerRows(id, "refund"), 1);
        const QJsonArray calls =
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id), m_shopLiveAdmin)
                .data()
                .value(QStringLiteral("items"))
                .toArray();
        QCOMPARE(calls.last().toObject().value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
        QVERIFY(calls.last()
                    .toObject()
                    .value(QStringLiteral("endpoint"))
                    .toString()
                    .startsWith(QStringLiteral("/transactions/")));
        QCOMPARE(calls.last().toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("FAILED"));
        checkChainInvariants();
    }

    void badGatewayIsUnknownNeverARefusal()
    {
        // An upstream that answers every call with 502: the outcome is unknown, nothing is refunded.
        const std::unique_ptr<FaultProxy> proxy = rechargeDeskBehindProxy();
        QVERIFY(proxy);
        proxy->setMode(FaultProxy::Mode::Answer502);
        const HttpResult r = sell(QStringLiteral("9876540000")); // would FAIL at the distributor: must not matter
        QCOMPARE(r.status, 200);
        const qint64 id = r.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        const QJsonObject upstream = r.data().value(QStringLiteral("upstream")).toObject();
        QCOMPARE(upstream.value(QStringLiteral("state")).toString(), QStringLiteral("unknown"));
        QCOMPARE(upstream.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
                 QStringLiteral("http_502"));
        QTRY_VERIFY_WITH_TIMEOUT(
            shopRecord(id).value(QStringLiteral("upstream")).toObject().value(QStringLiteral("attempts")).toInt() >= 3,
            10000);
        QCOMPARE(status(id), QStringLiteral("PENDING"));
        QCOMPARE(shopLedgerRows(id, "refund"), 0);
        const QJsonArray calls =
            call(*m_shop, "GET", QStringLiteral("/api/v1/transactions/%1/upstream-calls").arg(id), m_shopLiveAdmin)
                .data()
                .value(QStringLiteral("items"))
                .toArray();
        QVERIFY(calls.size() >= 3);
        QCOMPARE(calls.first().toObject().value(QStringLiteral("http_status")).toInt(), 502);
        QCOMPARE(calls.first().toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("unknown"));
        checkWalletsEqualLedgers(*m_shop);
    }

    void definiteRefusalFailsTheSaleWithRefundAndKeepsTheUpstreamError()
    {
        QCOMPARE(configure(m_distributor->url(QStringLiteral("/api/v1")).toString()).status, 200);
        // The distributor's wallet for this shop is empty: it answers 402.
        m_distributor->db().run(QStringLiteral("UPDATE wallets SET balance = 0 WHERE mode = 'test'"));
        m_distributor->db().run(QStringLiteral("DELETE FROM wallet_ledger WHERE mode = 'test'"));
        const HttpResult r = sell(QStringLiteral("9876543210"));
        QCOMPARE(r.status, 200);
        const qint64 id = r.data().value(QStringLiteral("transaction_id")).toInteger();
        QCOMPARE(r.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        const QJsonObject upstream = r.data().value(QStringLiteral("upstream")).toObject();
        QCOMPARE(upstream.value(QStringLiteral("state")).toString(), QStringLiteral("refused"));
        QCOMPARE(upstream.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
                 QStringLiteral("insufficient_balance"));
        QCOMPARE(shopLedgerRows(id, "refund"), 1);
        checkChainInvariants();
    }

    void clientGoneBeforeTheUpstreamAnswers()
    {
        // An upstream that takes the call and never answers: the shop's initiate waits until its time limit.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        std::vector<std::unique_ptr<QTcpSocket>> held;
        connect(&silent, &QTcpServer::newConnection, &silent, [&silent, &held] {
            while (QTcpSocket *s = silent.nextPendingConnection())
                held.emplace_back(s);
        });
        QCOMPARE(configure(QStringLiteral("http://127.0.0.1:%1/api/v1").arg(silent.serverPort())).status, 200);
        held.clear(); // the shop's read of the upstream's offers (never answered): not the sale's call
        QTcpSocket client;
        QVERIFY(startLiveSale(client, mobile(QStringLiteral("9876543210"))));
        const auto requested = [&held] {
            return std::any_of(held.cbegin(), held.cend(), [](const auto &s) { return s->bytesAvailable() > 0; });
        };
        QTRY_VERIFY(requested()); // the shop's call is at the upstream: its client waits
        client.abort();
        // The shop's time limit ends the wait and the call; the answer for the client that left must be dropped,
        // not written to the connection QHttpServer deleted meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(scalar(*m_shop, QStringLiteral("SELECT COUNT(*) FROM upstream_calls")) >= 1, 15000);
        QCOMPARE(call(*m_shop, "GET", QStringLiteral("/healthz"), QByteArray()).status, 200);
        const qint64 id = scalar(*m_shop, QStringLiteral("SELECT MAX(id) FROM transactions WHERE mode = 'live'"));
        QCOMPARE(status(id), QStringLiteral("PENDING")); // unknown outcome: kept, not refunded
        QCOMPARE(shopLedgerRows(id, "refund"), 0);
    }

    void replayAnsweredPendingWhileWaitingGetsTheWebhook()
    {
        // The distributor answers slowly; meanwhile the same sale is sent again with its reference_id and that
        // client is told PENDING. The first client then gets the final record, but the second one learns the end
        // only by webhook: it must be posted although the initiate answer carried the end.
        FaultProxy proxy(QHostAddress::LocalHost, m_distributor->server().port());
        QString error;
        QVERIFY2(proxy.listen(&error), qPrintable(error));
        QCOMPARE(configure(proxy.url().toString() + QStringLiteral("/api/v1")).status, 200);
        proxy.setMode(FaultProxy::Mode::Slow, 1500);
        QJsonObject sale = mobile(QStringLiteral("9876543210"));
        sale.insert(QStringLiteral("reference_id"), QStringLiteral("till-7-0042"));
        QTcpSocket first;
        QVERIFY(startLiveSale(first, sale));
        QTRY_COMPARE(proxy.count(FaultProxy::Mode::Slow), 1); // the first client waits for the upstream

        const HttpResult again = call(*m_shop, "POST", QString::fromLatin1(kMobile), m_shopLivePos, sale);
        QCOMPARE(again.status, 200);
        QCOMPARE(again.data().value(QStringLiteral("transaction_status")).toString(), QStringLiteral("PENDING"));
        const qint64 id = again.data().value(QStringLiteral("transaction_id")).toInteger();

        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += first.readAll()).contains(R"("transaction_status":"SUCCESS")"), 10000);
        QCOMPARE(status(id), QStringLiteral("SUCCESS"));
        QCOMPARE(shopWebhookEvents(id), 1);
        checkChainInvariants();
    }

    void testModeRecordsKeepTodaysFields()
    {
        const HttpResult r =
            call(*m_shop, "POST", QString::fromLatin1(kMobile), m_shop->pos(), mobile(QStringLiteral("9876543210")));
        QCOMPARE(r.status, 200);
        QVERIFY(!r.data().contains(QStringLiteral("upstream")));
    }

    void restartResumesUnknownSales_data()
    {
        QTest::addColumn<QString>("state");
        QTest::newRow("a call on the wire") << QStringLiteral("sent");
        // The first call is made without a commit of its own: `queued` may have been sent already.
        QTest::newRow("queued, first call maybe sent") << QStringLiteral("queued");
    }
    void restartResumesUnknownSales()
    {
        QFETCH(QString, state);
        // A RechargeDesk upstream (it promised that the same reference_id is one sale), cut off while selling.
        const std::unique_ptr<FaultProxy> proxy = rechargeDeskBehindProxy();
        QVERIFY(proxy);
        proxy->setMode(FaultProxy::Mode::Down);
        const qint64 id = sell(QStringLiteral("9876543210")).data().value(QStringLiteral("transaction_id")).toInteger();
        QVERIFY(id > 0);
        // Point the stored settings at the distributor behind the running server's back, stop it and
        // start a new server on the same database: it must pick the sale up from the table.
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        options.upstreamRetryScale = 0.01;
        options.dataDir = m_shop->dataDir();
        const QString location = m_shop->store().location();
        // Straight into the table (no event loop turn, so the running server cannot send meanwhile); the
        // sale looks as if a call was on the wire when the server stopped, its lease an hour away.
        m_shop->db().run(QStringLiteral("UPDATE upstreams SET base_url = ?"),
                         {m_distributor->url(QStringLiteral("/api/v1")).toString()});
        m_shop->db().run(QStringLiteral("UPDATE upstream_sales SET state = ?, attempts = 0, next_attempt_at = ?"),
                         {state, QDateTime::currentMSecsSinceEpoch() + 3'600'000});
        m_shop->stop();
        QString error;
        std::unique_ptr<Database> db = Database::open(location, &error);
        QVERIFY2(db, qPrintable(error));
        SystemClock clock;
        const OperatorCatalog catalog = OperatorCatalog::builtIn();
        ApiServer restarted(*db, catalog, clock, options);
        QVERIFY2(restarted.listen(&error), qPrintable(error));
        const auto statusOf = [&db, id] {
            QSqlQuery &q = db->run(QStringLiteral("SELECT status FROM transactions WHERE id = ?"), {id});
            return q.next() ? q.value(0).toString() : QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(), QStringLiteral("SUCCESS"), 15000);
        QSqlQuery &q =
            db->run(QStringLiteral("SELECT reference_id FROM upstream_sales WHERE transaction_id = ?"), {id});
        QVERIFY(q.next());
        const QString referenceId = q.value(0).toString();
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM transactions WHERE reference_id = ?"),
                        {referenceId}),
                 1);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamChain)
#include "tst_upstreamchain.moc"
