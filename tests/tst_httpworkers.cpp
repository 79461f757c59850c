// Issue 17: HTTP on worker threads (HttpWorkerPool, serve --http-threads). The workers answer the plans lookup and a
// finished sale's status check themselves, from memory; everything they cannot answer exactly as the server thread
// would (a key not verified lately, a session token, a sale not kept) goes to the server thread. The connection caps
// hold for all workers together. The API suites run again with workers as ctest's threads_* tests.
#include "auth/apikeyservice.h"
#include "auth/authenticator.h"
#include "http/apirouter.h"
#include "rawhttpclient.h"
#include "testserver.h"

#include <QJsonObject>
#include <QtTest>

namespace {
const QString kInitiate = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");
const QString kTransactions = QStringLiteral("/api/v1/transactions/");
const QString kPlans = QStringLiteral("/api/v1/plans/mobile/prepaid-plans");

ServerOptions withWorkers(int threads = 2)
{
    ServerOptions options = TestServer::defaultOptions();
    options.httpThreads = threads;
    return options;
}

QDateTime fixedStart()
{
    return QDateTime(QDate(2026, 11, 24), QTime(6, 0), Qt::UTC);
}
} // namespace

class TestHttpWorkers : public QObject
{
    Q_OBJECT

private:
    /// A ₹10 Airtel SUCCESS sale through `server` with `key`; its id.
    static qint64 sell(TestServer &server, const QByteArray &key)
    {
        const HttpResult r =
            server.http().postJson(server.url(kInitiate),
                                   QJsonObject{{QStringLiteral("phone_number"), QStringLiteral("9876543210")},
                                               {QStringLiteral("amount"), 10},
                                               {QStringLiteral("operator_code"), QStringLiteral("AT")}},
                                   key);
        if (r.status != 200)
            qWarning("sale failed: %d %s", r.status, r.body.constData());
        return r.data().value(QStringLiteral("transaction_id")).toInteger();
    }
    static HttpResult check(TestServer &server, qint64 id, const QByteArray &key, const QByteArray &session = {})
    {
        return server.http().sendJson("GET", server.url(kTransactions + QString::number(id)), key, {}, session);
    }
    static HttpResult plans(TestServer &server, const QByteArray &key)
    {
        return server.http().postJson(server.url(kPlans),
                                      QJsonObject{{QStringLiteral("operator_code"), QStringLiteral("AT")},
                                                  {QStringLiteral("circle_code"), QStringLiteral("DL")}},
                                      key);
    }
    static quint64 onWorkers(TestServer &server) { return server.server().router().answeredOnWorkers(); }
    static void compareAnswers(const HttpResult &a, const HttpResult &b)
    {
        QCOMPARE(a.status, b.status);
        QCOMPARE(a.body, b.body);
        for (const QByteArrayView name : {QByteArrayView("Content-Type"), QByteArrayView("Content-Length"),
                                          QByteArrayView("Cache-Control"), QByteArrayView("ETag")})
            QCOMPARE(a.header(name), b.header(name));
        QVERIFY(!a.header("X-Request-Id").isEmpty());
        QVERIFY(a.header("X-Request-Id") != b.header("X-Request-Id"));
    }

private slots:
    /// A status check and a plans lookup with a verified key are answered by a worker (the sale read on the worker's
    /// own database connection), with the same bytes and headers the server thread answers.
    void workersAnswerWhatTheServerThreadWould()
    {
        ServerOptions options = withWorkers();
        options.statusCacheEntries = 0; // every check reads the database
        TestServer server(options);
        const qint64 id = sell(server, server.pos());
        QVERIFY(id > 0);
        const quint64 before = onWorkers(server);
        // A key's first request is authorized on the server thread, which then answers it too.
        const QByteArray fresh = server.createKey(Mode::Test, Scope::Pos);
        const HttpResult fromServerThread = check(server, id, fresh);
        QCOMPARE(onWorkers(server), before);
        const HttpResult fromWorker = check(server, id, server.pos());
        QCOMPARE(onWorkers(server), before + 1);
        QCOMPARE(fromServerThread.status, 200);
        compareAnswers(fromWorker, fromServerThread);

        const QByteArray other = server.createKey(Mode::Test, Scope::Pos);
        const HttpResult plansFromServerThread = plans(server, other);
        QCOMPARE(onWorkers(server), before + 1);
        const HttpResult plansFromWorker = plans(server, other);
        QCOMPARE(onWorkers(server), before + 2);
        QCOMPARE(plansFromServerThread.status, 200);
        compareAnswers(plansFromWorker, plansFromServerThread);
    }

    /// A kept answer is sent by a worker without reading the database; an id the caller has no sale under is the
    /// server thread's 404.
    void keptAnswersAndUnknownIds()
    {
        TestServer server(withWorkers());
        const qint64 id = sell(server, server.pos());
        const quint64 before = onWorkers(server);
        const HttpResult first = check(server, id, server.pos());  // read by a worker, kept
        const HttpResult second = check(server, id, server.pos()); // from FinalRecordCache
        QCOMPARE(onWorkers(server), before + 2);
        compareAnswers(second, first);
        const HttpResult unknown = check(server, id + 1000, server.pos());
        QCOMPARE(unknown.status, 404);
        QCOMPARE(unknown.error().value(QStringLiteral("reason")).toString(), QStringLiteral("transaction_not_found"));
        QCOMPARE(onWorkers(server), before + 2);
        QTest::ignoreMessage(QtInfoMsg,
                             "status cache: 1 hits, 2 misses (hit rate 33.3 %), 1 of at most 10000 answers kept");
        server.stop();
    }

    /// Writes never run on a worker: a sale, its replay and a wallet read all go to the server thread.
    void writesGoToTheServerThread()
    {
        TestServer server(withWorkers());
        const quint64 before = onWorkers(server);
        QVERIFY(sell(server, server.pos()) > 0);
        QCOMPARE(server.http().get(server.url(QStringLiteral("/api/v1/wallet")), server.pos()).status, 200);
        QCOMPARE(onWorkers(server), before);
    }

    /// A key revoked by another server (its own database connection) is refused once this server's view of the
    /// keys version is older than Authenticator::kVersionPollMs, although its workers had the key in memory.
    void keyRevokedElsewhereIsRefusedByWorkersToo()
    {
        ManualClock clock(fixedStart());
        TestServer server(withWorkers(), &clock);
        const CreatedKey key = server.createKeyPair(Mode::Test, Scope::Pos);
        const QByteArray header = HttpClient::basic(key.keyId, key.secret);
        const qint64 id = sell(server, header);
        const quint64 before = onWorkers(server);
        QCOMPARE(check(server, id, header).status, 200);
        QCOMPARE(onWorkers(server), before + 1);

        QString error;
        const std::unique_ptr<Database> elsewhere = Database::open(server.store().location(), &error);
        QVERIFY2(elsewhere, qPrintable(error));
        QVERIFY(ApiKeyService(*elsewhere, clock).revoke(key.keyId));

        clock.advanceMs(Authenticator::kVersionPollMs);
        const HttpResult refused = check(server, id, header);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(), QStringLiteral("key_revoked"));
        QCOMPARE(onWorkers(server), before + 1);
    }

    /// A status check with a session token is decided on the server thread: a token that names no session is
    /// 401 `session_invalid` even for a sale a worker could answer.
    void sessionTokenIsCheckedOnTheServerThread()
    {
        TestServer server(withWorkers());
        const qint64 id = sell(server, server.pos());
        QCOMPARE(check(server, id, server.pos()).status, 200); // answered by a worker
        const quint64 before = onWorkers(server);
        const HttpResult refused = check(server, id, server.pos(), "no-such-session");
        QCOMPARE(refused.status, 401);
        QCOMPARE(refused.error().value(QStringLiteral("reason")).toString(), QStringLiteral("session_invalid"));
        QCOMPARE(onWorkers(server), before);
    }

    /// ServerOptions::maxConnections counts the connections of every worker together.
    void connectionCapHoldsAcrossWorkers()
    {
        ServerOptions options = withWorkers(2);
        options.maxConnections = 3;
        TestServer server(options);
        std::vector<std::unique_ptr<RawHttpClient>> clients;
        for (int i = 0; i < 8; ++i) {
            clients.push_back(std::make_unique<RawHttpClient>(server.server().port()));
            QVERIFY(clients.back()->waitForConnected());
        }
        int admitted = 0;
        int refused = 0;
        for (const std::unique_ptr<RawHttpClient> &client : clients) {
            client->send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttpResponse response;
            QVERIFY(client->waitForResponse(response));
            if (response.status == 200)
                ++admitted;
            else if (response.status == 503)
                ++refused;
        }
        QCOMPARE(admitted, 3);
        QCOMPARE(refused, 5);
    }
};

QTEST_GUILESS_MAIN(TestHttpWorkers)
#include "tst_httpworkers.moc"
