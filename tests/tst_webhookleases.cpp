// Issue 16: webhook deliveries claimed with leases by several `rechargedesk serve` processes on one PostgreSQL
// database. Real server processes (support/serverprocess.h), a receiver of the test's own over raw TCP (it can hold a
// request unanswered), outbox rows written by the test. PostgreSQL only: CTest runs it as pg_webhookleases through
// tests/tools/with_postgres.sh, which skips it (exit 77) when no PostgreSQL can be started.
#include "aadhaar/aadhaarmodule.h"
#include "httpclient.h"
#include "rawhttpclient.h"
#include "serverprocess.h"
#include "teststore.h"
#include "webhooks/webhookdispatcher.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

namespace {

constexpr int kLeaseSeconds = 3; // the shortest `serve --lease-seconds` takes

/// A webhook receiver on raw TCP: records the webhook-id of every request and answers 200, or, while holding,
/// answers nothing (the sender's request stays in flight until its own timeout).
class HoldingReceiver
{
public:
    HoldingReceiver()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { read(socket); });
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/hook").arg(m_server.serverPort())); }
    void setHolding(bool holding) { m_holding = holding; }
    /// The webhook-id of every request received, in order (repeats included).
    const QList<QByteArray> &received() const { return m_received; }

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        RawHttpRequest request;
        while (takeRawRequest(buffer, request)) {
            m_received.append(request.header("webhook-id"));
            if (!m_holding)
                socket->write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<QByteArray> m_received;
    bool m_holding = false;
};

} // namespace

class TestWebhookLeases final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestStore> m_store;
    HttpClient m_http;

    /// A superuser connection of the test on the store's schema; runs `sql`, returns the first column of its first
    /// row (invalid when none); fails the test on an error.
    QVariant admin(const QString &sql)
    {
        QSqlDatabase db = QSqlDatabase::database(QStringLiteral("admin"), false);
        if (!db.isValid())
            db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
        if (!db.isOpen() && !db.open())
            qFatal("admin connection: %s", qPrintable(db.lastError().text()));
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SET search_path = ") + m_store->pgSchema()) || !query.exec(sql))
            qFatal("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
        return query.next() ? query.value(0) : QVariant();
    }

    /// Starts a server on the test's store with `dataDir` (the vault key of the first one copied in, so every
    /// server opens the endpoint's sealed secret) and the short lease.
    bool startServer(ServerProcess &server, const QString &dataDir, QString *error)
    {
        if (dataDir != m_store->path()) {
            const QString key = AadhaarModule::keyFilePath(dataDir);
            QDir().mkpath(QFileInfo(key).absolutePath());
            QFile::copy(AadhaarModule::keyFilePath(m_store->path()), key);
            QFile::setPermissions(key, QFile::ReadOwner | QFile::WriteOwner);
        }
        return server.start(dataDir,
                            {QStringLiteral("--database"), m_store->location(), QStringLiteral("--lease-seconds"),
                             QString::number(kLeaseSeconds)},
                            error);
    }

    /// Points the test-mode webhook endpoint at `url` through `server`'s API.
    void setEndpoint(ServerProcess &server, const QUrl &url)
    {
        const HttpResult r =
            m_http.send("PUT", server.url().resolved(QUrl(QStringLiteral("/api/v1/webhook-endpoint"))),
                        QJsonDocument(QJsonObject{{QStringLiteral("url"), url.toString()},
                                                  {QStringLiteral("webhook_password"), QStringLiteral("pw")}})
                            .toJson(),
                        {{"Content-Type", "application/json"},
                         {"Authorization", HttpClient::basic(server.keyId(), server.keySecret())}});
        QVERIFY2(r.status == 200 || r.status == 201, r.body.constData());
    }

    /// Writes `count` due events for the test-mode endpoint straight to the outbox (as settlements would), webhook-ids
    /// msg_lease_<n>; wakes no server: each finds them at its next look.
    void insertEvents(int count)
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        admin(QStringLiteral("INSERT INTO webhook_events (webhook_id, account_id, mode, event_type, transaction_id,"
                             " payload, status, attempts, retry_index, next_attempt_at, locked_until, last_error,"
                             " created_at) SELECT 'msg_lease_' || g, account_id, 'test', 'event.test', NULL,"
                             " '{\"entity\":\"webhook_test\"}', 'pending', 0, 0, %1, 0, '', %1"
                             " FROM webhook_endpoints, generate_series(1, %2) g WHERE mode = 'test'")
                  .arg(now)
                  .arg(count));
    }

    int eventsWith(const QString &condition)
    {
        return admin(QStringLiteral("SELECT COUNT(*) FROM webhook_events WHERE ") + condition).toInt();
    }

private slots:
    void initTestCase()
    {
        if (!TestStore::postgres())
            QSKIP("PostgreSQL only: run as pg_webhookleases (tests/tools/with_postgres.sh)");
    }
    void init() { m_store = std::make_unique<TestStore>(); }
    void cleanup()
    {
        QSqlDatabase::removeDatabase(QStringLiteral("admin"));
        m_store.reset();
    }

    /// Two live servers share one outbox: every event is claimed by one of them (FOR UPDATE SKIP LOCKED and the
    /// lease) and delivered exactly once.
    void eachEventOnceWhileBothLive()
    {
        HoldingReceiver receiver;
        QTemporaryDir secondDir;
        ServerProcess first;
        ServerProcess second;
        QString error;
        QVERIFY2(startServer(first, m_store->path(), &error), qPrintable(error));
        QVERIFY2(startServer(second, secondDir.path(), &error), qPrintable(error));
        setEndpoint(first, receiver.url());
        constexpr int kEvents = 300;
        insertEvents(kEvents);
        QTRY_COMPARE_WITH_TIMEOUT(eventsWith(QStringLiteral("status = 'delivered'")), kEvents, 60'000);
        QCOMPARE(receiver.received().size(), kEvents);
        QCOMPARE(QSet<QByteArray>(receiver.received().cbegin(), receiver.received().cend()).size(), kEvents);
        QCOMPARE(admin(QStringLiteral("SELECT COUNT(*) FROM webhook_attempts")).toInt(), kEvents);
        QCOMPARE(first.terminate(), 0);
        QCOMPARE(second.terminate(), 0);
    }

    /// A server whose deliveries take longer than the lease keeps its claims (it renews them): the other live
    /// server does not take them. Once it stops delivering (SIGSTOP: its process and its database connection stay,
    /// so only the lease can free its claims), the other one delivers them within the lease time.
    void slowServerKeepsItsClaimsAndAStoppedOneLosesThem()
    {
        HoldingReceiver receiver;
        receiver.setHolding(true);
        QTemporaryDir secondDir;
        ServerProcess first;
        ServerProcess second;
        QString error;
        QVERIFY2(startServer(first, m_store->path(), &error), qPrintable(error));
        setEndpoint(first, receiver.url());
        // A full lane: the first server claims them all at once, and does not look at the lane again while it is
        // full (so it cannot simply claim its own lapsed leases anew: only renewing keeps them).
        constexpr int kEvents = WebhookDispatcher::kLaneCapacity;
        insertEvents(kEvents);
        QTRY_VERIFY_WITH_TIMEOUT(receiver.received().size() >= 1, 15'000);
        QTRY_COMPARE_WITH_TIMEOUT(eventsWith(QStringLiteral("locked_by <> 0")), kEvents, 15'000);
        const qint64 owner = admin(QStringLiteral("SELECT MIN(locked_by) FROM webhook_events")).toLongLong();
        QCOMPARE(eventsWith(QStringLiteral("locked_by = %1").arg(owner)), kEvents);
        const qsizetype inFlight = receiver.received().size();

        QVERIFY2(startServer(second, secondDir.path(), &error), qPrintable(error));
        // For longer than two leases, shorter than the first server's 15-s request timeout (its requests stay in
        // flight), the first server's claims never lapse (it renews them while they are in memory) and the second
        // server sends nothing.
        const QDeadlineTimer watch(2 * kLeaseSeconds * 1000 + 1500);
        int looks = 0;
        while (!watch.hasExpired()) {
            QTest::qWait(100); // the receiver answers on this thread
            const int leased = eventsWith(QStringLiteral("locked_by = %1 AND locked_until > %2")
                                              .arg(owner)
                                              .arg(QDateTime::currentMSecsSinceEpoch()));
            QCOMPARE(leased, kEvents);
            ++looks;
        }
        QVERIFY(looks > 10);
        QCOMPARE(receiver.received().size(), inFlight);

        // The first server stops delivering, its connection (and advisory lock) alive.
        QVERIFY(::kill(pid_t(first.processId()), SIGSTOP) == 0);
        receiver.setHolding(false);
        QElapsedTimer sinceStop;
        sinceStop.start();
        QTRY_COMPARE_WITH_TIMEOUT(eventsWith(QStringLiteral("status = 'delivered'")), kEvents,
                                  4 * kLeaseSeconds * 1000);
        qInfo("taken over and delivered %lld ms after the first server stopped (lease %d s)",
              qint64(sinceStop.elapsed()), kLeaseSeconds);
        QVERIFY(sinceStop.elapsed() <= (kLeaseSeconds + 3) * 1000);
        const QList<QByteArray> all = receiver.received();
        QCOMPARE(QSet<QByteArray>(all.cbegin(), all.cend()).size(), kEvents); // every one, a repeat at most

        first.kill(); // SIGKILL ends a stopped process too
        QCOMPARE(second.terminate(), 0);
    }
};

QTEST_GUILESS_MAIN(TestWebhookLeases)
#include "tst_webhookleases.moc"
