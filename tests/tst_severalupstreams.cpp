// A real shop (`rechargedesk serve`) with two upstreams, both aggregators that speak ../shared/spec/api-v1.md and
// nothing more (tests/support/specaggregator.h): `first` (priority 10, sells Airtel and Vi only) and `second`
// (priority 20, everything). A live sale goes to the first that sells it; a definite failure there (a refusal, or
// FAILED in the answer) moves it to the next with a new reference, its words kept; an unknown outcome never moves on;
// when every upstream refuses, the sale fails and is refunded once. Each upstream's webhooks arrive at its own path
// with its own password and speak only for its own sales. Issue 26, "Several upstreams".
#include "liveshop.h"
#include "specaggregator.h"
#include "specwebhook.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
constexpr int kSettleMs = 20'000;

QJsonObject mobile(const QString &number, const QString &operatorCode = QStringLiteral("AT"))
{
    return {{QStringLiteral("phone_number"), number},
            {QStringLiteral("amount"), QStringLiteral("249")},
            {QStringLiteral("operator_code"), operatorCode}};
}

QJsonObject upstreamOf(const QJsonObject &record)
{
    return record.value(QStringLiteral("upstream")).toObject();
}

QString statusOf(const QJsonObject &record)
{
    return record.value(QStringLiteral("transaction_status")).toString();
}

} // namespace

class TestSeveralUpstreams final : public QObject
{
    Q_OBJECT

private:
    LiveShop m_shop;
    std::unique_ptr<SpecAggregator> m_first;
    std::unique_ptr<SpecAggregator> m_second;

    /// The shop's live admin's PUT /api/v1/upstreams/{name}.
    HttpResult putUpstream(const QString &name, const QJsonObject &body, const QByteArray &key)
    {
        return m_shop.http().send("PUT", m_shop.url(QStringLiteral("/api/v1/upstreams/") + name),
                                  QJsonDocument(body).toJson(QJsonDocument::Compact),
                                  {{"Authorization", key}, {"Content-Type", "application/json"}});
    }

    QStringList upstreamNames()
    {
        QStringList names;
        const HttpResult r = m_shop.http().get(m_shop.url(QStringLiteral("/api/v1/upstreams")), m_shop.liveAdmin());
        for (const QJsonValue &item : r.data().value(QStringLiteral("items")).toArray())
            names.append(item[QStringLiteral("name")].toString());
        return names;
    }

    /// One request reached this aggregator with this reference_id (each one may be a recharge paid for).
    static void expectSentOnce(const SpecAggregator &aggregator, const QString &reference)
    {
        QVERIFY(!reference.isEmpty());
        QVERIFY2(
            aggregator.requestsFor(reference) == 1,
            qPrintable(QStringLiteral("%1 requests with %2").arg(aggregator.requestsFor(reference)).arg(reference)));
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_shop.prepare(QStringLiteral("100000"), &error), qPrintable(error));
        m_first = std::make_unique<SpecAggregator>(QStringLiteral("ak_first_credential"));
        m_second = std::make_unique<SpecAggregator>(QStringLiteral("ak_second_credential"));
        QVERIFY2(m_first->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QVERIFY2(m_second->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QVERIFY2(m_shop.setUpstream(*m_first, QStringLiteral("ak_first_credential"), QStringLiteral("first-pass"),
                                    {QStringLiteral("--name"), QStringLiteral("first"), QStringLiteral("--priority"),
                                     QStringLiteral("10"), QStringLiteral("--operators"), QStringLiteral("AT,VI")},
                                    &error),
                 qPrintable(error));
        QVERIFY2(m_shop.setUpstream(*m_second, QStringLiteral("ak_second_credential"), QStringLiteral("second-pass"),
                                    {QStringLiteral("--name"), QStringLiteral("second"), QStringLiteral("--priority"),
                                     QStringLiteral("20")},
                                    &error),
                 qPrintable(error));
        QVERIFY2(m_shop.start(&error), qPrintable(error));
        m_first->setWebhook(m_shop.url(QStringLiteral("/hooks/upstream/first")), QStringLiteral("first-pass"));
        m_second->setWebhook(m_shop.url(QStringLiteral("/hooks/upstream/second")), QStringLiteral("second-pass"));
    }

    void init()
    {
        m_first->setOutcome(std::nullopt);
        m_second->setOutcome(std::nullopt);
    }

    void cleanup()
    {
        const QString problems = m_shop.ledgerProblems();
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void listsTheUpstreamsInTheOrderSalesTryThem()
    {
        QCOMPARE(upstreamNames(), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
        const HttpResult r = m_shop.http().get(m_shop.url(QStringLiteral("/api/v1/upstreams")), m_shop.liveAdmin());
        const QJsonObject first = r.data().value(QStringLiteral("items")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("kind")).toString(), QStringLiteral("spec"));
        QCOMPARE(first.value(QStringLiteral("credential")).toString(), QStringLiteral("opaque"));
        QCOMPARE(first.value(QStringLiteral("webhook_path")).toString(), QStringLiteral("/hooks/upstream/first"));
        QCOMPARE(first.value(QStringLiteral("operators")).toArray(),
                 (QJsonArray{QStringLiteral("AT"), QStringLiteral("VI")}));
        QCOMPARE(m_shop.http().get(m_shop.url(QStringLiteral("/api/v1/upstreams")), m_shop.livePos()).status, 403);
    }

    void aDefiniteFailureMovesTheSaleToTheNextUpstream_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("words");
        QTest::newRow("refused") << int(SpecAggregator::Outcome::Refused)
                                 << QStringLiteral("Recharge not allowed for this number");
        QTest::newRow("FAILED in the answer")
            << int(SpecAggregator::Outcome::Failed) << QStringLiteral("the upstream answered FAILED");
    }
    void aDefiniteFailureMovesTheSaleToTheNextUpstream()
    {
        QFETCH(int, outcome);
        QFETCH(QString, words);
        m_first->setOutcome(SpecAggregator::Outcome(outcome));
        QJsonObject answer;
        const qint64 id = m_shop.sell(kMobile, mobile(QStringLiteral("9876543210")), &answer);
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(m_shop.sale(id)), QStringLiteral("SUCCESS"), kSettleMs);
        const QJsonObject upstream = upstreamOf(m_shop.sale(id));
        QCOMPARE(upstream.value(QStringLiteral("upstream")).toString(), QStringLiteral("second"));
        const QJsonArray tried = upstream.value(QStringLiteral("tried")).toArray();
        QCOMPARE(tried.size(), 1);
        QCOMPARE(tried.at(0)[QStringLiteral("upstream")].toString(), QStringLiteral("first"));
        QVERIFY2(tried.at(0)[QStringLiteral("error")][QStringLiteral("description")].toString().contains(words),
                 QJsonDocument(tried).toJson().constData());
        // Each upstream got the sale once, under a reference of its own.
        const QString firstReference = tried.at(0)[QStringLiteral("reference_id")].toString();
        const QString secondReference = upstream.value(QStringLiteral("reference_id")).toString();
        QVERIFY(secondReference.endsWith(QStringLiteral("-2")));
        QVERIFY(firstReference != secondReference);
        expectSentOnce(*m_first, firstReference);
        expectSentOnce(*m_second, secondReference);
        QCOMPARE(m_second->salesFor(secondReference), 1);
        QCOMPARE(m_shop.ledgerRows(id, "refund"), 0);
    }

    void anUnknownOutcomeNeverMovesOn()
    {
        m_first->setOutcome(SpecAggregator::Outcome::Unavailable);
        const int secondSales = m_second->totalSales();
        const qint64 id = m_shop.sell(kMobile, mobile(QStringLiteral("9876543211")));
        QVERIFY(id > 0);
        const auto attention = [this, id] {
            return upstreamOf(m_shop.sale(id)).value(QStringLiteral("attention")).toBool();
        };
        QTRY_VERIFY_WITH_TIMEOUT(attention(), kSettleMs); // by then the first upstream's answer is long in
        const QJsonObject record = m_shop.sale(id);
        QCOMPARE(statusOf(record), QStringLiteral("PENDING"));
        QCOMPARE(upstreamOf(record).value(QStringLiteral("upstream")).toString(), QStringLiteral("first"));
        QCOMPARE(upstreamOf(record).value(QStringLiteral("state")).toString(), QStringLiteral("unknown"));
        QCOMPARE(m_second->totalSales(), secondSales);
        expectSentOnce(*m_first, upstreamOf(record).value(QStringLiteral("reference_id")).toString());
        QCOMPARE(m_shop.ledgerRows(id, "refund"), 0);
    }

    void whenEveryUpstreamRefusesTheSaleFailsOnceWithTheirWords()
    {
        m_first->setOutcome(SpecAggregator::Outcome::Refused);
        m_second->setOutcome(SpecAggregator::Outcome::Refused);
        const qint64 id = m_shop.sell(kMobile, mobile(QStringLiteral("9876543212")));
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(m_shop.sale(id)), QStringLiteral("FAILED"), kSettleMs);
        const QJsonObject upstream = upstreamOf(m_shop.sale(id));
        QCOMPARE(upstream.value(QStringLiteral("state")).toString(), QStringLiteral("refused"));
        QCOMPARE(upstream.value(QStringLiteral("tried")).toArray().size(), 1);
        QVERIFY(upstream.value(QStringLiteral("error"))[QStringLiteral("description")].toString().contains(
            QStringLiteral("Recharge not allowed")));
        QCOMPARE(m_shop.ledgerRows(id, "refund"), 1);
    }

    void aSaleGoesOnlyWhereItsOperatorIsSold()
    {
        const int firstRequests = m_first->totalSales();
        const qint64 id = m_shop.sell(kMobile, mobile(QStringLiteral("9876543213"), QStringLiteral("RJ")));
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(m_shop.sale(id)), QStringLiteral("SUCCESS"), kSettleMs);
        const QJsonObject upstream = upstreamOf(m_shop.sale(id));
        QCOMPARE(upstream.value(QStringLiteral("upstream")).toString(), QStringLiteral("second"));
        QVERIFY(upstream.value(QStringLiteral("tried")).toArray().isEmpty());
        QCOMPARE(m_first->totalSales(), firstRequests);
        expectSentOnce(*m_second, upstream.value(QStringLiteral("reference_id")).toString());
    }

    void eachUpstreamSpeaksOnlyForItsOwnSales()
    {
        m_second->setOutcome(SpecAggregator::Outcome::PendingThenSuccess);
        m_second->setAutomaticWebhooks(false);
        const qint64 id = m_shop.sell(kMobile, mobile(QStringLiteral("9876543214"), QStringLiteral("RJ")));
        QVERIFY(id > 0);
        QTRY_COMPARE_WITH_TIMEOUT(upstreamOf(m_shop.sale(id)).value(QStringLiteral("state")).toString(),
                                  QStringLiteral("pending"), kSettleMs);
        const QString reference = upstreamOf(m_shop.sale(id)).value(QStringLiteral("reference_id")).toString();
        const auto hook = [this](const QString &path, const QByteArray &body) {
            return m_shop.http().send("POST", m_shop.url(path), body, {{"Content-Type", "application/json"}}).status;
        };
        // The first upstream, with its own right password, about the second's sale: not its sale.
        QCOMPARE(hook(QStringLiteral("/hooks/upstream/first"),
                      mobileWebhookBody(QStringLiteral("first-pass"), reference, QStringLiteral("FAILED"), 4242)),
                 404);
        // The second's path with the first's password; an upstream nobody configured.
        QCOMPARE(hook(QStringLiteral("/hooks/upstream/second"),
                      mobileWebhookBody(QStringLiteral("first-pass"), reference, QStringLiteral("FAILED"), 4242)),
                 401);
        QCOMPARE(hook(QStringLiteral("/hooks/upstream/third"),
                      mobileWebhookBody(QStringLiteral("first-pass"), reference, QStringLiteral("FAILED"), 4242)),
                 401);
        QCOMPARE(statusOf(m_shop.sale(id)), QStringLiteral("PENDING"));
        // Its own upstream's webhook ends it.
        QVERIFY(m_second->sendWebhook(reference, QStringLiteral("SUCCESS")));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(m_shop.sale(id)), QStringLiteral("SUCCESS"), kSettleMs);
        m_second->setAutomaticWebhooks(true);
    }

    void badSettingsAreRefusedAndChangeNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonObject>("change");
        QTest::addColumn<QString>("field");
        QTest::newRow("name") << QStringLiteral("Not_A_Name") << QJsonObject() << QStringLiteral("name");
        QTest::newRow("priority") << QStringLiteral("first") << QJsonObject{{QStringLiteral("priority"), 5000}}
                                  << QStringLiteral("priority");
        QTest::newRow("service") << QStringLiteral("first")
                                 << QJsonObject{{QStringLiteral("services"), QJsonArray{QStringLiteral("sms")}}}
                                 << QStringLiteral("services");
        QTest::newRow("operator") << QStringLiteral("first")
                                  << QJsonObject{{QStringLiteral("operators"), QJsonArray{QStringLiteral("XX")}}}
                                  << QStringLiteral("operators");
        QTest::newRow("services not a list")
            << QStringLiteral("first") << QJsonObject{{QStringLiteral("services"), QStringLiteral("mobile")}}
            << QStringLiteral("services");
        QTest::newRow("credential and key") << QStringLiteral("first")
                                            << QJsonObject{{QStringLiteral("key_id"), QStringLiteral("k")},
                                                           {QStringLiteral("key_secret"), QStringLiteral("s")}}
                                            << QStringLiteral("credential");
    }
    void badSettingsAreRefusedAndChangeNothing()
    {
        QFETCH(QString, name);
        QFETCH(QJsonObject, change);
        QFETCH(QString, field);
        QJsonObject body{{QStringLiteral("base_url"), m_first->baseUrl().toString()},
                         {QStringLiteral("credential"), QStringLiteral("ak_first_credential")}};
        for (auto it = change.begin(); it != change.end(); ++it)
            body.insert(it.key(), it.value());
        const HttpResult r = putUpstream(name, body, m_shop.liveAdmin());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.error().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(upstreamNames(), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
        const QJsonObject first = m_shop.http()
                                      .get(m_shop.url(QStringLiteral("/api/v1/upstreams")), m_shop.liveAdmin())
                                      .data()
                                      .value(QStringLiteral("items"))
                                      .toArray()
                                      .at(0)
                                      .toObject();
        QCOMPARE(first.value(QStringLiteral("priority")).toInt(), 10);
    }

    void onlyALiveAdminChangesThem()
    {
        const QJsonObject body{{QStringLiteral("base_url"), m_first->baseUrl().toString()},
                               {QStringLiteral("credential"), QStringLiteral("x")}};
        QCOMPARE(putUpstream(QStringLiteral("third"), body, m_shop.livePos()).status, 403);
        QCOMPARE(m_shop.http()
                     .send("DELETE", m_shop.url(QStringLiteral("/api/v1/upstreams/third")), {},
                           {{"Authorization", m_shop.liveAdmin()}})
                     .status,
                 404);
        QCOMPARE(upstreamNames(), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
    }
};

QTEST_GUILESS_MAIN(TestSeveralUpstreams)
#include "tst_severalupstreams.moc"
