#include "http/limitedtcpserver.h"
#include "procstatus.h"
#include "rawhttpclient.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtHttpServer/QHttpServer>
#include <QtHttpServer/QHttpServerRequest>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>
#include <QtTest/QtTest>

#include <memory>

#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

#if defined(__SANITIZE_ADDRESS__)
#define RECHARGEDESK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECHARGEDESK_TEST_ASAN 1
#endif
#endif

#ifdef RECHARGEDESK_TEST_ASAN
// AddressSanitizer keeps freed memory resident in its quarantine (256 MiB by default), which would make the
// resident-memory bounds below measure the upload's short-lived read buffers instead of real buffering.
extern "C" const char *__asan_default_options()
{
    return "quarantine_size_mb=1";
}
#endif

namespace {

constexpr qint64 Limit = HttpFramingTracker::DefaultMaxBodyBytes;
constexpr int WaitMs = 10000;

QByteArray postHead(qint64 contentLength)
{
    return "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
           QByteArray::number(contentLength) + "\r\n\r\n";
}

QByteArray post(qint64 bodySize)
{
    return postHead(bodySize) + QByteArray(static_cast<qsizetype>(bodySize), 'x');
}

// Measures how far the resident set size of this process rises above its current value: the peak (VmHWM,
// reset through /proc/self/clear_refs) when the kernel allows it, otherwise the value at the end (VmRSS).
// The peak matters because a transient buffer of the whole upload would be freed again when the socket closes.
class ResidentGrowth
{
public:
    ResidentGrowth()
    {
        QFile clearRefs(u"/proc/self/clear_refs"_s);
        m_peakReset = clearRefs.open(QIODevice::WriteOnly) && clearRefs.write("5") == 1;
        clearRefs.close();
        m_before = procStatusKiB(0, "VmRSS");
    }

    qint64 beforeKiB() const { return m_before; }
    qint64 afterKiB() const { return procStatusKiB(0, m_peakReset ? "VmHWM" : "VmRSS"); }
    const char *measure() const { return m_peakReset ? "peak VmHWM" : "final VmRSS"; }

private:
    bool m_peakReset = false;
    qint64 m_before = 0;
};

// Limits with short timeouts, so the timeout tests run in well under a second each.
HttpConnectionLimits fastLimits(std::chrono::milliseconds headerTimeout, std::chrono::milliseconds idleTimeout)
{
    HttpConnectionLimits limits;
    limits.headerTimeout = headerTimeout;
    limits.idleTimeout = idleTimeout;
    return limits;
}

// True when the client connects and a small POST on it is answered 200.
bool isServed(RawHttpClient &client)
{
    RawHttpResponse response;
    if (!client.waitForConnected())
        return false;
    client.send(post(1));
    return client.waitForResponse(response) && response.status == 200 && response.body == "1";
}

QByteArray expectedError(QByteArrayView code, QByteArrayView description, QByteArrayView reason)
{
    return R"({"error":{"code":")" + code.toByteArray() + R"(","description":")" + description.toByteArray() +
           R"(","field":null,"reason":")" + reason.toByteArray() + R"("}})";
}

} // namespace

class TestLimitedTcpServer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void smallBodyIsAccepted();
    void bodyAtLimitIsAccepted();
    void declaredLimitPlusOneIsRejected();
    void rejections_data();
    void rejections();
    void keepAliveRequestsBothSucceed();
    void rejectionAfterAcceptedRequestOnSameConnection();
    void hugeUploadGetsEarlyResponse();
    void hugeUploadIgnoringResponseIsDiscarded();
    void exceptionPath_data();
    void exceptionPath();
    void largerBodyOnlyForApprovedHead_data();
    void largerBodyOnlyForApprovedHead();
    void headTimeout_data();
    void headTimeout();
    void idleKeepAliveCloses();
    void stalledBodyCloses();
    void totalCapAnswers503();
    void perAddressCapAnswers503();
    void sharedCounterCapsServersTogether();

private:
    bool serverHasReadAll() const;
    /// Checks that `client`'s new connection is answered 503 for the total cap of 3 connections (into `refused`).
    static void expectRefusedAtTotalCapOf3(RawHttpClient &client, RawHttpResponse &refused);

    std::unique_ptr<QHttpServer> m_http;
    LimitedTcpServer *m_tcp = nullptr;
    quint16 m_port = 0;
    int m_echoCalls = 0;
};

/// True once the server holds a connection and its event loop has taken every byte sent to it out of the
/// kernel (the server's sockets live in this process): what a test waits for instead of a fixed sleep.
bool TestLimitedTcpServer::serverHasReadAll() const
{
    const QList<QTcpSocket *> sockets = m_tcp->findChildren<QTcpSocket *>() + m_http->findChildren<QTcpSocket *>();
    if (sockets.isEmpty())
        return false;
    for (const QTcpSocket *socket : sockets) {
        int queued = 0;
        if (::ioctl(int(socket->socketDescriptor()), FIONREAD, &queued) != 0 || queued > 0)
            return false;
    }
    return true;
}

void TestLimitedTcpServer::expectRefusedAtTotalCapOf3(RawHttpClient &client, RawHttpResponse &refused)
{
    QVERIFY(client.waitForConnected());
    QVERIFY(client.waitForResponse(refused));
    QCOMPARE(refused.status, 503);
    QCOMPARE(refused.body, expectedError("RATE_LIMIT_ERROR", "the server has 3 connections open; retry shortly",
                                         "too_many_connections"));
}

void TestLimitedTcpServer::init()
{
    m_echoCalls = 0;
    m_http = std::make_unique<QHttpServer>();
    m_http->route(u"/echo"_s, QHttpServerRequest::Method::Post, [this](const QHttpServerRequest &request) {
        ++m_echoCalls;
        return QString::number(request.body().size());
    });
    m_http->route(u"/upload"_s, QHttpServerRequest::Method::Put, [this](const QHttpServerRequest &request) {
        ++m_echoCalls;
        return QString::number(request.body().size());
    });
    m_tcp = new LimitedTcpServer();
    QVERIFY(m_tcp->listen(QHostAddress::LocalHost, 0));
    m_port = m_tcp->serverPort();
    m_http->bind(m_tcp); // takes ownership
}

void TestLimitedTcpServer::cleanup()
{
    m_http.reset();
    m_tcp = nullptr;
}

void TestLimitedTcpServer::smallBodyIsAccepted()
{
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(1024));
    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 200);
    QCOMPARE(response.body, QByteArray("1024"));
    QCOMPARE(m_echoCalls, 1);
}

void TestLimitedTcpServer::bodyAtLimitIsAccepted()
{
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(Limit));
    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 200);
    QCOMPARE(response.body, QByteArray::number(Limit));
}

void TestLimitedTcpServer::declaredLimitPlusOneIsRejected()
{
    QSignalSpy rejected(m_tcp, &LimitedTcpServer::requestRejected);
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(Limit + 1)); // the whole body, so QHttpServer could complete the request if it saw it

    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 413);
    QCOMPARE(response.body,
             QByteArray(R"({"error":{"code":"PAYLOAD_TOO_LARGE","description":"request body exceeds 65536 bytes",)"
                        R"("field":null,"reason":"body_too_large"}})"));
    QCOMPARE(response.header("Content-Type"), QByteArray("application/json"));
    QCOMPARE(response.header("Connection"), QByteArray("close"));
    QVERIFY(client.waitForServerClose());
    QCOMPARE(m_echoCalls, 0);
    QCOMPARE(rejected.size(), 1);
    QCOMPARE(rejected.at(0).at(1).toInt(), 413);
    QCOMPARE(rejected.at(0).at(2).toString(), u"body_too_large"_s);
}

void TestLimitedTcpServer::rejections_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    QTest::newRow("chunked") << QByteArray(
                                    "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                                    "5\r\nhello\r\n0\r\n\r\n")
                             << 411
                             << expectedError(
                                    "BAD_REQUEST_ERROR",
                                    "request body must be sent with Content-Length; Transfer-Encoding is not accepted",
                                    "length_required");
    QTest::newRow("headers over 16 KiB")
        << QByteArray("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Pad: " + QByteArray(20000, 'p') + "\r\n\r\n") << 431
        << expectedError("BAD_REQUEST_ERROR", "request headers exceed 16384 bytes", "headers_too_large");
    QTest::newRow("malformed content-length")
        << QByteArray("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 12abc\r\n\r\n") << 400
        << expectedError("BAD_REQUEST_ERROR", "Content-Length header is malformed or repeated", "bad_content_length");
    QTest::newRow("conflicting content-length")
        << QByteArray("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\ncontent-length: 4\r\n\r\nabcd")
        << 400
        << expectedError("BAD_REQUEST_ERROR", "Content-Length header is malformed or repeated", "bad_content_length");
    QTest::newRow("upper-case header name over limit")
        << QByteArray("POST /echo HTTP/1.1\r\nHost: localhost\r\nCONTENT-LENGTH: 65537\r\n\r\n") << 413
        << expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 65536 bytes", "body_too_large");
}

void TestLimitedTcpServer::rejections()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QByteArray, body);

    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(request);
    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, status);
    QCOMPARE(response.body, body);
    QCOMPARE(response.header("Content-Type"), QByteArray("application/json"));
    QCOMPARE(response.header("Connection"), QByteArray("close"));
    QVERIFY(client.waitForServerClose());
    QCOMPARE(m_echoCalls, 0);
}

void TestLimitedTcpServer::keepAliveRequestsBothSucceed()
{
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());

    client.send(post(100));
    RawHttpResponse first;
    QVERIFY(client.waitForResponse(first));
    QCOMPARE(first.status, 200);
    QCOMPARE(first.body, QByteArray("100"));

    client.send(post(2000));
    RawHttpResponse second;
    QVERIFY(client.waitForResponse(second));
    QCOMPARE(second.status, 200);
    QCOMPARE(second.body, QByteArray("2000"));

    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    QCOMPARE(m_echoCalls, 2);
}

void TestLimitedTcpServer::rejectionAfterAcceptedRequestOnSameConnection()
{
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());

    client.send(post(Limit));
    RawHttpResponse first;
    QVERIFY(client.waitForResponse(first));
    QCOMPARE(first.status, 200);

    client.send(postHead(Limit + 1));
    RawHttpResponse second;
    QVERIFY(client.waitForResponse(second));
    QCOMPARE(second.status, 413);
    QVERIFY(client.waitForServerClose());
    QCOMPARE(m_echoCalls, 1);
}

void TestLimitedTcpServer::hugeUploadGetsEarlyResponse()
{
    constexpr qint64 uploadBytes = 50 * 1024 * 1024;
    constexpr qint64 allowedGrowthKiB = 10 * 1024;
    const QByteArray chunk(64 * 1024, 'u');

    // Warm up allocator and connection machinery so the measurement sees only this upload.
    {
        RawHttpClient warmUp(m_port);
        QVERIFY(warmUp.waitForConnected());
        warmUp.send(post(Limit));
        RawHttpResponse response;
        QVERIFY(warmUp.waitForResponse(response));
    }
    const ResidentGrowth memory;
    QVERIFY(memory.beforeKiB() > 0);

    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(postHead(uploadBytes));
    qint64 sent = 0;
    QElapsedTimer elapsed;
    elapsed.start();
    // Stream until the server answers and closes; keep the client's own buffer small so it does not distort the
    // measurement. (QTcpSocket gives up sending as soon as it sees the server's half-close, so this client stops
    // early; hugeUploadIgnoringResponseIsDiscarded() pushes the full 50 MB through.)
    while (sent < uploadBytes && client.socket().state() == QAbstractSocket::ConnectedState &&
           elapsed.elapsed() < 60000) {
        if (client.socket().bytesToWrite() < 4 * chunk.size()) {
            const qint64 n = std::min<qint64>(chunk.size(), uploadBytes - sent);
            client.send(QByteArrayView(chunk).first(static_cast<qsizetype>(n)));
            sent += n;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }

    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 413);
    QCOMPARE(response.body, expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 65536 bytes", "body_too_large"));
    QVERIFY(client.waitForServerClose());
    QCOMPARE(m_echoCalls, 1); // the warm-up only

    const qint64 growthKiB = memory.afterKiB() - memory.beforeKiB();
    qInfo("client wrote %lld of %lld body bytes before the server closed; VmRSS before %lld KiB, %s growth "
          "%+lld KiB",
          static_cast<long long>(sent), static_cast<long long>(uploadBytes), static_cast<long long>(memory.beforeKiB()),
          memory.measure(), static_cast<long long>(growthKiB));
    QVERIFY2(growthKiB < allowedGrowthKiB, "resident memory grew by more than 10 MiB");
}

void TestLimitedTcpServer::hugeUploadIgnoringResponseIsDiscarded()
{
#ifndef Q_OS_UNIX
    QSKIP("needs a POSIX socket that keeps sending after the server's half-close");
#else
    constexpr qint64 uploadBytes = 50 * 1024 * 1024;
    constexpr qint64 allowedGrowthKiB = 10 * 1024;
    const QByteArray chunk(256 * 1024, 'u');

    {
        RawHttpClient warmUp(m_port);
        QVERIFY(warmUp.waitForConnected());
        warmUp.send(post(Limit));
        RawHttpResponse response;
        QVERIFY(warmUp.waitForResponse(response));
    }
    const ResidentGrowth memory;
    QVERIFY(memory.beforeKiB() > 0);

    // A plain non-blocking socket: unlike QTcpSocket it keeps sending after the server half-closes, like a
    // client that ignores early responses (or an attacker).
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    QVERIFY(fd >= 0);
    const auto closeFd = qScopeGuard([fd] { ::close(fd); });
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = qToBigEndian(m_port);
    address.sin_addr.s_addr = qToBigEndian(quint32(INADDR_LOOPBACK));
    const int connected = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address);
    QVERIFY(connected == 0 || errno == EINPROGRESS);

    QByteArray received;
    char readBuffer[4096];
    bool serverClosed = false;
    const auto receive = [&] {
        for (;;) {
            const ssize_t n = ::recv(fd, readBuffer, sizeof readBuffer, MSG_DONTWAIT);
            if (n > 0) {
                received.append(readBuffer, n);
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                serverClosed = true;
            return;
        }
    };

    // Send the first part of the header block on its own, so QHttpServer has started reading the request
    // (and opened its read transaction on the socket) before the request is rejected.
    const QByteArray head = postHead(uploadBytes);
    qsizetype headSent = ::send(fd, head.constData(), 20, MSG_NOSIGNAL);
    if (headSent < 0 && errno == EAGAIN) {
        QVERIFY(QTest::qWaitFor([&] { return (headSent = ::send(fd, head.constData(), 20, MSG_NOSIGNAL)) > 0; }));
    }
    QCOMPARE(headSent, qsizetype(20));
    QTRY_VERIFY(serverHasReadAll());
    qint64 sent = 0;
    QElapsedTimer elapsed;
    elapsed.start();
    while (sent < uploadBytes && elapsed.elapsed() < 60000) {
        const QByteArrayView pending =
            headSent < head.size() ? QByteArrayView(head).sliced(headSent)
                                   : QByteArrayView(chunk).first(
                                         static_cast<qsizetype>(std::min<qint64>(chunk.size(), uploadBytes - sent)));
        const ssize_t n = ::send(fd, pending.constData(), static_cast<size_t>(pending.size()), MSG_NOSIGNAL);
        if (n > 0) {
            if (headSent < head.size())
                headSent += n;
            else
                sent += n;
        } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN) {
            break; // the server dropped the connection (linger time over)
        }
        receive();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    ::shutdown(fd, SHUT_WR);
    QVERIFY(QTest::qWaitFor(
        [&] {
            receive();
            return serverClosed;
        },
        WaitMs));

    RawHttpResponse response;
    QVERIFY(takeRawResponse(received, response));
    QCOMPARE(response.status, 413);
    QCOMPARE(response.body, expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 65536 bytes", "body_too_large"));
    QCOMPARE(m_echoCalls, 1); // the warm-up only

    const qint64 growthKiB = memory.afterKiB() - memory.beforeKiB();
    qInfo("client pushed %lld of %lld body bytes while the server discarded them; VmRSS before %lld KiB, %s "
          "growth %+lld KiB",
          static_cast<long long>(sent), static_cast<long long>(uploadBytes), static_cast<long long>(memory.beforeKiB()),
          memory.measure(), static_cast<long long>(growthKiB));
    // The server keeps reading (and discarding) until the client is done, unless its linger time ran out.
    QCOMPARE(sent, uploadBytes);
    QVERIFY2(growthKiB < allowedGrowthKiB, "resident memory grew by more than 10 MiB");
#endif
}

void TestLimitedTcpServer::exceptionPath_data()
{
    // PUT /upload may carry 2 MiB; everything else keeps the 64 KiB default.
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<qint64>("bodySize");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    constexpr qint64 UploadLimit = 2 * 1024 * 1024;
    QTest::newRow("upload far over the default, at its own limit")
        << QByteArray("PUT") << UploadLimit << 200 << QByteArray::number(UploadLimit);
    QTest::newRow("upload over its own limit")
        << QByteArray("PUT") << UploadLimit + 1 << 413
        << expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 2097152 bytes", "body_too_large");
    QTest::newRow("other method keeps the default")
        << QByteArray("POST") << Limit + 1 << 413
        << expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 65536 bytes", "body_too_large");
}

void TestLimitedTcpServer::exceptionPath()
{
    QFETCH(QByteArray, method);
    QFETCH(qint64, bodySize);
    QFETCH(int, status);
    QFETCH(QByteArray, body);

    m_tcp->setBodyLimitExceptions({{"PUT", "/upload", 2 * 1024 * 1024}});
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    // The whole body at once: the socket's read buffer must be able to hold it for QHttpServer.
    const QByteArray request = method +
                               " /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                               "Content-Length: " +
                               QByteArray::number(bodySize) + "\r\n\r\n" +
                               QByteArray(static_cast<qsizetype>(bodySize), 'x');
    client.send(request);
    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, status);
    QCOMPARE(response.body, body);
    QCOMPARE(m_echoCalls, status == 200 ? 1 : 0);
}

void TestLimitedTcpServer::largerBodyOnlyForApprovedHead_data()
{
    QTest::addColumn<QByteArray>("credentials");
    QTest::addColumn<qint64>("bodySize");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("questions");

    constexpr qint64 FewMiB = 3 * 1024 * 1024;
    QTest::newRow("approved head, 3 MiB") << QByteArray("Basic good") << FewMiB << 200 << 1;
    QTest::newRow("no credentials, 3 MiB") << QByteArray() << FewMiB << 413 << 1;
    QTest::newRow("refused credentials, 3 MiB") << QByteArray("Basic bad") << FewMiB << 401 << 1;
    // Within the default limit nobody is asked: the route itself authenticates as usual.
    QTest::newRow("no credentials, 1 KiB") << QByteArray() << qint64(1024) << 200 << 0;
}

void TestLimitedTcpServer::largerBodyOnlyForApprovedHead()
{
    QFETCH(QByteArray, credentials);
    QFETCH(qint64, bodySize);
    QFETCH(int, status);
    QFETCH(int, questions);

    m_tcp->setBodyLimitExceptions({{"PUT", "/upload", 8 * 1024 * 1024, true}});
    QList<QByteArray> asked;
    m_tcp->setAllowanceAuthorizer(
        [&asked](const HttpRequestHead &head, const QHostAddress &peer) -> std::optional<ApiError> {
            asked.append(head.header("authorization").toByteArray());
            if (head.header("authorization") == "Basic good" && peer.isLoopback())
                return std::nullopt;
            if (head.header("authorization").isEmpty())
                return ApiError(413, u"PAYLOAD_TOO_LARGE"_s, u"ignored"_s, u"a 413 leaves the size answer"_s);
            return ApiError(401, u"AUTHENTICATION_ERROR"_s, u"invalid_credentials"_s, u"the key is wrong"_s)
                .withHeader("WWW-Authenticate", "Basic realm=\"test\"");
        });
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(rawRequestHead("PUT", "/upload", bodySize, "application/octet-stream", credentials));
    const qint64 sent = client.streamUntilAnswered(bodySize);

    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, status);
    QCOMPARE(asked.size(), questions);
    if (questions > 0)
        QCOMPARE(asked.first(), credentials);
    if (status == 200) {
        QCOMPARE(response.body, QByteArray::number(bodySize));
        QCOMPARE(m_echoCalls, 1);
        return;
    }
    // Refused at the head, with the authorizer's answer (a 413 from it leaves the usual size answer): the answer
    // came while the client had sent only a small part of the body.
    if (status == 401) {
        QCOMPARE(response.body, expectedError("AUTHENTICATION_ERROR", "the key is wrong", "invalid_credentials"));
        QCOMPARE(response.header("WWW-Authenticate"), QByteArray("Basic realm=\"test\""));
    } else {
        QCOMPARE(response.body,
                 expectedError("PAYLOAD_TOO_LARGE", "request body exceeds 65536 bytes", "body_too_large"));
    }
    QVERIFY(client.waitForServerClose());
    QVERIFY2(sent < bodySize / 2,
             qPrintable(u"client sent %1 of %2 body bytes before the 413"_s.arg(sent).arg(bodySize)));
    QCOMPARE(m_echoCalls, 0);
}

void TestLimitedTcpServer::headTimeout_data()
{
    QTest::addColumn<QByteArray>("start");
    QTest::addColumn<bool>("trickle");
    QTest::newRow("nothing sent") << QByteArray() << false;
    QTest::newRow("partial head") << QByteArray("GET /echo HTTP/1.1\r\nHost: loc") << false;
    // Slowloris: a header byte every 20 ms; the bytes must not extend the head's deadline.
    QTest::newRow("head trickling in") << QByteArray("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Slow: ") << true;
}

void TestLimitedTcpServer::headTimeout()
{
    QFETCH(QByteArray, start);
    QFETCH(bool, trickle);

    m_tcp->setConnectionLimits(fastLimits(300ms, 10s));
    QSignalSpy refused(m_tcp, &LimitedTcpServer::connectionRefused);
    QElapsedTimer elapsed;
    elapsed.start();
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(start);
    QTimer drip;
    QObject::connect(&drip, &QTimer::timeout, &drip, [&client] { client.send("a"); });
    if (trickle)
        drip.start(20);

    RawHttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 408);
    QCOMPARE(response.body,
             expectedError("BAD_REQUEST_ERROR", "the request head did not arrive within 0.3 s", "header_timeout"));
    QCOMPARE(response.header("Connection"), QByteArray("close"));
    QVERIFY(client.waitForServerClose());
    drip.stop();
    QVERIFY2(elapsed.elapsed() >= 300, "closed before the header timeout");
    QVERIFY2(elapsed.elapsed() < 5000, "the header timeout did not close the connection in time");
    QCOMPARE(m_echoCalls, 0);
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.at(0).at(1).toInt(), 408);
}

void TestLimitedTcpServer::idleKeepAliveCloses()
{
    m_tcp->setConnectionLimits(fastLimits(300ms, 1500ms));
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(10));
    RawHttpResponse first;
    QVERIFY(client.waitForResponse(first));
    QCOMPARE(first.status, 200);

    // Quiet for longer than the header timeout but within the idle timeout: a waiting keep-alive connection is not
    // a slow head, and the next request gets its own head deadline from its first byte. A sleep on purpose: what
    // is tested is that nothing happens for this long (the timeouts are the server's QTimers, not a Clock).
    QTest::qWait(450);
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    client.send(post(20));
    RawHttpResponse second;
    QVERIFY(client.waitForResponse(second));
    QCOMPARE(second.status, 200);

    QElapsedTimer idle;
    idle.start();
    QVERIFY(client.waitForServerClose());
    QVERIFY2(idle.elapsed() >= 1400, "closed before the idle timeout");
    QVERIFY2(idle.elapsed() < 5000, "the idle timeout did not close the connection in time");
    QVERIFY2(client.received().isEmpty(), client.received().constData()); // closed without an answer
    QCOMPARE(m_echoCalls, 2);
}

void TestLimitedTcpServer::stalledBodyCloses()
{
    m_tcp->setConnectionLimits(fastLimits(300ms, 800ms));
    RawHttpClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(QByteArray(postHead(1000) + QByteArray(10, 'x'))); // then nothing: 990 body bytes never come
    QElapsedTimer elapsed;
    elapsed.start();
    QVERIFY(client.waitForServerClose());
    QVERIFY2(elapsed.elapsed() >= 700, "closed before the idle timeout");
    QVERIFY2(elapsed.elapsed() < 5000, "the idle timeout did not close the connection in time");
    QCOMPARE(m_echoCalls, 0);
}

void TestLimitedTcpServer::totalCapAnswers503()
{
    HttpConnectionLimits limits;
    limits.maxConnections = 3;
    m_tcp->setConnectionLimits(limits);
    std::vector<std::unique_ptr<RawHttpClient>> open;
    for (int i = 0; i < 3; ++i) {
        open.push_back(std::make_unique<RawHttpClient>(m_port));
        QVERIFY(isServed(*open.back()));
    }
    QCOMPARE(m_tcp->openConnections(), 3);

    RawHttpClient fourth(m_port);
    RawHttpResponse refused;
    expectRefusedAtTotalCapOf3(fourth, refused);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(refused.header("Retry-After"), QByteArray("5"));
    QCOMPARE(refused.header("Connection"), QByteArray("close"));
    QVERIFY(fourth.waitForServerClose());
    QCOMPARE(m_echoCalls, 3);

    // A closed connection frees its place.
    open.pop_back();
    QTRY_COMPARE(m_tcp->openConnections(), 2);
    RawHttpClient again(m_port);
    QVERIFY(isServed(again));
}

void TestLimitedTcpServer::perAddressCapAnswers503()
{
    HttpConnectionLimits limits;
    limits.maxConnectionsPerAddress = 2;
    m_tcp->setConnectionLimits(limits);
    std::vector<std::unique_ptr<RawHttpClient>> open;
    for (int i = 0; i < 2; ++i) {
        open.push_back(std::make_unique<RawHttpClient>(m_port));
        QVERIFY(isServed(*open.back()));
    }

    RawHttpClient third(m_port);
    QVERIFY(third.waitForConnected());
    RawHttpResponse refused;
    QVERIFY(third.waitForResponse(refused));
    QCOMPARE(refused.status, 503);
    QCOMPARE(refused.body,
             expectedError("RATE_LIMIT_ERROR", "this address has 2 connections open; close some or retry shortly",
                           "too_many_connections_from_address"));
    QVERIFY(third.waitForServerClose());

    // Another client address is not affected (127.0.0.2 reaches 127.0.0.1 over loopback on Linux).
    RawHttpClient neighbour(m_port, QHostAddress(u"127.0.0.2"_s));
    QVERIFY(isServed(neighbour));
}

QTEST_GUILESS_MAIN(TestLimitedTcpServer)
#include "tst_limitedtcpserver.moc"

// Issue 17: the HTTP worker threads' servers share one ConnectionCounter, so the caps count all their connections.
void TestLimitedTcpServer::sharedCounterCapsServersTogether()
{
    HttpConnectionLimits limits;
    limits.maxConnections = 3;
    auto counter = std::make_shared<ConnectionCounter>(limits.maxConnections, limits.maxConnectionsPerAddress);
    m_tcp->shareConnectionCounter(counter);
    m_tcp->setConnectionLimits(limits);
    QHttpServer otherHttp;
    otherHttp.route(u"/echo"_s, QHttpServerRequest::Method::Post,
                    [](const QHttpServerRequest &request) { return QString::number(request.body().size()); });
    auto *other = new LimitedTcpServer();
    other->shareConnectionCounter(counter);
    other->setConnectionLimits(limits);
    QVERIFY(other->listen(QHostAddress::LocalHost, 0));
    otherHttp.bind(other);

    std::vector<std::unique_ptr<RawHttpClient>> open;
    for (const quint16 port : {m_port, m_port, other->serverPort()}) {
        open.push_back(std::make_unique<RawHttpClient>(port));
        QVERIFY(isServed(*open.back()));
    }
    QCOMPARE(m_tcp->openConnections(), 3);
    QCOMPARE(other->openConnections(), 3);

    RawHttpClient fourth(other->serverPort());
    RawHttpResponse refused;
    expectRefusedAtTotalCapOf3(fourth, refused);
}
