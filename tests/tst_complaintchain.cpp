// Issue 29, complaints through a shop → distributor chain of two real servers in this process (the distributor
// serves the shop's account with a test key, so its sandbox applies there): a complaint raised at the shop about a
// live sale goes to the distributor as a complaint on its own sale, is resolved there (by its admin, or by its
// sandbox), and comes back by the distributor's event.complaint webhook — or by the shop's polling when that webhook
// is lost — credited back at the shop exactly once; at a spec-only aggregator it stays with the shop's admin, whose
// credit needs a live admin. Both servers' wallets equal their ledgers throughout. Runs on SQLite and
// (pg_complaintchain) PostgreSQL.
#include "complaintclient.h"
#include "money.h"
#include "services/walletservice.h"
#include "specaggregator.h"
#include "testserver.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kPassword = QStringLiteral("chain-webhook-password");
constexpr int kWaitMs = 15'000; ///< how long a test waits for what the servers do by themselves

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

} // namespace

class TestComplaintChain final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_distributor;
    std::unique_ptr<TestServer> m_shop;
    std::unique_ptr<ComplaintClient> m_atShop;
    std::unique_ptr<ComplaintClient> m_atDistributor;
    CreatedKey m_shopKeyAtDistributor; ///< test pos key of the shop's account at the distributor
    QByteArray m_shopLivePos;
    QByteArray m_shopLiveAdmin;

    static qint64 accountId(TestServer &server)
    {
        QSqlQuery &q = server.db().run(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        const qint64 id = q.next() ? q.value(0).toLongLong() : 0;
        q.finish();
        return id;
    }

    static qint64 scalar(TestServer &server, const QString &sql, const QVariantList &values = {})
    {
        QSqlQuery &q = server.db().run(sql, values);
        const qint64 value = q.next() ? q.value(0).toLongLong() : -1;
        q.finish();
        return value;
    }

    /// Every wallet of the server equals the sum of its ledger, and no sale is refunded more than once.
    static void checkMoney(TestServer &server)
    {
        QCOMPARE(scalar(server, QStringLiteral("SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT"
                                               " COALESCE(SUM(amount), 0) FROM wallet_ledger l WHERE l.account_id ="
                                               " w.account_id AND l.mode = w.mode)")),
                 0);
        QCOMPARE(scalar(server, QStringLiteral("SELECT COUNT(*) FROM (SELECT transaction_id FROM wallet_ledger WHERE"
                                               " kind = 'refund' GROUP BY transaction_id HAVING COUNT(*) > 1) twice")),
                 0);
    }

    static qint64 refunds(TestServer &server, qint64 saleId)
    {
        return scalar(server,
                      QStringLiteral("SELECT COUNT(*) FROM wallet_ledger WHERE transaction_id = ? AND kind = 'refund'"),
                      {saleId});
    }

    HttpResult configureDistributor()
    {
        return m_atShop->send(
            "PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
            QJsonObject{{QStringLiteral("base_url"), m_distributor->url(QStringLiteral("/api/v1")).toString()},
                        {QStringLiteral("key_id"), m_shopKeyAtDistributor.keyId},
                        {QStringLiteral("key_secret"), m_shopKeyAtDistributor.secret},
                        {QStringLiteral("webhook_password"), kPassword}});
    }

    /// Points the distributor's webhook endpoint for the shop's account at the shop's inbox with `password`.
    void pointWebhooksAtTheShop(const QString &password)
    {
        const HttpResult hook = m_atDistributor->send(
            "PUT", QStringLiteral("/api/v1/webhook-endpoint"), m_distributor->admin(),
            QJsonObject{{QStringLiteral("url"), m_shop->url(QStringLiteral("/hooks/upstream")).toString()},
                        {QStringLiteral("webhook_password"), password}});
        QVERIFY2(hook.status == 200 || hook.status == 201, qPrintable(describe(hook)));
    }

    /// A live mobile sale at the shop that ends SUCCESS; its record.
    QJsonObject soldLive(const QString &phone = QStringLiteral("9876543210"))
    {
        const HttpResult r = m_atShop->send("POST", kMobile, m_shopLivePos,
                                            QJsonObject{{QStringLiteral("phone_number"), phone},
                                                        {QStringLiteral("amount"), 199},
                                                        {QStringLiteral("operator_code"), QStringLiteral("AT")}});
        if (r.status != 200 ||
            r.data().value(QStringLiteral("transaction_status")).toString() != QLatin1String("SUCCESS"))
            qWarning("live sale: %s", qPrintable(describe(r)));
        return r.data();
    }

    QJsonObject shopSale(qint64 id)
    {
        return m_atShop->send("GET", QStringLiteral("/api/v1/transactions/%1").arg(id), m_shopLivePos).data();
    }

    qint64 liveBalance()
    {
        return m_atShop->send("GET", QStringLiteral("/api/v1/wallet"), m_shopLivePos)
            .data()
            .value(QStringLiteral("balance_paise"))
            .toInteger(-1);
    }

    /// The states of the event.complaint webhooks the shop queued for its own clients about `saleId`, oldest first.
    QStringList shopComplaintEvents(qint64 saleId)
    {
        QStringList states;
        QSqlQuery &q = m_shop->db().run(QStringLiteral("SELECT payload FROM webhook_events WHERE transaction_id = ?"
                                                       " AND event_type = 'event.complaint' ORDER BY id"),
                                        {saleId});
        while (q.next())
            states.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8())
                              .object()
                              .value(QStringLiteral("state"))
                              .toString());
        q.finish();
        return states;
    }

    /// Raises `reason` at the shop about the live sale `saleId` and waits until the distributor took it; the shop's
    /// complaint id and the distributor's (0 when it did not happen).
    std::pair<qint64, qint64> raisedAndTaken(qint64 saleId, const QString &reason, const QString &note)
    {
        const HttpResult r = m_atShop->raise(saleId, reason, note, m_shopLivePos);
        if (r.status != 201) {
            qWarning("raise: %s", qPrintable(describe(r)));
            return {0, 0};
        }
        const QJsonObject raised = r.data();
        const QJsonObject upstream = raised.value(QStringLiteral("upstream")).toObject();
        if (upstream.value(QStringLiteral("name")).toString() != QLatin1String("default") ||
            !upstream.value(QStringLiteral("note")).isNull())
            qWarning("raised: %s", QJsonDocument(raised).toJson().constData());
        const qint64 id = raised.value(QStringLiteral("id")).toInteger();
        const auto taken = [&] {
            const QJsonObject c = m_atShop->complaint(id, m_shopLivePos);
            return c.value(QStringLiteral("upstream")).toObject().value(QStringLiteral("complaint_id")).toInteger();
        };
        QElapsedTimer timer;
        timer.start();
        while (taken() == 0 && timer.elapsed() < kWaitMs)
            QTest::qWait(20);
        return {id, taken()};
    }

private slots:
    void init()
    {
        m_distributor = std::make_unique<TestServer>();
        m_atDistributor = std::make_unique<ComplaintClient>(
            m_distributor->http(), [server = m_distributor.get()](const QString &path) { return server->url(path); });
        m_shopKeyAtDistributor = m_distributor->createKeyPair(Mode::Test, Scope::Pos);
        WalletService(m_distributor->db(), SystemClock())
            .topup(accountId(*m_distributor), Mode::Test, 500'000 * 100, QStringLiteral("float"),
                   QStringLiteral("tests"));
        ServerOptions options = TestServer::defaultOptions();
        options.upstreamTimeoutMs = 5000;
        options.upstreamRetryScale = 0.01;
        m_shop = std::make_unique<TestServer>(options);
        m_atShop = std::make_unique<ComplaintClient>(
            m_shop->http(), [server = m_shop.get()](const QString &path) { return server->url(path); });
        m_shopLiveAdmin = m_shop->createKey(Mode::Live, Scope::Admin);
        m_shopLivePos = m_shop->createKey(Mode::Live, Scope::Pos);
        WalletService(m_shop->db(), SystemClock())
            .topup(accountId(*m_shop), Mode::Live, 10'000 * 100, QStringLiteral("float"), QStringLiteral("tests"));
        pointWebhooksAtTheShop(kPassword);
        const HttpResult set = configureDistributor();
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("offers")).toObject().value(QStringLiteral("complaints")).toBool(),
                 true);
    }

    void cleanup()
    {
        m_atShop.reset();
        m_shop.reset();
        m_atDistributor.reset();
        m_distributor.reset();
    }

    // The chain: raised at the shop, resolved (credited) at the distributor by its admin, credited back at the
    // shop exactly once.
    void creditedAtTheDistributorIsCreditedBackOnce()
    {
        const QJsonObject sale = soldLive();
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 distributorSaleId =
            sale.value(QStringLiteral("upstream")).toObject().value(QStringLiteral("transaction_id")).toInteger();
        QVERIFY(distributorSaleId > 0);
        const qint64 before = liveBalance();
        const auto [id, upstreamId] =
            raisedAndTaken(saleId, QStringLiteral("other"), QStringLiteral("Customer says the balance did not move"));
        QVERIFY(id > 0);
        QVERIFY2(upstreamId > 0, "the distributor never took the complaint");
        QCOMPARE(m_atShop->state(id, m_shopLivePos), QStringLiteral("with_upstream"));

        // At the distributor: a complaint on its own sale, raised by the shop's key, in its Back office list.
        const QJsonObject there = m_atDistributor->complaint(upstreamId, m_distributor->admin());
        QCOMPARE(there.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QCOMPARE(there.value(QStringLiteral("reason")).toString(), QStringLiteral("other"));
        QCOMPARE(there.value(QStringLiteral("note")).toString(),
                 QStringLiteral("Customer says the balance did not move"));
        QCOMPARE(there.value(QStringLiteral("transaction_id")).toInteger(), distributorSaleId);
        QCOMPARE(there.value(QStringLiteral("reference_id")).toString(),
                 sale.value(QStringLiteral("upstream")).toObject().value(QStringLiteral("reference_id")).toString());
        QCOMPARE(there.value(QStringLiteral("raised_by")).toString(),
                 QStringLiteral("key:") + m_shopKeyAtDistributor.keyId);
        QCOMPARE(m_atDistributor->list(QStringLiteral("state=open"), m_distributor->admin())
                     .data()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 1);

        // The distributor's admin credits it: its sale reversed, the shop's float there refunded once.
        const HttpResult credited = m_atDistributor->resolve(upstreamId, QStringLiteral("credited"),
                                                             QStringLiteral("Airtel confirms no recharge"),
                                                             QStringLiteral("AT-55120"), m_distributor->admin());
        QVERIFY2(credited.status == 200, qPrintable(describe(credited)));
        QCOMPARE(refunds(*m_distributor, distributorSaleId), 1);

        // Back at the shop: credited, the sale reversed, refunded once.
        QTRY_COMPARE_WITH_TIMEOUT(m_atShop->state(id, m_shopLivePos), QStringLiteral("credited"), kWaitMs);
        const QJsonObject c = m_atShop->complaint(id, m_shopLivePos);
        QCOMPARE(c.value(QStringLiteral("resolved_by")).toString(), QStringLiteral("upstream:default"));
        QCOMPARE(c.value(QStringLiteral("resolution")).toString(), QStringLiteral("Airtel confirms no recharge"));
        QCOMPARE(c.value(QStringLiteral("operator_reference")).toString(), QStringLiteral("AT-55120"));
        QTRY_COMPARE_WITH_TIMEOUT(shopSale(saleId).value(QStringLiteral("transaction_status")).toString(),
                                  QStringLiteral("FAILED"), kWaitMs);
        QCOMPARE(shopSale(saleId).value(QStringLiteral("failed_after_pending")).toBool(), true);
        QCOMPARE(liveBalance(), before + Money::parse(sale.value(QStringLiteral("paid")).toString()).value_or(-1));
        // Both the distributor's sale webhook (FAILED) and its complaint webhook arrived; the money moved once.
        QTRY_COMPARE_WITH_TIMEOUT(
            scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE status <> 'delivered'")),
            0, kWaitMs);
        QCOMPARE(refunds(*m_shop, saleId), 1);
        QCOMPARE(liveBalance(), before + Money::parse(sale.value(QStringLiteral("paid")).toString()).value_or(-1));
        QCOMPARE(shopComplaintEvents(saleId),
                 (QStringList{QStringLiteral("open"), QStringLiteral("with_upstream"), QStringLiteral("credited")}));
        // A second word from the distributor changes nothing: its complaint is resolved, the shop's too.
        QCOMPARE(
            m_atDistributor->resolve(upstreamId, QStringLiteral("credited"), {}, {}, m_distributor->admin()).status,
            409);
        QCOMPARE(m_atShop->resolve(id, QStringLiteral("credited"), {}, {}, m_shopLiveAdmin).status, 409);
        QCOMPARE(refunds(*m_shop, saleId), 1);
        checkMoney(*m_shop);
        checkMoney(*m_distributor);
    }

    // The distributor's sandbox decides a complaint on its test sale: wrong_amount is rejected, and the shop is told
    // with the operator's words and reference; no money moves.
    void rejectedThereIsRejectedHere()
    {
        const QJsonObject sale = soldLive(QStringLiteral("9876543211"));
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 distributorSaleId =
            sale.value(QStringLiteral("upstream")).toObject().value(QStringLiteral("transaction_id")).toInteger();
        const qint64 before = liveBalance();
        const HttpResult r = m_atShop->raise(saleId, QStringLiteral("wrong_amount"), {}, m_shopLivePos);
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        const qint64 id = r.data().value(QStringLiteral("id")).toInteger();
        QTRY_COMPARE_WITH_TIMEOUT(m_atShop->state(id, m_shopLivePos), QStringLiteral("rejected"), kWaitMs);
        const QJsonObject c = m_atShop->complaint(id, m_shopLivePos);
        QCOMPARE(c.value(QStringLiteral("operator_reference")).toString(),
                 QStringLiteral("SBX-%1").arg(distributorSaleId));
        QVERIFY(!c.value(QStringLiteral("resolution")).toString().isEmpty());
        QCOMPARE(c.value(QStringLiteral("resolved_by")).toString(), QStringLiteral("upstream:default"));
        QCOMPARE(shopSale(saleId).value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        QCOMPARE(refunds(*m_shop, saleId), 0);
        QCOMPARE(liveBalance(), before);
        checkMoney(*m_shop);
        checkMoney(*m_distributor);
    }

    // The distributor's webhooks to the shop are refused (a wrong password on its endpoint): the shop learns the
    // credit by polling the distributor's complaint, and reverses its sale itself, once.
    void creditArrivesByPollingWhenTheWebhookIsLost()
    {
        pointWebhooksAtTheShop(QStringLiteral("not-the-shops-password"));
        const QJsonObject sale = soldLive(QStringLiteral("9876543212"));
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 before = liveBalance();
        const auto [id, upstreamId] = raisedAndTaken(saleId, QStringLiteral("other"), QStringLiteral("Not received"));
        QVERIFY2(upstreamId > 0, "the distributor never took the complaint");
        QCOMPARE(
            m_atDistributor->resolve(upstreamId, QStringLiteral("credited"), {}, {}, m_distributor->admin()).status,
            200);
        QTRY_COMPARE_WITH_TIMEOUT(m_atShop->state(id, m_shopLivePos), QStringLiteral("credited"), 20'000);
        const QJsonObject reversed = shopSale(saleId);
        QCOMPARE(reversed.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(reversed.value(QStringLiteral("upstream"))
                     .toObject()
                     .value(QStringLiteral("reversal"))
                     .toObject()
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("complaint"));
        QCOMPARE(refunds(*m_shop, saleId), 1);
        QCOMPARE(liveBalance(), before + Money::parse(sale.value(QStringLiteral("paid")).toString()).value_or(-1));
        // Polling it was: every webhook the distributor tried was refused by the shop.
        QVERIFY(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM webhook_attempts a JOIN webhook_events e"
                                                      " ON e.id = a.event_id WHERE e.event_type = 'event.complaint'")) >
                0);
        QCOMPARE(scalar(*m_distributor, QStringLiteral("SELECT COUNT(*) FROM webhook_attempts WHERE success = 1")), 0);
        checkMoney(*m_shop);
        checkMoney(*m_distributor);
    }

    // A live sale through a spec-only aggregator: the complaint stays open with the shop's admin (the aggregator takes
    // none); the admin credits it after dealing with the aggregator (a live admin: a test key never sees it).
    void atASpecOnlyUpstreamItStaysWithTheAdmin()
    {
        SpecAggregator aggregator(QStringLiteral("ak_live_complaints_test"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        const HttpResult set =
            m_atShop->send("PUT", QStringLiteral("/api/v1/upstream"), m_shopLiveAdmin,
                           QJsonObject{{QStringLiteral("base_url"), aggregator.baseUrl().toString()},
                                       {QStringLiteral("credential"), QStringLiteral("ak_live_complaints_test")},
                                       {QStringLiteral("webhook_password"), QStringLiteral("spec-password")}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("kind")).toString(), QStringLiteral("spec"));
        const QJsonObject sale = soldLive(QStringLiteral("9876543213"));
        const qint64 saleId = sale.value(QStringLiteral("transaction_id")).toInteger();
        const qint64 before = liveBalance();
        const HttpResult r = m_atShop->raise(saleId, QStringLiteral("not_received"), {}, m_shopLivePos);
        QVERIFY2(r.status == 201, qPrintable(describe(r)));
        const QJsonObject c = r.data();
        const qint64 id = c.value(QStringLiteral("id")).toInteger();
        QCOMPARE(c.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QVERIFY2(c.value(QStringLiteral("upstream"))
                     .toObject()
                     .value(QStringLiteral("note"))
                     .toString()
                     .contains(QStringLiteral("spec-only")),
                 QJsonDocument(c).toJson().constData());
        // Nothing is due for it: it waits for a person.
        QCOMPARE(scalar(*m_shop, QStringLiteral("SELECT next_step_at FROM complaints WHERE id = ?"), {id}), 0);
        // A test admin key never sees a live sale's complaint; a live pos key may not resolve it.
        HttpResult refused = m_atShop->resolve(id, QStringLiteral("credited"), {}, {}, m_shop->admin());
        QCOMPARE(refused.status, 404);
        refused = m_atShop->resolve(id, QStringLiteral("credited"), {}, {}, m_shopLivePos);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(), QStringLiteral("admin_scope_required"));
        QCOMPARE(m_atShop->state(id, m_shopLivePos), QStringLiteral("open"));
        const HttpResult credited = m_atShop->resolve(id, QStringLiteral("credited"),
                                                      QStringLiteral("Aggregator support ticket 4411: refunded"),
                                                      QStringLiteral("PAY-4411"), m_shopLiveAdmin);
        QVERIFY2(credited.status == 200, qPrintable(describe(credited)));
        const QJsonObject reversed = shopSale(saleId);
        QCOMPARE(reversed.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("FAILED"));
        QCOMPARE(reversed.value(QStringLiteral("upstream"))
                     .toObject()
                     .value(QStringLiteral("reversal"))
                     .toObject()
                     .value(QStringLiteral("source"))
                     .toString(),
                 QStringLiteral("complaint"));
        QCOMPARE(refunds(*m_shop, saleId), 1);
        QCOMPARE(liveBalance(), before + Money::parse(sale.value(QStringLiteral("paid")).toString()).value_or(-1));
        checkMoney(*m_shop);
    }
};

QTEST_GUILESS_MAIN(TestComplaintChain)
#include "tst_complaintchain.moc"
