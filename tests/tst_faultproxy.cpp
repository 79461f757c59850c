// The fault-injecting proxy of the chain tests (tests/support/faultproxy.h) against a small HTTP server: each mode
// does what it says, and keep-alive connections carry several requests. Issue 11, "Tests".
#include "faultproxy.h"
#include "httpclient.h"
#include "testreceiver.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>

namespace {

const QByteArray kBody = R"({"phone_number":"9876543210"})";

QByteArray rawPost(const QByteArray &path)
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
           QByteArray::number(kBody.size()) + "\r\n\r\n" + kBody;
}

} // namespace

class TestFaultProxy final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestReceiver> m_target;
    std::unique_ptr<FaultProxy> m_proxy;
    HttpClient m_http;

    QUrl viaProxy(const QString &path = QStringLiteral("/hook")) const
    {
        QUrl url = m_proxy->url();
        url.setPath(path);
        return url;
    }
    HttpResult post() { return m_http.postJson(viaProxy(), QJsonObject{{QStringLiteral("n"), 1}}); }
    qsizetype targetHits() const { return m_target->requests().size(); }

private slots:
    void init()
    {
        m_target = std::make_unique<TestReceiver>();
        m_proxy = std::make_unique<FaultProxy>(QHostAddress::LocalHost, m_target->port());
        QString error;
        QVERIFY2(m_proxy->listen(&error), qPrintable(error));
    }
    void cleanup()
    {
        m_proxy.reset();
        m_target.reset();
    }

    // Pass: every request reaches the target and its answer comes back; one client connection carries them all.
    void passForwardsEveryRequestOnOneConnection()
    {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(post().status, 200);
        QCOMPARE(targetHits(), 3);
        QCOMPARE(m_proxy->count(FaultProxy::Mode::Pass), 3);
        QCOMPARE(m_proxy->answeredByTarget(), 3);
        QCOMPARE(m_proxy->connections(), 1);
        QCOMPARE(m_target->requests().constLast().body, QByteArray(R"({"n":1})"));
    }

    // Two requests written at once on one connection (pipelined) are framed by Content-Length: two answers.
    void pipelinedRequestsAreFramedByContentLength()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(rawPost("/a") + rawPost("/b"));
        QByteArray answers;
        QTRY_VERIFY((answers += socket.readAll()).count("HTTP/1.1 200") == 2);
        QCOMPARE(targetHits(), 2);
        QCOMPARE(m_target->requests().at(0).path, QByteArray("/a"));
        QCOMPARE(m_target->requests().at(1).path, QByteArray("/b"));
        QCOMPARE(m_target->requests().at(1).body, kBody);
    }

    // Down: new connections and requests on an open keep-alive connection get no answer and reach nothing;
    // back in Pass, requests go through again.
    void downAnswersNothingUntilLifted()
    {
        QCOMPARE(post().status, 200); // leaves a keep-alive connection open
        m_proxy->setMode(FaultProxy::Mode::Down);
        const HttpResult refused = post();
        QCOMPARE(refused.status, 0);
        QVERIFY(!refused.networkError.isEmpty());
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        socket.write(rawPost("/raw"));
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
        QCOMPARE(targetHits(), 1);
        QVERIFY(m_proxy->count(FaultProxy::Mode::Down) >= 2);

        m_proxy->setMode(FaultProxy::Mode::Pass);
        QCOMPARE(post().status, 200);
        QCOMPARE(targetHits(), 2);
    }

    // Slow: each request is held before it is forwarded, and still forwarded when the client has given up (as a
    // slow upstream still completes a sale the shop stopped waiting for).
    void slowHoldsEachRequestThenForwards()
    {
        m_proxy->setMode(FaultProxy::Mode::Slow, 400);
        QElapsedTimer elapsed;
        elapsed.start();
        QCOMPARE(post().status, 200);
        QVERIFY2(elapsed.elapsed() >= 400, qPrintable(QString::number(elapsed.elapsed())));
        QCOMPARE(targetHits(), 1);

        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        socket.write(rawPost("/given-up"));
        QTRY_COMPARE(m_proxy->count(FaultProxy::Mode::Slow), 2);
        QElapsedTimer held; // started once the proxy has the request, so at most 400 ms before it forwards
        held.start();
        socket.abort();
        QCOMPARE(targetHits(), 1);
        QTRY_COMPARE(targetHits(), 2);
        // The hold, measured rather than slept through (QTRY_COMPARE looks every 50 ms).
        QVERIFY2(held.elapsed() >= 300, qPrintable(QString::number(held.elapsed())));
        QCOMPARE(m_target->requests().constLast().path, QByteArray("/given-up"));
    }

    // Answer502: a 502 Bad Gateway without forwarding; the connection stays usable.
    void answer502WithoutForwarding()
    {
        m_proxy->setMode(FaultProxy::Mode::Answer502);
        const HttpResult bad = post();
        QCOMPARE(bad.status, 502);
        QVERIFY(bad.body.contains("502 Bad Gateway"));
        QCOMPARE(targetHits(), 0);
        QCOMPARE(m_proxy->count(FaultProxy::Mode::Answer502), 1);
        m_proxy->setMode(FaultProxy::Mode::Pass);
        QCOMPARE(post().status, 200);
        QCOMPARE(m_proxy->connections(), 1);
    }

    // CutAfterForward: the target gets the request and answers completely; the client gets none of it, only the
    // connection closed.
    void cutAfterForwardDropsTheCompleteAnswer()
    {
        m_proxy->setMode(FaultProxy::Mode::CutAfterForward);
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        QVERIFY(socket.waitForConnected(5000));
        socket.write(rawPost("/committed"));
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
        QCOMPARE(socket.readAll(), QByteArray());
        QCOMPARE(targetHits(), 1);
        QCOMPARE(m_target->requests().constFirst().answeredStatus, 200);
        QCOMPARE(m_proxy->answeredByTarget(), 1);
        QCOMPARE(m_proxy->count(FaultProxy::Mode::CutAfterForward), 1);

        const HttpResult cut = post(); // the same through an HTTP client: an error, never the target's answer
        QCOMPARE(cut.status, 0);
        QVERIFY(targetHits() >= 2);
    }
};

QTEST_GUILESS_MAIN(TestFaultProxy)
#include "tst_faultproxy.moc"
