#include "http/limitedtcpserver.h"

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
#include <sys/socket.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

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

struct HttpResponse
{
    int status = 0;
    QList<QByteArray> headerLines;
    QByteArray body;

    QByteArray header(QByteArrayView name) const
    {
        for (const QByteArray &line : headerLines) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && QByteArrayView(line).first(colon).compare(name, Qt::CaseInsensitive) == 0)
                return line.sliced(colon + 1).trimmed();
        }
        return {};
    }
};

// Removes one complete response (framed by Content-Length) from the front of buffer into out.
bool takeResponse(QByteArray &buffer, HttpResponse &out)
{
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return false;
    HttpResponse response;
    const QList<QByteArray> lines = buffer.first(headEnd).split('\n');
    response.status = lines.value(0).split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i)
        response.headerLines.append(lines.at(i).trimmed());
    const qint64 length = response.header("Content-Length").toLongLong();
    if (buffer.size() < headEnd + 4 + length)
        return false;
    response.body = buffer.mid(headEnd + 4, length);
    buffer.remove(0, headEnd + 4 + length);
    out = response;
    return true;
}

// A raw client socket that collects everything the server sends, even if the connection is later reset.
class RawClient
{
public:
    explicit RawClient(quint16 port)
    {
        QObject::connect(&m_socket, &QIODevice::readyRead, &m_socket, [this] { m_received += m_socket.readAll(); });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }

    bool waitForConnected() { return m_socket.waitForConnected(WaitMs); }
    QTcpSocket &socket() { return m_socket; }
    void send(QByteArrayView bytes) { m_socket.write(bytes.constData(), bytes.size()); }

    bool waitForResponse(HttpResponse &out)
    {
        return QTest::qWaitFor([&] { return takeResponse(m_received, out); }, WaitMs);
    }

    bool waitForServerClose()
    {
        return QTest::qWaitFor([&] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, WaitMs);
    }

    bool hasCompleteResponse()
    {
        QByteArray copy = m_received;
        HttpResponse ignored;
        return takeResponse(copy, ignored);
    }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

QByteArray postHead(qint64 contentLength)
{
    return "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
           QByteArray::number(contentLength) + "\r\n\r\n";
}

QByteArray post(qint64 bodySize)
{
    return postHead(bodySize) + QByteArray(static_cast<qsizetype>(bodySize), 'x');
}

// Reads a "Vm...:   123 kB" line of /proc/self/status, in KiB (0 if unavailable).
qint64 procStatusKiB(QByteArrayView key)
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith(key) && line.size() > key.size() && line.at(key.size()) == ':')
            return line.sliced(key.size() + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
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
        m_before = procStatusKiB("VmRSS");
    }

    qint64 beforeKiB() const { return m_before; }
    qint64 afterKiB() const { return procStatusKiB(m_peakReset ? "VmHWM" : "VmRSS"); }
    const char *measure() const { return m_peakReset ? "peak VmHWM" : "final VmRSS"; }

private:
    bool m_peakReset = false;
    qint64 m_before = 0;
};

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

private:
    std::unique_ptr<QHttpServer> m_http;
    LimitedTcpServer *m_tcp = nullptr;
    quint16 m_port = 0;
    int m_echoCalls = 0;
};

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
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(1024));
    HttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 200);
    QCOMPARE(response.body, QByteArray("1024"));
    QCOMPARE(m_echoCalls, 1);
}

void TestLimitedTcpServer::bodyAtLimitIsAccepted()
{
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(Limit));
    HttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, 200);
    QCOMPARE(response.body, QByteArray::number(Limit));
}

void TestLimitedTcpServer::declaredLimitPlusOneIsRejected()
{
    QSignalSpy rejected(m_tcp, &LimitedTcpServer::requestRejected);
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(post(Limit + 1)); // the whole body, so QHttpServer could complete the request if it saw it

    HttpResponse response;
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

    RawClient client(m_port);
    QVERIFY(client.waitForConnected());
    client.send(request);
    HttpResponse response;
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
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());

    client.send(post(100));
    HttpResponse first;
    QVERIFY(client.waitForResponse(first));
    QCOMPARE(first.status, 200);
    QCOMPARE(first.body, QByteArray("100"));

    client.send(post(2000));
    HttpResponse second;
    QVERIFY(client.waitForResponse(second));
    QCOMPARE(second.status, 200);
    QCOMPARE(second.body, QByteArray("2000"));

    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    QCOMPARE(m_echoCalls, 2);
}

void TestLimitedTcpServer::rejectionAfterAcceptedRequestOnSameConnection()
{
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());

    client.send(post(Limit));
    HttpResponse first;
    QVERIFY(client.waitForResponse(first));
    QCOMPARE(first.status, 200);

    client.send(postHead(Limit + 1));
    HttpResponse second;
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
        RawClient warmUp(m_port);
        QVERIFY(warmUp.waitForConnected());
        warmUp.send(post(Limit));
        HttpResponse response;
        QVERIFY(warmUp.waitForResponse(response));
    }
    const ResidentGrowth memory;
    QVERIFY(memory.beforeKiB() > 0);

    RawClient client(m_port);
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

    HttpResponse response;
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
        RawClient warmUp(m_port);
        QVERIFY(warmUp.waitForConnected());
        warmUp.send(post(Limit));
        HttpResponse response;
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
    QTest::qWait(50);
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

    HttpResponse response;
    QVERIFY(takeResponse(received, response));
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
    RawClient client(m_port);
    QVERIFY(client.waitForConnected());
    // The whole body at once: the socket's read buffer must be able to hold it for QHttpServer.
    const QByteArray request = method +
                               " /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                               "Content-Length: " +
                               QByteArray::number(bodySize) + "\r\n\r\n" +
                               QByteArray(static_cast<qsizetype>(bodySize), 'x');
    client.send(request);
    HttpResponse response;
    QVERIFY(client.waitForResponse(response));
    QCOMPARE(response.status, status);
    QCOMPARE(response.body, body);
    QCOMPARE(m_echoCalls, status == 200 ? 1 : 0);
}

QTEST_GUILESS_MAIN(TestLimitedTcpServer)
#include "tst_limitedtcpserver.moc"
