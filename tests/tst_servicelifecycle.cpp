// `rechargedesk serve` as a systemd service (issue 15, "Services"): it tells the service manager READY=1 once
// it accepts connections and STOPPING=1 on SIGTERM (sd_notify over $NOTIFY_SOCKET, Type=notify), and a SIGTERM
// while clients sell stops it cleanly: every sale it committed was answered, and after a restart its PENDING
// sales settle and the wallet equals its ledger.
#include "httpclient.h"
#include "serverprocess.h"
#include "teststore.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

namespace {

const QString kMobile = QStringLiteral("/api/v1/recharge/mobile/initiate-transaction");

/// The service manager's end of $NOTIFY_SOCKET: a Unix datagram socket bound to a path, as systemd makes one.
class NotifySocket
{
public:
    explicit NotifySocket(const QString &path) : m_path(path.toLocal8Bit())
    {
        m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        if (m_fd < 0 || size_t(m_path.size()) >= sizeof address.sun_path)
            return;
        std::copy(m_path.cbegin(), m_path.cend(), address.sun_path);
        m_bound = ::bind(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
    }
    ~NotifySocket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Q_DISABLE_COPY_MOVE(NotifySocket)

    bool isBound() const { return m_bound; }
    const QByteArray &path() const { return m_path; }
    /// Every datagram received so far, in order.
    const QList<QByteArray> &messages()
    {
        char buffer[4096];
        ssize_t n = 0;
        while ((n = ::recv(m_fd, buffer, sizeof buffer, 0)) > 0)
            m_messages.append(QByteArray(buffer, n));
        return m_messages;
    }
    /// The first message holding the line `line` (e.g. "READY=1"); empty if none came yet.
    QByteArray messageWith(const QByteArray &line)
    {
        for (const QByteArray &message : messages()) {
            if (message.split('\n').contains(line))
                return message;
        }
        return {};
    }

private:
    QByteArray m_path;
    int m_fd = -1;
    bool m_bound = false;
    QList<QByteArray> m_messages;
};

/// Sets an environment variable for the children started in this scope.
class ScopedEnvironment
{
public:
    ScopedEnvironment(const char *name, const QByteArray &value) : m_name(name) { qputenv(name, value); }
    ~ScopedEnvironment() { qunsetenv(m_name); }
    Q_DISABLE_COPY_MOVE(ScopedEnvironment)

private:
    const char *m_name;
};

QUrl urlOf(const ServerProcess &server, const QString &path, const QString &query = {})
{
    QUrl url = server.url();
    url.setPath(path);
    url.setQuery(query);
    return url;
}

} // namespace

class TestServiceLifecycle final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home; ///< RECHARGEDESK_DATA_DIR, so nothing here touches the real data directory

    struct SigtermRound
    {
        bool finished = false; ///< every client ended within the time limit
        int exitCode = -1;
        int acked = 0;
        int unanswered = 0;
    };

    /// 8 clients sell sandbox recharges of ₹49 (every other one PENDING) until 40 are answered, then the server
    /// gets SIGTERM while the other clients' requests are in flight; no client sends after that.
    static SigtermRound sellThenSigterm(ServerProcess &server, const QByteArray &auth, int round)
    {
        constexpr int kClients = 8;
        constexpr int kStopAfterAcks = 40;
        SigtermRound result;
        bool stopped = false;
        int running = kClients;
        QEventLoop loop;
        std::vector<std::unique_ptr<QNetworkAccessManager>> managers;
        for (int c = 0; c < kClients; ++c)
            managers.push_back(std::make_unique<QNetworkAccessManager>());
        std::function<void(int, int)> sell = [&](int client, int index) {
            if (stopped) {
                if (--running == 0)
                    loop.quit();
                return;
            }
            // Numbers ending 1111 stay PENDING until the settle delay; the others succeed at once.
            const QString phone = index % 2 == 0
                                      ? QStringLiteral("98765%1").arg(30001 + 3 * (round * 1000 + client * 100 + index))
                                      : QStringLiteral("9876541111");
            QNetworkRequest request(urlOf(server, kMobile));
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            request.setRawHeader("Authorization", auth);
            const QJsonObject body{
                {QStringLiteral("phone_number"), phone},
                {QStringLiteral("amount"), QStringLiteral("49")},
                {QStringLiteral("operator_code"), QStringLiteral("AT")},
                {QStringLiteral("reference_id"), QStringLiteral("term-r%1-c%2-s%3").arg(round).arg(client).arg(index)}};
            QNetworkReply *reply = managers.at(size_t(client))->post(request, QJsonDocument(body).toJson());
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply, client, index] {
                reply->deleteLater();
                if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
                    ++result.acked;
                    if (!stopped && result.acked >= kStopAfterAcks) {
                        stopped = true;
                        result.exitCode = server.terminate(); // SIGTERM, and wait for the exit
                    }
                } else {
                    ++result.unanswered;
                }
                sell(client, index + 1);
            });
        };
        for (int c = 0; c < kClients; ++c)
            sell(c, 0);
        QTimer::singleShot(120'000, &loop, &QEventLoop::quit);
        if (running > 0)
            loop.exec();
        result.finished = running == 0 && stopped;
        return result;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("RECHARGEDESK_DATA_DIR", m_home.path().toLocal8Bit());
    }

    // READY=1 (with the address in STATUS=) only once the port accepts connections; STOPPING=1 on SIGTERM, then
    // exit status 0.
    void notifiesReadyAndStopping()
    {
        TestStore store;
        QVERIFY(store.isValid());
        NotifySocket notify(store.filePath(QStringLiteral("notify.sock")));
        QVERIFY(notify.isBound());
        ServerProcess server;
        QString error;
        {
            ScopedEnvironment environment("NOTIFY_SOCKET", notify.path());
            QVERIFY2(server.start(store, {}, &error), qPrintable(error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!notify.messageWith("READY=1").isEmpty(), 10'000);
        const QByteArray ready = notify.messageWith("READY=1");
        const QByteArray status = "STATUS=Listening on " + server.url().toString().toUtf8() + "/api/v1";
        QVERIFY2(ready.split('\n').contains(status), ready.constData());
        // Ready means accepting: a connection made now succeeds.
        QTcpSocket probe;
        probe.connectToHost(server.url().host(), quint16(server.url().port()));
        QVERIFY(probe.waitForConnected(5'000));
        probe.close();
        QVERIFY(notify.messageWith("STOPPING=1").isEmpty());

        QCOMPARE(server.terminate(), 0);
        const QByteArray stopping = notify.messageWith("STOPPING=1");
        QVERIFY2(!stopping.isEmpty(), notify.messages().join("|").constData());
        QVERIFY(notify.messages().indexOf(stopping) > notify.messages().indexOf(ready));
    }

    // Without $NOTIFY_SOCKET (started by hand, not by systemd) serve runs as before.
    void runsWithoutNotifySocket()
    {
        TestStore store;
        QVERIFY(store.isValid());
        qunsetenv("NOTIFY_SOCKET");
        ServerProcess server;
        QString error;
        QVERIFY2(server.start(store, {}, &error), qPrintable(error));
        QCOMPARE(HttpClient().get(urlOf(server, QStringLiteral("/healthz"))).status, 200);
        QCOMPARE(server.terminate(), 0);
    }

    // SIGTERM while 8 clients sell (half of the sales PENDING), three times over: the server exits 0 each time, every
    // sale it stored was answered (none cut between commit and answer), and after a restart the PENDING ones settle
    // and the wallet equals its ledger.
    void sigtermWhileSellingThenRestart()
    {
        const QStringList settleSlowly{QStringLiteral("--settle-delay-ms"), QStringLiteral("1500")};
        TestStore store;
        QVERIFY(store.isValid());
        const QByteArray auth = ServerProcess::createTestAdminKey(store);
        QVERIFY(!auth.isEmpty());
        QString error;
        int acked = 0;
        for (int round = 0; round < 3; ++round) {
            ServerProcess server;
            QVERIFY2(server.start(store, settleSlowly, &error), qPrintable(error));
            const SigtermRound result = sellThenSigterm(server, auth, round);
            QVERIFY(result.finished);
            QCOMPARE(result.exitCode, 0);
            acked += result.acked;
            qInfo("round %d: %d sales answered, %d requests not answered around the SIGTERM", round, result.acked,
                  result.unanswered);
            // Every stored sale was answered: a clean stop cuts no request between its commit and its answer.
            QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM transactions")), qint64(acked));
        }
        QVERIFY(store.scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'PENDING'")) > 0);

        ServerProcess restarted;
        QVERIFY2(restarted.start(store, settleSlowly, &error), qPrintable(error));
        HttpClient http;
        const auto pending = [&] {
            return http
                .get(urlOf(restarted, QStringLiteral("/api/v1/transactions"),
                           QStringLiteral("status=PENDING&limit=100")),
                     auth)
                .data()
                .value(QStringLiteral("items"))
                .toArray()
                .size();
        };
        QTRY_COMPARE_WITH_TIMEOUT(pending(), 0, 30'000);
        QCOMPARE(restarted.terminate(), 0);
        QCOMPARE(store.scalar(QStringLiteral("SELECT COUNT(*) FROM transactions WHERE status = 'SUCCESS'")),
                 qint64(acked));
        QCOMPARE(store.scalar(QStringLiteral(
                     "SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(l.amount), 0)"
                     " FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)")),
                 0);
    }
};

QTEST_GUILESS_MAIN(TestServiceLifecycle)
#include "tst_servicelifecycle.moc"
