#include "plans/plancatalogue.h"
#include "plans/plancataloguestore.h"
#include "plans/plansync.h"
#include "services/walletservice.h"
#include "support/catalogues.h"
#include "support/faultproxy.h"
#include "support/serverprocess.h"
#include "support/specaggregator.h"
#include "support/testserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <memory>

namespace {

const QString kLookup = QStringLiteral("/api/v1/plans/mobile/prepaid-plans");
const QString kCatalogue = QStringLiteral("/api/v1/plans/catalogue");

/// A stand-in upstream that answers endpoint 4 from the built-in catalogue (with ETag and 304), changed when told
/// (remarkPrefix), and can be told to fail single pairs: "500", "badjson", "badplan" (an amount beyond the
/// operator's limit) or "429" (once, with Retry-After: 1). Counts the requests.
class PlanStub
{
public:
    PlanStub() : m_catalogue(PlanCatalogue::builtIn(m_operators))
    {
        m_http.route(QStringLiteral("/api/v1/plans/mobile/prepaid-plans"), QHttpServerRequest::Method::Post,
                     [this](const QHttpServerRequest &request) { return answer(request); });
        m_port = m_http.listen(QHostAddress::LocalHost, 0);
    }

    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m_port); }

    QHash<QString, QString> faults; ///< "ATDL" -> "500", "badjson", "badplan", "429"
    QByteArray remarkPrefix;        ///< put before every plan's remark (plans that changed); empty: none
    int requests = 0;
    int notModified = 0;
    QHash<QString, QList<qint64>> arrivals; ///< per pair, ms of a steady clock

private:
    QHttpServerResponse answer(const QHttpServerRequest &request)
    {
        ++requests;
        const QJsonObject body = QJsonDocument::fromJson(request.body()).object();
        const QString op = body.value(QStringLiteral("operator_code")).toString();
        const QString circle = body.value(QStringLiteral("circle_code")).toString();
        const QString key = op + circle;
        arrivals[key].append(m_steady.elapsed());
        const QString fault = faults.value(key);
        if (fault == QLatin1String("500"))
            return QHttpServerResponse(
                "application/json",
                R"({"error":{"code":"SERVER_ERROR","description":"plans database down","reason":"internal"}})",
                QHttpServerResponse::StatusCode::InternalServerError);
        if (fault == QLatin1String("badjson"))
            return QHttpServerResponse("application/json", "{\"data\": {\"categories\": [",
                                       QHttpServerResponse::StatusCode::Ok);
        if (fault == QLatin1String("429") && arrivals.value(key).size() == 1) {
            QHttpServerResponse response("application/json", R"({"error":{"description":"slow down"}})",
                                         QHttpServerResponse::StatusCode::TooManyRequests);
            response.setHeader("Retry-After", "1");
            return response;
        }
        const PlanResponse *plans = m_catalogue->find(op, circle);
        if (!plans)
            return QHttpServerResponse(QHttpServerResponse::StatusCode::NotFound);
        QByteArray out = plans->body;
        if (fault == QLatin1String("badplan"))
            out.replace("\"amount\":", "\"amount\":9");
        if (!remarkPrefix.isEmpty())
            out.replace("\"remark\":\"", QByteArray(QByteArray("\"remark\":\"") + remarkPrefix));
        const QByteArray etag =
            fault == QLatin1String("badplan") || !remarkPrefix.isEmpty() ? QByteArray("\"changed\"") : plans->etag;
        if (request.value("If-None-Match") == etag) {
            ++notModified;
            QHttpServerResponse response(QHttpServerResponse::StatusCode::NotModified);
            response.setHeader("ETag", etag);
            return response;
        }
        QHttpServerResponse response("application/json", out, QHttpServerResponse::StatusCode::Ok);
        response.setHeader("ETag", etag);
        return response;
    }

    OperatorCatalog m_operators = OperatorCatalog::builtIn();
    std::shared_ptr<const PlanCatalogue> m_catalogue;
    QHttpServer m_http;
    quint16 m_port = 0;
    QElapsedTimer m_steady = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
};

} // namespace

/// Plans from the upstream (issue 13): a shop copies its upstream's plan catalogue with `plans sync` and its
/// daily job (ApiServer::startPlanSync), against a distributor (an ordinary server in test mode) and a stub
/// upstream that fails single pairs.
class TestPlanSync : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_shop;
    QByteArray m_shopLiveAdmin;

    HttpResult configure(const QString &baseUrl, const QString &keyId, const QString &secret)
    {
        const QJsonObject body{{QStringLiteral("base_url"), baseUrl},
                               {QStringLiteral("key_id"), keyId},
                               {QStringLiteral("key_secret"), secret}};
        return m_shop->http().send("PUT", m_shop->url(QStringLiteral("/api/v1/upstream")),
                                   QJsonDocument(body).toJson(QJsonDocument::Compact),
                                   {{"Authorization", m_shopLiveAdmin}, {"Content-Type", "application/json"}});
    }

    /// The shop's upstream set to a spec-only aggregator with its dashboard credential (sent verbatim).
    HttpResult configureCredential(const QString &baseUrl, const QString &credential)
    {
        const QJsonObject body{{QStringLiteral("base_url"), baseUrl}, {QStringLiteral("credential"), credential}};
        return m_shop->http().send("PUT", m_shop->url(QStringLiteral("/api/v1/upstream")),
                                   QJsonDocument(body).toJson(QJsonDocument::Compact),
                                   {{"Authorization", m_shopLiveAdmin}, {"Content-Type", "application/json"}});
    }

    HttpResult lookup(TestServer &server, const QString &op = QStringLiteral("AT"),
                      const QString &circle = QStringLiteral("DL"))
    {
        return server.http().postJson(
            server.url(kLookup),
            QJsonObject{{QStringLiteral("operator_code"), op}, {QStringLiteral("circle_code"), circle}}, server.pos());
    }

    QJsonObject metadata() { return m_shop->http().get(m_shop->url(kCatalogue), m_shop->pos()).data(); }

    static int firstAmount(const HttpResult &plans)
    {
        return plans.data()
            .value(QStringLiteral("categories"))[0]
            .toObject()
            .value(QStringLiteral("items"))[0]
            .toObject()
            .value(QStringLiteral("amount"))
            .toInt();
    }

    /// The shop's daily job, run now; the report it ends with.
    PlanSyncReport syncNow()
    {
        PlanSync *sync = m_shop->server().planSync();
        if (!sync)
            qFatal("the shop has no plan sync");
        QSignalSpy done(sync, &PlanSync::finished);
        if (!m_shop->server().startPlanSync())
            qFatal("the plan sync did not start");
        if (!done.wait(60'000))
            qFatal("the plan sync did not finish");
        return done.at(0).at(0).value<PlanSyncReport>();
    }

    /// `rechargedesk plans sync` on the shop's store; spins the event loop (the upstream lives in this process).
    std::pair<int, QString> runSyncCommand()
    {
        QProcess process;
        process.start(ServerProcess::binary(), QStringList{QStringLiteral("plans"), QStringLiteral("sync"),
                                                           QStringLiteral("--gap-ms"), QStringLiteral("0")} +
                                                   m_shop->store().arguments());
        if (!process.waitForStarted(10'000))
            return {-1, process.errorString()};
        [[maybe_unused]] const bool exited =
            QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 60'000);
        return {process.exitCode(),
                QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError())};
    }

private slots:
    void initTestCase() { qRegisterMetaType<PlanSyncReport>(); }

    void init()
    {
        ServerOptions options = TestServer::defaultOptions();
        options.plansSyncGapMs = 0;
        options.upstreamTimeoutMs = 5000;
        m_shop = std::make_unique<TestServer>(options);
        m_shopLiveAdmin = m_shop->createKey(Mode::Live, Scope::Admin);
    }

    void cleanup() { m_shop.reset(); }

    void syncCopiesAChangedDistributorCatalogue()
    {
        TestServer distributor;
        const CreatedKey key = distributor.createKeyPair(Mode::Test, Scope::Pos);
        FaultProxy proxy(QHostAddress::LocalHost, distributor.server().port());
        QString error;
        QVERIFY2(proxy.listen(&error), qPrintable(error));
        const QString host = QStringLiteral("127.0.0.1:%1").arg(proxy.port());
        QCOMPARE(configure(QStringLiteral("http://%1/api/v1").arg(host), key.keyId, key.secret).status, 200);

        const HttpResult before = lookup(*m_shop);
        QCOMPARE(metadata().value(QStringLiteral("source")).toString(), QStringLiteral("shipped with the program"));
        const HttpResult imported = distributor.http().send(
            "PUT", distributor.url(kCatalogue), TestCatalogues::changedCatalogue(QStringLiteral("2099.1"), 111),
            {{"Authorization", distributor.liveAdmin()}, {"Content-Type", "application/json"}});
        QCOMPARE(imported.status, 200);
        QVERIFY(firstAmount(before) != 111);

        // `plans sync` writes the catalogue file; the running shop picks it up. (Setting the upstream read its
        // offers through the proxy: counted from here.)
        proxy.resetCounts();
        const auto [exitCode, output] = runSyncCommand();
        QVERIFY2(exitCode == 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("92 pairs updated, 0 unchanged, 0 failed (92 requests)")),
                 qPrintable(output));
        QCOMPARE(proxy.count(FaultProxy::Mode::Pass), 92); // one request per operator x circle
        QTRY_COMPARE(firstAmount(lookup(*m_shop)), 111);
        QCOMPARE(lookup(*m_shop).body, lookup(distributor).body);
        const QJsonObject synced = metadata();
        QCOMPARE(synced.value(QStringLiteral("source")).toString(), QStringLiteral("upstream ") + host);
        QCOMPARE(synced.value(QStringLiteral("upstream_host")).toString(), host);
        QCOMPARE(synced.value(QStringLiteral("plans")).toInt(), 3955);
        QVERIFY2(IstTime::parse(synced.value(QStringLiteral("updated_at")).toString()).isValid(),
                 qPrintable(synced.value(QStringLiteral("updated_at")).toString()));

        // Nothing changed at the distributor: the daily job gets 304 for every pair, and the plans stay.
        proxy.resetCounts();
        const PlanSyncReport again = syncNow();
        QVERIFY2(again.installed, qPrintable(again.error));
        QCOMPARE(again.count(PlanSyncReport::Outcome::Unchanged), 92);
        QCOMPARE(again.requests, 92);
        QCOMPARE(proxy.count(FaultProxy::Mode::Pass), 92);
        QCOMPARE(firstAmount(lookup(*m_shop)), 111);
        QCOMPARE(lookup(*m_shop).body, lookup(distributor).body);
    }

    // A pair that fails keeps the plans it had while the others update (issue 26), and the report names it.
    void brokenPairsKeepTheirPlansAndAreNamed()
    {
        PlanStub stub;
        stub.faults = {{QStringLiteral("ATDL"), QStringLiteral("500")},
                       {QStringLiteral("VIMU"), QStringLiteral("500")},
                       {QStringLiteral("BSKO"), QStringLiteral("badjson")}};
        stub.remarkPrefix = "synced ";
        QCOMPARE(configure(stub.baseUrl(), QStringLiteral("k"), QStringLiteral("s")).status, 200);
        const QByteArray atDlBefore = lookup(*m_shop, QStringLiteral("AT"), QStringLiteral("DL")).body;
        const QByteArray bsKoBefore = lookup(*m_shop, QStringLiteral("BS"), QStringLiteral("KO")).body;
        QVERIFY(!atDlBefore.contains("synced "));

        const PlanSyncReport report = syncNow();
        QVERIFY2(report.installed, qPrintable(report.error));
        QCOMPARE(report.requests, 92);
        QCOMPARE(stub.requests, 92);
        QCOMPARE(report.count(PlanSyncReport::Outcome::Updated), 89);
        const QStringList failures = report.failures();
        QCOMPARE(failures.size(), 3);
        QVERIFY2(failures.at(0).startsWith(QStringLiteral("(AT, DL): HTTP 500: plans database down")),
                 qPrintable(failures.join(QLatin1Char('\n'))));
        QVERIFY2(failures.at(1).startsWith(QStringLiteral("(VI, MU): HTTP 500")),
                 qPrintable(failures.join(QLatin1Char('\n'))));
        QVERIFY2(failures.at(2).startsWith(QStringLiteral("(BS, KO): invalid JSON")),
                 qPrintable(failures.join(QLatin1Char('\n'))));
        QCOMPARE(report.error,
                 QStringLiteral("3 of 92 pairs failed and keep the plans they had: (AT, DL), (VI, MU), (BS, KO)"));
        QCOMPARE(lookup(*m_shop, QStringLiteral("AT"), QStringLiteral("DL")).body, atDlBefore);
        QCOMPARE(lookup(*m_shop, QStringLiteral("BS"), QStringLiteral("KO")).body, bsKoBefore);
        QVERIFY(lookup(*m_shop, QStringLiteral("RJ"), QStringLiteral("AP")).body.contains("synced "));
        QCOMPARE(metadata().value(QStringLiteral("upstream_host")).toString(), QUrl(stub.baseUrl()).authority());

        // The command says the same (the others unchanged since: 304) and fails, so that a person looks.
        const auto [exitCode, output] = runSyncCommand();
        QCOMPARE(exitCode, 1);
        QVERIFY2(output.contains(QStringLiteral("0 pairs updated, 89 unchanged, 3 failed")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("failed (BS, KO): invalid JSON")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("3 of 92 pairs failed and keep the plans they had")),
                 qPrintable(output));
        QVERIFY(QFile::exists(PlanCatalogueStore::catalogueFile(m_shop->dataDir())));
        QTRY_VERIFY(lookup(*m_shop, QStringLiteral("VI"), QStringLiteral("AP")).body.contains("synced "));
        QCOMPARE(lookup(*m_shop, QStringLiteral("AT"), QStringLiteral("DL")).body, atDlBefore);
    }

    void everyPairFailingInstallsNothing()
    {
        QTcpServer probe; // an upstream address nobody listens on
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString dead = QStringLiteral("http://127.0.0.1:%1/api/v1").arg(probe.serverPort());
        probe.close();
        QCOMPARE(configure(dead, QStringLiteral("k"), QStringLiteral("s")).status, 200);
        const QJsonObject metadataBefore = metadata();
        const PlanSyncReport report = syncNow();
        QVERIFY(!report.installed);
        QCOMPARE(report.count(PlanSyncReport::Outcome::Failed), 92);
        QCOMPARE(report.error, QStringLiteral("every pair failed; the catalogue in force is kept"));
        QVERIFY2(report.failures().at(0).startsWith(QStringLiteral("(AT, AP): no answer: ")),
                 qPrintable(report.failures().at(0)));
        QCOMPARE(metadata(), metadataBefore);
    }

    // Plans that are invalid fail their pair only, as the importer would refuse them; the pair keeps its plans.
    void invalidPlansFailTheirPairAsTheImporterDoes()
    {
        PlanStub stub;
        stub.faults = {{QStringLiteral("RJAP"), QStringLiteral("badplan")}};
        QCOMPARE(configure(stub.baseUrl(), QStringLiteral("k"), QStringLiteral("s")).status, 200);
        const QByteArray rjApBefore = lookup(*m_shop, QStringLiteral("RJ"), QStringLiteral("AP")).body;
        const PlanSyncReport report = syncNow();
        QVERIFY2(report.installed, qPrintable(report.error));
        QCOMPARE(report.failures().size(), 1);
        QVERIFY2(report.failures().at(0).contains(QStringLiteral("(RJ, AP): invalid plans: entries[")) &&
                     report.failures().at(0).contains(QStringLiteral("amount: must be an integer within 10..4999")),
                 qPrintable(report.failures().join(QLatin1Char('\n'))));
        QCOMPARE(report.count(PlanSyncReport::Outcome::Updated), 91);
        QCOMPARE(report.error, QStringLiteral("1 of 92 pairs failed and keep the plans they had: (RJ, AP)"));
        QCOMPARE(lookup(*m_shop, QStringLiteral("RJ"), QStringLiteral("AP")).body, rjApBefore);
    }

    // Against the stand-in aggregator (issue 26): its plan ids 1..5 repeat in every operator and circle, which is all
    // the spec implies; every pair is installed.
    void specAggregatorPlansInstallThoughIdsRepeat()
    {
        SpecAggregator aggregator(QStringLiteral("dashboard-credential-plans"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QCOMPARE(
            configureCredential(aggregator.baseUrl().toString(), QStringLiteral("dashboard-credential-plans")).status,
            200);
        const PlanSyncReport report = syncNow();
        QVERIFY2(report.installed, qPrintable(report.error));
        QVERIFY(report.error.isEmpty());
        QCOMPARE(report.count(PlanSyncReport::Outcome::Updated), 92);
        QCOMPARE(aggregator.requestsTo(QStringLiteral("/api/v1/plans/mobile/prepaid-plans")), 92);
        const QJsonObject synced = metadata();
        QCOMPARE(synced.value(QStringLiteral("plans")).toInt(), 92 * 5);
        QCOMPARE(synced.value(QStringLiteral("upstream_host")).toString(), aggregator.baseUrl().authority());
        for (const auto &[op, circle] : {std::pair{"AT", "AP"}, std::pair{"RJ", "WB"}}) {
            const HttpResult plans = lookup(*m_shop, QLatin1String(op), QLatin1String(circle));
            QCOMPARE(plans.status, 200);
            const QJsonObject popular = plans.data().value(QStringLiteral("categories"))[0].toObject();
            QCOMPARE(popular.value(QStringLiteral("name")).toString(), QStringLiteral("Popular"));
            QCOMPARE(popular.value(QStringLiteral("items"))[0].toObject().value(QStringLiteral("plan_id")).toInt(), 1);
        }
    }

    // The aggregator fails one operator and circle: that pair keeps the plans it had (here the shipped ones) while the
    // other 91 update, and the report names it; once the pair answers again it updates too.
    void specAggregatorFailingPairKeepsItsPlans()
    {
        SpecAggregator aggregator(QStringLiteral("dashboard-credential-plans"));
        QString error;
        QVERIFY2(aggregator.listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
        QCOMPARE(
            configureCredential(aggregator.baseUrl().toString(), QStringLiteral("dashboard-credential-plans")).status,
            200);
        const HttpResult viMuBefore = lookup(*m_shop, QStringLiteral("VI"), QStringLiteral("MU"));
        const qsizetype shippedViMuPlans = viMuBefore.body.count("\"plan_id\"");
        QVERIFY(shippedViMuPlans > 5);
        aggregator.failPlans(QStringLiteral("VI"), QStringLiteral("MU"));

        const PlanSyncReport report = syncNow();
        QVERIFY2(report.installed, qPrintable(report.error));
        QCOMPARE(report.count(PlanSyncReport::Outcome::Updated), 91);
        QCOMPARE(report.failures(),
                 QStringList{QStringLiteral("(VI, MU): HTTP 500: Plans are not available for this circle")});
        QCOMPARE(report.error, QStringLiteral("1 of 92 pairs failed and keep the plans they had: (VI, MU)"));
        QCOMPARE(lookup(*m_shop, QStringLiteral("VI"), QStringLiteral("MU")).body, viMuBefore.body);
        QCOMPARE(lookup(*m_shop, QStringLiteral("VI"), QStringLiteral("DL")).body.count("\"plan_id\""), 5);
        QCOMPARE(metadata().value(QStringLiteral("plans")).toInt(), 91 * 5 + shippedViMuPlans);

        aggregator.failPlans(QString(), QString());
        const PlanSyncReport again = syncNow();
        QVERIFY2(again.installed && again.error.isEmpty(), qPrintable(again.error));
        QCOMPARE(again.count(PlanSyncReport::Outcome::Updated), 92);
        QCOMPARE(lookup(*m_shop, QStringLiteral("VI"), QStringLiteral("MU")).body.count("\"plan_id\""), 5);
        QCOMPARE(metadata().value(QStringLiteral("plans")).toInt(), 92 * 5);
    }

    void rateLimitRetryAfterIsHonoured()
    {
        PlanStub stub;
        stub.faults = {{QStringLiteral("VIDL"), QStringLiteral("429")}};
        QCOMPARE(configure(stub.baseUrl(), QStringLiteral("k"), QStringLiteral("s")).status, 200);
        const PlanSyncReport report = syncNow();
        QVERIFY2(report.installed, qPrintable(report.error));
        QCOMPARE(report.requests, 93); // the one retry on top of 92
        const QList<qint64> arrivals = stub.arrivals.value(QStringLiteral("VIDL"));
        QCOMPARE(arrivals.size(), 2);
        QVERIFY2(arrivals.at(1) - arrivals.at(0) >= 1000, qPrintable(QString::number(arrivals.at(1) - arrivals.at(0))));
        QCOMPARE(report.count(PlanSyncReport::Outcome::Updated), 92);

        // A second sync with nothing changed: 304 for every pair.
        const PlanSyncReport again = syncNow();
        QVERIFY2(again.installed, qPrintable(again.error));
        QCOMPARE(stub.notModified, 92);
        QCOMPARE(again.count(PlanSyncReport::Outcome::Unchanged), 92);
    }

    void withoutAnUpstreamNothingRuns()
    {
        QVERIFY(!m_shop->server().startPlanSync());
        const auto [exitCode, output] = runSyncCommand();
        QCOMPARE(exitCode, 1);
        QVERIFY2(output.contains(QStringLiteral("rechargedesk: no upstream")) &&
                     output.contains(QStringLiteral("is configured (rechargedesk upstream set)")),
                 qPrintable(output));
    }

    void servePlansSyncAtIsChecked()
    {
        QProcess serve;
        serve.start(ServerProcess::binary(),
                    QStringList{QStringLiteral("serve"), QStringLiteral("--plans-sync-at"), QStringLiteral("4:75")} +
                        m_shop->store().arguments());
        QVERIFY(serve.waitForFinished(30'000));
        QCOMPARE(serve.exitCode(), 2);
        QVERIFY(serve.readAllStandardError().contains("--plans-sync-at must be HH:MM (IST) or off"));
    }

    void dailyTimeIsIst()
    {
        // 2026-01-10 22:00 UTC is 03:30 IST on the 11th: 04:30 IST is one hour later.
        const QDateTime now(QDate(2026, 1, 10), QTime(22, 0), Qt::UTC);
        QCOMPARE(DailyTimer::msUntil(now, QTime(4, 30)), qint64(3600'000));
        // Just past it: tomorrow.
        QCOMPARE(DailyTimer::msUntil(now.addSecs(3600), QTime(4, 30)), qint64(24 * 3600'000));
    }
};

QTEST_GUILESS_MAIN(TestPlanSync)
#include "tst_plansync.moc"
