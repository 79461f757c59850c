#include "limitedtcpserver.h"

#include "apirequest.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QLoggingCategory>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

#include <chrono>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

using namespace Qt::StringLiterals;

namespace {

Q_LOGGING_CATEGORY(lcLimitedTcpServer, "rechargedesk.http.limits")

using namespace std::chrono_literals;

// After the error response is sent, how long the rest of a rejected upload is read and discarded before the
// connection is dropped. Closing at once would reset the connection while the client is still sending, and a
// reset can destroy the response before the client has read it.
constexpr auto LingerTimeout = 5s;

// QHttpServer keeps all bytes of a request in the socket's buffer (a read transaction) until the request is
// complete. The socket's read buffer is capped at one maximal request plus this much, so a connection QHttpServer
// stops reading (it does so after a parse error) cannot make the socket buffer an unbounded upload.
constexpr qint64 ReadBufferSlack = 64 * 1024;

struct RejectionInfo
{
    int status;
    QByteArrayView statusText;
    QString code;
    QString reason;
};

RejectionInfo rejectionInfo(HttpFramingTracker::Verdict verdict)
{
    using Verdict = HttpFramingTracker::Verdict;
    switch (verdict) {
    case Verdict::TooLarge:
        return {413, "Payload Too Large", u"PAYLOAD_TOO_LARGE"_s, u"body_too_large"_s};
    case Verdict::HeadersTooLarge:
        return {431, "Request Header Fields Too Large", u"BAD_REQUEST_ERROR"_s, u"headers_too_large"_s};
    case Verdict::LengthRequired:
        return {411, "Length Required", u"BAD_REQUEST_ERROR"_s, u"length_required"_s};
    case Verdict::BadContentLength:
        return {400, "Bad Request", u"BAD_REQUEST_ERROR"_s, u"bad_content_length"_s};
    case Verdict::Ok:
        break;
    }
    return {0, {}, {}, {}};
}

QString rejectionDescription(HttpFramingTracker::Verdict verdict, qint64 maxBodyBytes, qsizetype maxHeaderBytes)
{
    using Verdict = HttpFramingTracker::Verdict;
    switch (verdict) {
    case Verdict::TooLarge:
        return u"request body exceeds %1 bytes"_s.arg(maxBodyBytes);
    case Verdict::HeadersTooLarge:
        return u"request headers exceed %1 bytes"_s.arg(maxHeaderBytes);
    case Verdict::LengthRequired:
        return u"request body must be sent with Content-Length; Transfer-Encoding is not accepted"_s;
    case Verdict::BadContentLength:
        return u"Content-Length header is malformed or repeated"_s;
    case Verdict::Ok:
        break;
    }
    return {};
}

// Lives as a child of one accepted socket: runs the framing tracker on the bytes QHttpServer is about to read and
// takes the socket away from QHttpServer when a request must be rejected.
class ConnectionGuard final : public QObject
{
public:
    ConnectionGuard(QTcpSocket *socket, LimitedTcpServer *server)
        : QObject(socket), m_socket(socket), m_server(server),
          m_tracker(server->maxBodyBytes(), server->maxHeaderBytes(), server->bodyLimitExceptions())
    {
        m_lingerTimer.setSingleShot(true);
        connect(&m_lingerTimer, &QTimer::timeout, this, &ConnectionGuard::onLingerTimeout);
        m_tlsSocket = qobject_cast<QSslSocket *>(socket);
        // Connected before the socket is handed to QHttpServer, so this runs before QHttpServer's slot.
        connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::onReadyReadBeforeHttpServer);
    }

    Q_DISABLE_COPY_MOVE(ConnectionGuard)

private:
    void onReadyReadBeforeHttpServer()
    {
        // QHttpServer connected its slot when it picked the socket up, after ours; a slot connected now runs after
        // QHttpServer's, from the next emission on, and tells us how much QHttpServer left unread.
        const bool afterSlotRunsNow = m_afterSlotConnected;
        if (!m_afterSlotConnected) {
            connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::onReadyReadAfterHttpServer);
            m_afterSlotConnected = true;
        }

        const qint64 available = m_socket->bytesAvailable();
        if (available > m_seenUnreadBytes) {
            const QByteArray unread = m_socket->peek(available);
            const qsizetype seen = std::min<qsizetype>(static_cast<qsizetype>(m_seenUnreadBytes), unread.size());
            const HttpFramingTracker::Verdict verdict = m_tracker.feed(QByteArrayView(unread).sliced(seen));
            if (verdict != HttpFramingTracker::Verdict::Ok) {
                reject(verdict);
                return;
            }
        }
        // On the first emission nothing reports back after QHttpServer; it reads everything it is offered.
        m_seenUnreadBytes = afterSlotRunsNow ? available : 0;
    }

    void onReadyReadAfterHttpServer() { m_seenUnreadBytes = m_socket->bytesAvailable(); }

    void reject(HttpFramingTracker::Verdict verdict)
    {
        // Detach QHttpServer (and ourselves) from readyRead before its slot runs in this emission; its
        // disconnected() handling stays in place and deletes the socket once it is closed.
        QObject::disconnect(m_socket, &QIODevice::readyRead, nullptr, nullptr);
        connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::discardInput);
        // Under TLS the response leaves as encrypted bytes, and QSslSocket emits bytesWritten() before it hands
        // them to the TCP socket: look after that (queued), and again once the encrypted bytes are written.
        connect(m_socket, &QIODevice::bytesWritten, this, &ConnectionGuard::onBytesWritten,
                m_tlsSocket ? Qt::QueuedConnection : Qt::AutoConnection);
        if (m_tlsSocket)
            connect(m_tlsSocket, &QSslSocket::encryptedBytesWritten, this, &ConnectionGuard::onBytesWritten);

        const RejectionInfo info = rejectionInfo(verdict);
        qCInfo(lcLimitedTcpServer) << "rejecting request from" << m_socket->peerAddress() << "with" << info.status
                                   << info.reason;
        m_socket->write(
            LimitedTcpServer::rejectionResponse(verdict, m_tracker.lastBodyLimit(), m_tracker.maxHeaderBytes()));
        discardInput();
        if (m_server)
            Q_EMIT m_server->requestRejected(m_socket->peerAddress(), info.status, info.reason);
        onBytesWritten();
    }

    void discardInput()
    {
        // QHttpServer may have left a read transaction open: committing it releases what it kept buffered.
        if (m_socket->isTransactionStarted())
            m_socket->commitTransaction();
        m_socket->skip(m_socket->bytesAvailable());
    }

    void onBytesWritten()
    {
        if (m_lingering || m_socket->bytesToWrite() > 0 || m_socket->state() != QAbstractSocket::ConnectedState ||
            (m_tlsSocket && m_tlsSocket->encryptedBytesToWrite() > 0))
            return;
        m_lingering = true;
#ifdef Q_OS_UNIX
        // Half-close: the client sees the end of the response while we keep discarding what it still sends.
        ::shutdown(static_cast<int>(m_socket->socketDescriptor()), SHUT_WR);
#endif
        m_lingerTimer.start(LingerTimeout);
    }

    void onLingerTimeout()
    {
        m_socket->abort();
    }

    QTcpSocket *m_socket;
    QSslSocket *m_tlsSocket = nullptr;
    QPointer<LimitedTcpServer> m_server;
    HttpFramingTracker m_tracker;
    QTimer m_lingerTimer;
    qint64 m_seenUnreadBytes = 0; // bytes already fed to the tracker that are still unread in the socket
    bool m_afterSlotConnected = false;
    bool m_lingering = false;
};

} // namespace

LimitedTcpServer::LimitedTcpServer(qint64 maxBodyBytes, QObject *parent)
    : QSslServer(parent), m_maxBodyBytes(std::max<qint64>(maxBodyBytes, 0)),
      m_maxHeaderBytes(HttpFramingTracker::DefaultMaxHeaderBytes)
{
    // QSslServer creates the socket and starts the handshake; QHttpServer takes it only after the handshake.
    connect(this, &QSslServer::startedEncryptionHandshake, this, &LimitedTcpServer::guardSocket);
}

LimitedTcpServer::~LimitedTcpServer() = default;

qint64 LimitedTcpServer::maxBodyBytes() const
{
    return m_maxBodyBytes;
}

qsizetype LimitedTcpServer::maxHeaderBytes() const
{
    return m_maxHeaderBytes;
}

void LimitedTcpServer::setBodyLimitExceptions(const HttpFramingTracker::BodyLimitExceptions &exceptions)
{
    m_bodyLimitExceptions = exceptions;
}

QByteArray LimitedTcpServer::rejectionResponse(HttpFramingTracker::Verdict verdict, qint64 maxBodyBytes,
                                               qsizetype maxHeaderBytes)
{
    const RejectionInfo info = rejectionInfo(verdict);
    if (info.status == 0)
        return {};
    const QJsonObject error{
        {u"code"_s, info.code},
        {u"description"_s, rejectionDescription(verdict, maxBodyBytes, maxHeaderBytes)},
        {u"field"_s, QJsonValue::Null},
        {u"reason"_s, info.reason},
    };
    const QByteArray body = QJsonDocument(QJsonObject{{u"error"_s, error}}).toJson(QJsonDocument::Compact);
    QByteArray response = "HTTP/1.1 " + QByteArray::number(info.status) + ' ' + info.statusText.toByteArray() +
                          "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                          "\r\nX-Request-Id: " + ApiRequest::newRequestId().toLatin1() +
                          "\r\nConnection: close\r\n\r\n" + body;
    return response;
}

void LimitedTcpServer::setTlsConfiguration(const QSslConfiguration &configuration)
{
    setSslConfiguration(configuration);
    m_tls = true;
}

void LimitedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    if (m_tls) {
        QSslServer::incomingConnection(socketDescriptor);
        return;
    }
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        qCWarning(lcLimitedTcpServer) << "cannot adopt accepted socket:" << socket->errorString();
        delete socket;
        return;
    }
    guardSocket(socket);
    addPendingConnection(socket);
}

void LimitedTcpServer::guardSocket(QTcpSocket *socket)
{
    // QHttpServer keeps a whole request in this buffer before it parses it, so it must hold the largest body any
    // request on this connection may have.
    qint64 largestBody = m_maxBodyBytes;
    for (const HttpFramingTracker::BodyLimitException &exception : std::as_const(m_bodyLimitExceptions))
        largestBody = std::max(largestBody, exception.maxBodyBytes);
    socket->setReadBufferSize(m_maxHeaderBytes + largestBody + ReadBufferSlack);
    new ConnectionGuard(socket, this);
}
