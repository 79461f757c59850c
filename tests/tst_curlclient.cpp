// The upstream's wire (CurlClient, on libcurl driven by this thread's event loop): what it promises for money — a
// request on a connection of its own reaches the server once, also when that connection is cut before the answer —
// its time limit, connection re-use, answers read in full, and that `done` runs exactly once and never inside send().
// Against a raw TCP server on port 0 that counts connections and requests.

#include "http/curlclient.h"
#include "rawhttpclient.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <optional>

namespace {

/// An HTTP/1.1 server that reads whole requests (head and Content-Length body) and does what `mode` says.
class RawServer final : public QObject
{
public:
    enum class Mode
    {
        Answer,   ///< 200 with `body`, the connection kept alive
        Silent,   ///< reads the request and never answers
        CutAfter, ///< reads the request and closes the connection without a byte of answer
    };

    Mode mode = Mode::Answer;
    QByteArray body = "{\"ok\":true}";
    QByteArray extraHeaders; ///< added to the answer's head, "Name: value\r\n" each
    int connections = 0;
    QList<QByteArray> requests; ///< each request's head and body as received

    RawServer()
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qFatal("cannot listen");
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QByteArray url(const char *path = "/x") const
    {
        return "http://127.0.0.1:" + QByteArray::number(m_server.serverPort()) + path;
    }

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        RawHttpRequest request;
        while (takeRawRequest(buffer, request)) {
            requests.append(request.bytes);
            if (mode == Mode::CutAfter) {
                socket->abort();
                return;
            }
            if (mode == Mode::Answer)
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extraHeaders +
                              "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

CurlClient::Request post(const QByteArray &url, bool freshConnection = false)
{
    CurlClient::Request request;
    request.method = "POST";
    request.url = url;
    request.body = R"({"reference_id":"rd-1-1"})";
    request.headers = {"Content-Type: application/json"};
    request.timeoutMs = 5000;
    request.freshConnection = freshConnection;
    return request;
}

} // namespace

class TestCurlClient final : public QObject
{
    Q_OBJECT

    /// Sends @p request and waits for its one answer.
    static CurlClient::Response sent(CurlClient &client, CurlClient::Request request)
    {
        std::optional<CurlClient::Response> response;
        int calls = 0;
        client.send(std::move(request), [&](CurlClient::Response r) {
            ++calls;
            response = std::move(r);
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(response.has_value(), 15'000); }();
        QTest::qWait(20); // a second `done` would come now
        [&] { QCOMPARE(calls, 1); }();
        return response.value_or(CurlClient::Response{});
    }

private Q_SLOTS:
    // The answer as sent: status, body, headers (names compared without case), the request's own headers and body.
    void readsTheWholeAnswer()
    {
        RawServer server;
        server.body = QByteArray(70'000, 'x'); // more than one read
        server.extraHeaders = "ETag: \"v7\"\r\nretry-after: 3\r\n";
        CurlClient client(4);
        const CurlClient::Response response = sent(client, post(server.url()));
        QCOMPARE(response.httpStatus, 200);
        QCOMPARE(response.body, server.body);
        QVERIFY(response.error.isEmpty());
        QCOMPARE(response.header("etag"), QByteArray("\"v7\""));
        QCOMPARE(response.header("Retry-After"), QByteArray("3"));
        QCOMPARE(server.requests.size(), 1);
        const QByteArray request = server.requests.first();
        QVERIFY2(request.startsWith("POST /x HTTP/1.1\r\n"), request.constData());
        QVERIFY(request.contains("\r\nContent-Type: application/json\r\n"));
        QVERIFY2(!request.toLower().contains("expect:"), request.constData()); // no 100-continue pause
        QVERIFY(request.endsWith(R"({"reference_id":"rd-1-1"})"));
    }

    // Calls in turn share one kept-alive connection; a call on a connection of its own opens (and closes) one each.
    void keepsConnectionsAliveUnlessToldNot()
    {
        RawServer server;
        CurlClient client(4);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(sent(client, post(server.url())).httpStatus, 200);
        QCOMPARE(server.connections, 1);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(sent(client, post(server.url(), true)).httpStatus, 200);
        QCOMPARE(server.connections, 3);
        QCOMPARE(server.requests.size(), 5);
    }

    // The money rule (issue 26): a request on a connection of its own is cut after the server read it — no answer,
    // and it reached the server once. Also after a kept-alive connection was used before it.
    void freshConnectionIsSentOnceWhenCut()
    {
        RawServer server;
        CurlClient client(4);
        QCOMPARE(sent(client, post(server.url())).httpStatus, 200); // leaves a kept-alive connection behind
        server.mode = RawServer::Mode::CutAfter;
        const CurlClient::Response response = sent(client, post(server.url(), true));
        QCOMPARE(response.httpStatus, 0);
        QVERIFY(!response.error.isEmpty());
        QVERIFY(!response.timedOut);
        QCOMPARE(server.requests.size(), 2);
    }

    // No answer within the time limit: no answer, said so, not long after the limit.
    void timeLimit()
    {
        RawServer server;
        server.mode = RawServer::Mode::Silent;
        CurlClient client(4);
        CurlClient::Request request = post(server.url(), true);
        request.timeoutMs = 300;
        QElapsedTimer elapsed;
        elapsed.start();
        const CurlClient::Response response = sent(client, request);
        QVERIFY(response.timedOut);
        QCOMPARE(response.httpStatus, 0);
        QVERIFY(elapsed.elapsed() >= 290);
        QCOMPARE(server.requests.size(), 1);
    }

    // A longer answer than allowed is cut off: no answer, tooLarge.
    void answerSizeLimit()
    {
        RawServer server;
        server.body = QByteArray(5000, 'y');
        CurlClient client(4);
        CurlClient::Request request = post(server.url());
        request.maxAnswerBytes = 4999;
        const CurlClient::Response big = sent(client, request);
        QVERIFY(big.tooLarge);
        QCOMPARE(big.httpStatus, 0);
        QVERIFY(big.body.isEmpty());
        request.maxAnswerBytes = 5000;
        QCOMPARE(sent(client, request).body.size(), 5000);
    }

    // Nothing but http(s), no proxy from the environment, nothing answered inside send().
    void refusesWhatItCannotSend_data()
    {
        QTest::addColumn<QByteArray>("url");
        QTest::newRow("file") << QByteArray("file:///etc/passwd");
        QTest::newRow("ftp") << QByteArray("ftp://127.0.0.1/x");
        QTest::newRow("no host") << QByteArray("http://");
        QTest::newRow("garbage") << QByteArray("::not a url::");
        QTest::newRow("closed port") << QByteArray("http://127.0.0.1:1/x");
    }
    void refusesWhatItCannotSend()
    {
        QFETCH(QByteArray, url);
        CurlClient client(4);
        bool returned = false;
        bool doneBeforeReturn = false;
        std::optional<CurlClient::Response> response;
        client.send(post(url), [&](CurlClient::Response r) {
            doneBeforeReturn = !returned;
            response = std::move(r);
        });
        returned = true;
        QTRY_VERIFY_WITH_TIMEOUT(response.has_value(), 10'000);
        QVERIFY(!doneBeforeReturn);
        QCOMPARE(response->httpStatus, 0);
        QVERIFY(!response->error.isEmpty());
    }

    void environmentProxyIsNotUsed()
    {
        RawServer server;
        qputenv("http_proxy", "http://127.0.0.1:1");
        qputenv("HTTP_PROXY", "http://127.0.0.1:1");
        CurlClient client(4);
        const CurlClient::Response response = sent(client, post(server.url()));
        qunsetenv("http_proxy");
        qunsetenv("HTTP_PROXY");
        QCOMPARE(response.httpStatus, 200);
    }

    // Many calls at once: each answered once, at most the per-host connection limit open.
    void manyAtOnce()
    {
        RawServer server;
        CurlClient client(3);
        int answered = 0;
        for (int i = 0; i < 40; ++i)
            client.send(post(server.url()), [&answered](CurlClient::Response r) { answered += r.httpStatus == 200; });
        QTRY_COMPARE_WITH_TIMEOUT(answered, 40, 15'000);
        QVERIFY2(server.connections <= 3, qPrintable(QString::number(server.connections)));
        QCOMPARE(client.running(), 0);
    }

    // Destroyed with a call on the wire: its `done` is not called, nothing crashes.
    void destroyedWhileRunning()
    {
        RawServer server;
        server.mode = RawServer::Mode::Silent;
        bool called = false;
        {
            CurlClient client(4);
            client.send(post(server.url()), [&called](CurlClient::Response) { called = true; });
            QTRY_COMPARE(server.requests.size(), 1);
            QCOMPARE(client.running(), 1);
        }
        QTest::qWait(50);
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(TestCurlClient)
#include "tst_curlclient.moc"
