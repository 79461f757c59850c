// Issue 29, the operator and circle from the number (GET /api/v1/numbers/{phone_number}) over real HTTP: a ported
// number (the later operator wins), a number never sold (404), a FAILED sale never learned from, every terminal of
// the account counted and no other account or mode, the circle a sale carried, and a RechargeDesk upstream's own
// answer (a distributor as the shop's upstream: its answer when the shop knows nothing, beside the shop's when it
// does, and none — never an error — when it does not answer; asked with scope=network, so a distributor answers from
// every shop's sales, without saying which). Runs on SQLite and (pg_numbersapi) PostgreSQL.
#include "clock.h"
#include "complaintclient.h"
#include "faultproxy.h"
#include "services/walletservice.h"
#include "specaggregator.h"
#include "testserver.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QTest>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");

QString describe(const HttpResult &result)
{
    return QStringLiteral("%1 %2").arg(result.status).arg(QString::fromUtf8(result.body.left(400)));
}

QJsonObject mobile(const QString &phone, const QString &op, const QString &circle = {})
{
    QJsonObject body{{QStringLiteral("phone_number"), phone},
                     {QStringLiteral("amount"), 199},
                     {QStringLiteral("operator_code"), op}};
    if (!circle.isEmpty())
        body.insert(QStringLiteral("circle_code"), circle);
    return body;
}

} // namespace

class TestNumbersApi final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<ComplaintClient> m_api;

    static std::unique_ptr<ComplaintClient> clientOf(TestServer &server)
    {
        return std::make_unique<ComplaintClient>(server.http(),
                                                 [&server](const QString &path) { return server.url(path); });
    }

    /// A sale through `api` with `key` that must be answered 200; its record.
    static QJsonObject sold(ComplaintClient &api, const QByteArray &key, const QJsonObject &body)
    {
        const HttpResult r = api.send("POST", kMobile, key, body);
        if (r.status != 200)
            qWarning("sell: %s", qPrintable(describe(r)));
        return r.data();
    }

    static qint64 accountId(TestServer &server)
    {
        QSqlQuery &q = server.db().run(QStringLiteral("SELECT id FROM accounts WHERE name = 'shop'"));
        const qint64 id = q.next() ? q.value(0).toLongLong() : 0;
        q.finish();
        return id;
    }

private slots:
    void init()
    {
        m_server = std::make_unique<TestServer>();
        m_api = clientOf(*m_server);
    }

    void cleanup()
    {
        m_api.reset();
        m_server.reset();
    }

    void aNumberNeverSoldIsUnknown()
    {
        const HttpResult r = m_api->lookup(QStringLiteral("9876512345"), m_server->pos());
        QCOMPARE(r.status, 404);
        QCOMPARE(r.error().value(QStringLiteral("reason")).toString(), QStringLiteral("number_unknown"));
        for (const QString &bad :
             {QStringLiteral("12345"), QStringLiteral("5876512345"), QStringLiteral("98765x2345")}) {
            const HttpResult refused = m_api->lookup(bad, m_server->pos());
            QCOMPARE(refused.status, 400);
            QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(),
                     QStringLiteral("invalid_phone_number"));
        }
    }

    // A number ported from Airtel to Jio: the sale after the port decides; the count is of both.
    void aPortedNumberShowsItsLaterOperator()
    {
        const QString phone = QStringLiteral("9876512345");
        const QJsonObject airtel =
            sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("AT"), QStringLiteral("DL")));
        QCOMPARE(airtel.value(QStringLiteral("circle_code")).toString(), QStringLiteral("DL"));
        HttpResult r = m_api->lookup(phone, m_server->pos());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("operator_code")).toString(), QStringLiteral("AT"));
        QCOMPARE(r.data().value(QStringLiteral("circle_code")).toString(), QStringLiteral("DL"));
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 1);

        // Sold again by another terminal's key of the same shop, after the port.
        const QByteArray otherTerminal = m_server->createKey(Mode::Test, Scope::Pos);
        const QJsonObject jio = sold(*m_api, otherTerminal, mobile(phone, QStringLiteral("RJ"), QStringLiteral("DL")));
        r = m_api->lookup(phone, m_server->pos());
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject known = r.data();
        QCOMPARE(known.value(QStringLiteral("entity")).toString(), QStringLiteral("number"));
        QCOMPARE(known.value(QStringLiteral("phone_number")).toString(), phone);
        QCOMPARE(known.value(QStringLiteral("operator_code")).toString(), QStringLiteral("RJ"));
        QCOMPARE(known.value(QStringLiteral("circle_code")).toString(), QStringLiteral("DL"));
        QCOMPARE(known.value(QStringLiteral("count")).toInt(), 2);
        QCOMPARE(known.value(QStringLiteral("last_sold_at")).toString(),
                 jio.value(QStringLiteral("datetime")).toString());
        QCOMPARE(known.value(QStringLiteral("source")).toString(), QStringLiteral("shop"));
        QVERIFY(known.value(QStringLiteral("upstream")).isNull());
    }

    // Only SUCCESS teaches: a FAILED sale (its upstream's words may say "wrong operator") and a sale reversed later
    // count for nothing; a PENDING one counts once it succeeds.
    void onlySuccessfulSalesTeach()
    {
        // A sandbox failure: nothing learned.
        const QString failedPhone = QStringLiteral("9876520000");
        QCOMPARE(sold(*m_api, m_server->pos(), mobile(failedPhone, QStringLiteral("VI")))
                     .value(QStringLiteral("transaction_status"))
                     .toString(),
                 QStringLiteral("FAILED"));
        QCOMPARE(m_api->lookup(failedPhone, m_server->pos()).status, 404);
        // Airtel sold; then a Vi sale to the same number reversed by a credited complaint: still Airtel, once.
        const QString phone = QStringLiteral("9876523456");
        sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("AT"), QStringLiteral("KA")));
        const qint64 vi = sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("VI"), QStringLiteral("KA")))
                              .value(QStringLiteral("transaction_id"))
                              .toInteger();
        QCOMPARE(m_api->lookup(phone, m_server->pos()).data().value(QStringLiteral("operator_code")).toString(),
                 QStringLiteral("VI"));
        const HttpResult complaint = m_api->raise(vi, QStringLiteral("wrong_operator"),
                                                  QStringLiteral("The customer is on Airtel"), m_server->pos());
        QCOMPARE(complaint.status, 201);
        QCOMPARE(m_api
                     ->resolve(complaint.data().value(QStringLiteral("id")).toInteger(), QStringLiteral("credited"), {},
                               {}, m_server->admin())
                     .status,
                 200);
        const QJsonObject known = m_api->lookup(phone, m_server->pos()).data();
        QCOMPARE(known.value(QStringLiteral("operator_code")).toString(), QStringLiteral("AT"));
        QCOMPARE(known.value(QStringLiteral("count")).toInt(), 1);
        // PENDING then SUCCESS: learned once it succeeded.
        const QString pending = QStringLiteral("9876521111");
        QCOMPARE(sold(*m_api, m_server->pos(), mobile(pending, QStringLiteral("BS")))
                     .value(QStringLiteral("transaction_status"))
                     .toString(),
                 QStringLiteral("PENDING"));
        QCOMPARE(m_api->lookup(pending, m_server->pos()).status, 404);
        QTRY_COMPARE(m_api->lookup(pending, m_server->pos()).status, 200);
        QCOMPARE(m_api->lookup(pending, m_server->pos()).data().value(QStringLiteral("operator_code")).toString(),
                 QStringLiteral("BS"));
    }

    // The latest sale's circle; when it carried none (an older client), the latest that did; null when none did.
    void theCircleIsTheLatestKnown()
    {
        const QString phone = QStringLiteral("9876534567");
        sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("AT")));
        QJsonObject known = m_api->lookup(phone, m_server->pos()).data();
        QVERIFY(known.value(QStringLiteral("circle_code")).isNull());
        sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("AT"), QStringLiteral("mh")));
        const QJsonObject plain = sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("AT")));
        QVERIFY(!plain.contains(QStringLiteral("circle_code")));
        known = m_api->lookup(phone, m_server->pos()).data();
        QCOMPARE(known.value(QStringLiteral("circle_code")).toString(), QStringLiteral("MH"));
        QCOMPARE(known.value(QStringLiteral("count")).toInt(), 3);
        // A circle that is not in the table is refused and charges nothing.
        const qint64 sales = m_api->send("GET", QStringLiteral("/api/v1/transactions/summary"), m_server->pos())
                                 .data()
                                 .value(QStringLiteral("count"))
                                 .toInteger();
        const HttpResult refused =
            m_api->send("POST", kMobile, m_server->pos(), mobile(phone, QStringLiteral("AT"), QStringLiteral("ZZ")));
        QCOMPARE(refused.status, 400);
        QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(), QStringLiteral("invalid_circle_code"));
        QCOMPARE(m_api->send("GET", QStringLiteral("/api/v1/transactions/summary"), m_server->pos())
                     .data()
                     .value(QStringLiteral("count"))
                     .toInteger(),
                 sales);
    }

    // Another account's sales and the other mode's are not this key's to see.
    void theAccountAndModeBoundTheAnswer()
    {
        const QString phone = QStringLiteral("9876545678");
        const QByteArray otherShop = m_server->createKey(Mode::Test, Scope::Pos, QStringLiteral("other-shop"));
        QCOMPARE(sold(*m_api, otherShop, mobile(phone, QStringLiteral("VI")))
                     .value(QStringLiteral("transaction_status"))
                     .toString(),
                 QStringLiteral("SUCCESS"));
        QCOMPARE(m_api->lookup(phone, otherShop).status, 200);
        QCOMPARE(m_api->lookup(phone, m_server->pos()).status, 404);
        QCOMPARE(m_api->lookup(phone, m_server->createKey(Mode::Live, Scope::Pos)).status, 404);
    }

    // A distributor asked by a downstream shop server (`scope=network`) answers from every shop's SUCCESS mobile
    // sales of the caller's mode, and only with the operator, circle, time and count: shop B learns what shop A sold,
    // but not which shop sold it or for how much. Without the scope (or with scope=account) the answer keeps the
    // caller's account; any other scope is 400 and the answers stay as they were.
    void theNetworkScopeAnswersFromEveryShop()
    {
        const QString phone = QStringLiteral("9876534567");
        const QString network = QStringLiteral("/api/v1/numbers/") + phone + QStringLiteral("?scope=network");
        const QByteArray shopB = m_server->createKey(Mode::Test, Scope::Pos, QStringLiteral("other-shop"));
        QCOMPARE(m_api->send("GET", network, shopB).status, 404);
        const QJsonObject sale =
            sold(*m_api, m_server->pos(), mobile(phone, QStringLiteral("VI"), QStringLiteral("UW")));
        QCOMPARE(sale.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));

        HttpResult r = m_api->send("GET", network, shopB);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QJsonObject known = r.data();
        QCOMPARE(known.value(QStringLiteral("operator_code")).toString(), QStringLiteral("VI"));
        QCOMPARE(known.value(QStringLiteral("circle_code")).toString(), QStringLiteral("UW"));
        QCOMPARE(known.value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(known.value(QStringLiteral("last_sold_at")).toString(),
                 sale.value(QStringLiteral("datetime")).toString());
        QCOMPARE(known.value(QStringLiteral("source")).toString(), QStringLiteral("shop"));
        // Nothing of the shop that sold, nor of the sale beyond the operator and circle.
        QStringList fields = known.keys();
        fields.sort();
        QCOMPARE(fields,
                 QStringList({QStringLiteral("circle_code"), QStringLiteral("count"), QStringLiteral("entity"),
                              QStringLiteral("last_sold_at"), QStringLiteral("operator_code"),
                              QStringLiteral("phone_number"), QStringLiteral("source"), QStringLiteral("upstream")}));

        // Shop B's own answer keeps its account: it sold nothing to the number.
        QCOMPARE(m_api->lookup(phone, shopB).status, 404);
        QCOMPARE(
            m_api->send("GET", QStringLiteral("/api/v1/numbers/") + phone + QStringLiteral("?scope=account"), shopB)
                .status,
            404);
        // The network is of the caller's mode: a live key learns nothing of test sales.
        QCOMPARE(m_api->send("GET", network, m_server->createKey(Mode::Live, Scope::Pos, QStringLiteral("other-shop")))
                     .status,
                 404);

        // A scope other than account or network: 400 naming the parameter, and the answers unchanged.
        for (const QString &bad : {QStringLiteral("everyone"), QStringLiteral(""), QStringLiteral("NETWORK")}) {
            const HttpResult refused =
                m_api->send("GET", QStringLiteral("/api/v1/numbers/") + phone + QStringLiteral("?scope=") + bad, shopB);
            QCOMPARE(refused.status, 400);
            QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(),
                     QStringLiteral("invalid_query_parameter"));
            QCOMPARE(refused.error().value(QStringLiteral("field")).toString(), QStringLiteral("scope"));
        }
        r = m_api->send("GET", network, shopB);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 1);
        QCOMPARE(m_api->lookup(phone, shopB).status, 404);
        QCOMPARE(m_api->lookup(phone, m_server->pos()).data().value(QStringLiteral("count")).toInt(), 1);
    }

    // The shop's upstream is a spec-only aggregator: it offers no lookup (so it is not asked), an unknown number is
    // still a plain 404 of ours, and a known one is the shop's own answer with `upstream` null.
    void aSpecOnlyUpstreamIsNotAsked()
    {
        SpecAggregator aggregator(QStringLiteral("ak_live_numbers_test"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        const HttpResult set =
            m_api->send("PUT", QStringLiteral("/api/v1/upstream"), m_server->liveAdmin(),
                        QJsonObject{{QStringLiteral("base_url"), aggregator.baseUrl().toString()},
                                    {QStringLiteral("credential"), QStringLiteral("ak_live_numbers_test")},
                                    {QStringLiteral("webhook_password"), QStringLiteral("spec-password")}});
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("kind")).toString(), QStringLiteral("spec"));
        QVERIFY(!set.data().value(QStringLiteral("offers")).toObject().value(QStringLiteral("number_lookup")).toBool());

        const QByteArray livePos = m_server->createKey(Mode::Live, Scope::Pos);
        const HttpResult unknown = m_api->lookup(QStringLiteral("9876511223"), livePos);
        QCOMPARE(unknown.status, 404);
        QCOMPARE(unknown.error().value(QStringLiteral("reason")).toString(), QStringLiteral("number_unknown"));

        WalletService(m_server->db(), SystemClock())
            .topup(accountId(*m_server), Mode::Live, 1'000 * 100, QStringLiteral("float"), QStringLiteral("tests"));
        sold(*m_api, livePos, mobile(QStringLiteral("9876511224"), QStringLiteral("AT"), QStringLiteral("DL")));
        const HttpResult known = m_api->lookup(QStringLiteral("9876511224"), livePos);
        QVERIFY2(known.status == 200, qPrintable(describe(known)));
        QCOMPARE(known.data().value(QStringLiteral("source")).toString(), QStringLiteral("shop"));
        QCOMPARE(known.data().value(QStringLiteral("operator_code")).toString(), QStringLiteral("AT"));
        QVERIFY(known.data().value(QStringLiteral("upstream")).isNull()); // no upstream answer: null
    }

    // The shop's upstream is a RechargeDesk distributor: its answer for a live key comes beside the shop's, is the
    // answer when the shop knows nothing, and is left out (never an error) when the distributor does not answer.
    void theUpstreamsAnswer()
    {
        TestServer distributor;
        const CreatedKey shopAtDistributor = distributor.createKeyPair(Mode::Test, Scope::Pos);
        const std::unique_ptr<ComplaintClient> atDistributor = clientOf(distributor);
        const QByteArray distributorKey = HttpClient::basic(shopAtDistributor.keyId, shopAtDistributor.secret);
        // The distributor sold to two numbers for this shop's account there (sold at its counter, say).
        sold(*atDistributor, distributorKey,
             mobile(QStringLiteral("9876556789"), QStringLiteral("VI"), QStringLiteral("UW")));
        sold(*atDistributor, distributorKey,
             mobile(QStringLiteral("9876567890"), QStringLiteral("AT"), QStringLiteral("DL")));

        const QByteArray liveAdmin = m_server->liveAdmin();
        const QByteArray livePos = m_server->createKey(Mode::Live, Scope::Pos);
        const auto configure = [&](const QString &baseUrl) {
            return m_api->send("PUT", QStringLiteral("/api/v1/upstream"), liveAdmin,
                               QJsonObject{{QStringLiteral("base_url"), baseUrl},
                                           {QStringLiteral("key_id"), shopAtDistributor.keyId},
                                           {QStringLiteral("key_secret"), shopAtDistributor.secret}});
        };
        // Through a proxy, so that the distributor can later stop answering.
        FaultProxy proxy(QHostAddress::LocalHost, distributor.server().port());
        QString error;
        QVERIFY2(proxy.listen(&error), qPrintable(error));
        const HttpResult set = configure(proxy.url().toString() + QStringLiteral("/api/v1"));
        QVERIFY2(set.status == 200, qPrintable(describe(set)));
        QCOMPARE(set.data().value(QStringLiteral("offers")).toObject().value(QStringLiteral("number_lookup")).toBool(),
                 true);

        // Unknown here, known there: the distributor's answer is the answer.
        HttpResult r = m_api->lookup(QStringLiteral("9876556789"), livePos);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("source")).toString(), QStringLiteral("upstream"));
        QCOMPARE(r.data().value(QStringLiteral("operator_code")).toString(), QStringLiteral("VI"));
        QCOMPARE(r.data().value(QStringLiteral("circle_code")).toString(), QStringLiteral("UW"));
        QCOMPARE(r.data().value(QStringLiteral("upstream")).toObject().value(QStringLiteral("source")).toString(),
                 QStringLiteral("upstream"));
        // Known at both: the shop's own sale (a later port to Jio, sold here live) wins; the distributor's beside it.
        WalletService(m_server->db(), SystemClock())
            .topup(accountId(*m_server), Mode::Live, 10'000 * 100, QStringLiteral("float"), QStringLiteral("tests"));
        const QJsonObject live =
            sold(*m_api, livePos, mobile(QStringLiteral("9876567890"), QStringLiteral("RJ"), QStringLiteral("DL")));
        QCOMPARE(live.value(QStringLiteral("transaction_status")).toString(), QStringLiteral("SUCCESS"));
        r = m_api->lookup(QStringLiteral("9876567890"), livePos);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("source")).toString(), QStringLiteral("shop"));
        QCOMPARE(r.data().value(QStringLiteral("operator_code")).toString(), QStringLiteral("RJ"));
        QCOMPARE(r.data().value(QStringLiteral("count")).toInt(), 1);
        // The distributor learned the port from the shop's live sale through it: Jio, of two sales.
        const QJsonObject there = r.data().value(QStringLiteral("upstream")).toObject();
        QCOMPARE(there.value(QStringLiteral("operator_code")).toString(), QStringLiteral("RJ"));
        QCOMPARE(there.value(QStringLiteral("count")).toInt(), 2);
        // Sold at the distributor by another of its shops only: the distributor answers from its whole network.
        const QByteArray otherShopThere = distributor.createKey(Mode::Test, Scope::Pos, QStringLiteral("other-shop"));
        sold(*atDistributor, otherShopThere,
             mobile(QStringLiteral("9876589012"), QStringLiteral("AT"), QStringLiteral("MH")));
        QCOMPARE(atDistributor->lookup(QStringLiteral("9876589012"), distributorKey).status, 404);
        r = m_api->lookup(QStringLiteral("9876589012"), livePos);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("source")).toString(), QStringLiteral("upstream"));
        QCOMPARE(r.data().value(QStringLiteral("operator_code")).toString(), QStringLiteral("AT"));
        QCOMPARE(r.data().value(QStringLiteral("circle_code")).toString(), QStringLiteral("MH"));
        // Known nowhere: 404, after asking the distributor.
        QCOMPARE(m_api->lookup(QStringLiteral("9876578901"), livePos).status, 404);
        // A test key never asks the upstream.
        QCOMPARE(m_api->lookup(QStringLiteral("9876556789"), m_server->pos()).status, 404);

        // The distributor stops answering in time (held 5 s): the shop answers alone, within the lookup's short time
        // limit.
        proxy.setMode(FaultProxy::Mode::Slow, 5000);
        QElapsedTimer timer;
        timer.start();
        r = m_api->lookup(QStringLiteral("9876567890"), livePos);
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(r.data().value(QStringLiteral("source")).toString(), QStringLiteral("shop"));
        QVERIFY(r.data().value(QStringLiteral("upstream")).isNull());
        QVERIFY2(timer.elapsed() < 4000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(m_api->lookup(QStringLiteral("9876556789"), livePos).status, 404);
    }
};

QTEST_GUILESS_MAIN(TestNumbersApi)
#include "tst_numbersapi.moc"
