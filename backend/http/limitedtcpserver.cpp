#include "limitedtcpserver.h"

#include "apirequest.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

#include <algorithm>
#include <chrono>
#include <limits>

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

// The same for a connection refused with 503 at accept: short, since such connections come in floods.
constexpr auto RefusalLinger = 1s;

// How long a refused client is asked to wait (Retry-After, seconds).
constexpr int RefusalRetryAfterSeconds = 5;

// QHttpServer keeps all bytes of a request in the socket's buffer (a read transaction) until the request is
// complete. The socket's read buffer is capped at the current request's largest size plus this much, so a
// connection QHttpServer stops reading (it does so after a parse error) cannot make the socket buffer an unbounded
// upload, and only a request granted a larger body limit gets a larger buffer.
constexpr qint64 ReadBufferSlack = 64 * 1024;

qint64 toMs(std::chrono::milliseconds duration)
{
    return static_cast<qint64>(duration.count());
}

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

// The reason phrase for the statuses an authorizer's refusal can have.
QByteArrayView statusText(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

// A complete HTTP/1.1 response with the spec's error envelope and Connection: close.
QByteArray errorResponse(int status, QByteArrayView statusText, const QString &code, const QString &reason,
                         const QString &description, QByteArrayView extraHeaders = {})
{
    const QJsonObject error{
        {u"code"_s, code},
        {u"description"_s, description},
        {u"field"_s, QJsonValue::Null},
        {u"reason"_s, reason},
    };
    const QByteArray body = QJsonDocument(QJsonObject{{u"error"_s, error}}).toJson(QJsonDocument::Compact);
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + statusText.toByteArray() +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\nX-Request-Id: " + ApiRequest::newRequestId().toLatin1() + "\r\n" + extraHeaders.toByteArray() +
           "Connection: close\r\n\r\n" + body;
}

} // namespace

// Lives as a child of one accepted socket: runs the framing tracker on the bytes QHttpServer is about to read, takes
// the socket away from QHttpServer when a request must be rejected, keeps the connection's deadline for the
// server's sweep, and sizes the socket's read buffer for the request in progress.
class LimitedTcpServer::Connection final : public QObject
{
public:
    Connection(QTcpSocket *socket, LimitedTcpServer *server, const QHostAddress &peer)
        : QObject(socket), m_socket(socket), m_server(server), m_peer(peer),
          m_tracker(server->maxBodyBytes(), server->maxHeaderBytes(), server->bodyLimitExceptions(),
                    [this](const HttpRequestHead &head) { return approveLargerBody(head); }),
          m_deadlineMs(server->nowMs() + toMs(server->m_limits.headerTimeout))
    {
        m_tlsSocket = qobject_cast<QSslSocket *>(socket);
        m_server->m_connections.insert(this);
        fitReadBuffer();
    }

    ~Connection() override
    {
        if (!m_server)
            return;
        m_server->m_connections.remove(this);
        m_server->m_tlsHandshakes.remove(m_socket);
        if (m_counted)
            m_server->m_counter->remove(m_peer);
    }

    Q_DISABLE_COPY_MOVE(Connection)

    /// Counts the connection against the caps and starts watching it; false when a cap refused it (503 queued;
    /// the socket deletes itself once closed and must not go to QHttpServer).
    bool admit()
    {
        const ConnectionCounter::Admission admission = m_server->m_counter->tryAdd(m_peer);
        if (admission == ConnectionCounter::Admission::Admitted) {
            adoptAdmission();
            return true;
        }
        const bool total = admission == ConnectionCounter::Admission::TotalFull;
        const QString reason = total ? u"too_many_connections"_s : u"too_many_connections_from_address"_s;
        const QString description =
            total ? u"the server has %1 connections open; retry shortly"_s.arg(m_server->m_counter->maxTotal())
                  : u"this address has %1 connections open; close some or retry shortly"_s.arg(
                        m_server->m_counter->maxPerAddress());
        connect(m_socket, &QAbstractSocket::disconnected, m_socket, &QObject::deleteLater);
        m_server->logRefusal(m_peer, reason);
        // RATE_LIMIT_ERROR: the spec's code for "throttled, with Retry-After" (503 itself names no code).
        sendAndClose(errorResponse(503, "Service Unavailable", u"RATE_LIMIT_ERROR"_s, reason, description,
                                   QByteArray("Retry-After: " + QByteArray::number(RefusalRetryAfterSeconds) + "\r\n")),
                     RefusalLinger);
        Q_EMIT m_server->connectionRefused(m_peer, 503, reason);
        return false;
    }

    /// Takes over a place the server already counted for this connection's address; a plain connection is
    /// watched at once, a TLS one from its handshake's start (before it, the bytes are not HTTP).
    void adoptAdmission()
    {
        m_counted = true;
        if (!m_tlsSocket)
            watch();
    }

    /// Runs the framing tracker on what the client sends from now on.
    void watch()
    {
        // Connected before the socket is handed to QHttpServer, so this runs before QHttpServer's slot.
        connect(m_socket, &QIODevice::readyRead, this, &Connection::onReadyReadBeforeHttpServer);
        connect(m_socket, &QIODevice::bytesWritten, this, &Connection::onBytesWritten);
    }

    /// Called by the server's sweep once now >= deadlineMs(): answers or closes the connection as its phase says.
    void onDeadline()
    {
        switch (m_phase) {
        case Phase::Head: {
            if (m_tlsSocket && !m_tlsSocket->isEncrypted()) { // no TLS yet: an HTTP answer could not be read
                qCInfo(lcLimitedTcpServer) << "closing connection from" << m_peer << "without a TLS handshake in time";
                m_phase = Phase::Closed;
                m_deadlineMs = std::numeric_limits<qint64>::max();
                Q_EMIT m_server->connectionRefused(m_peer, 0, u"header_timeout"_s);
                m_socket->abort();
                m_socket->deleteLater(); // QSslServer still owns it (it forgets a destroyed socket), nobody else
                break;
            }
            const auto seconds = std::chrono::duration<double>(m_server->m_limits.headerTimeout).count();
            qCInfo(lcLimitedTcpServer) << "closing connection from" << m_peer << "after" << seconds
                                       << "s without a complete request head";
            sendAndClose(errorResponse(408, "Request Timeout", u"BAD_REQUEST_ERROR"_s, u"header_timeout"_s,
                                       u"the request head did not arrive within %1 s"_s.arg(seconds)),
                         std::min<std::chrono::milliseconds>(LingerTimeout, m_server->m_limits.headerTimeout));
            Q_EMIT m_server->connectionRefused(m_peer, 408, u"header_timeout"_s);
            break;
        }
        case Phase::Body:
        case Phase::Idle:
            m_phase = Phase::Closed;
            m_deadlineMs = std::numeric_limits<qint64>::max();
            Q_EMIT m_server->connectionRefused(m_peer, 0, u"idle_timeout"_s);
            if (m_socket->bytesToWrite() > 0)
                m_socket->abort(); // a client that stopped reading would keep a graceful close pending forever
            else
                m_socket->disconnectFromHost();
            break;
        case Phase::Lingering:
            m_phase = Phase::Closed;
            m_deadlineMs = std::numeric_limits<qint64>::max();
            m_socket->abort();
            break;
        case Phase::Closed:
            break;
        }
    }

    qint64 deadlineMs() const { return m_deadlineMs; }

    /// Forgets the server (it is being destroyed; its connections go with it).
    void detach() { m_server = nullptr; }

private:
    enum class Phase
    {
        Head,      ///< a request head is expected (deadline: header timeout)
        Body,      ///< a request body is arriving (deadline: idle timeout since the last bytes)
        Idle,      ///< between requests (deadline: idle timeout since the last bytes in or out)
        Lingering, ///< an error answer was sent; input is discarded until the deadline
        Closed,
    };

    void onReadyReadBeforeHttpServer()
    {
        if (!m_server)
            return;
        // QHttpServer connected its slot when it picked the socket up, after ours; a slot connected now runs after
        // QHttpServer's, from the next emission on, and tells us how much QHttpServer left unread.
        const bool afterSlotRunsNow = m_afterSlotConnected;
        if (!m_afterSlotConnected) {
            connect(m_socket, &QIODevice::readyRead, this, &Connection::onReadyReadAfterHttpServer);
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
            notePhase();
            fitReadBuffer();
        }
        // On the first emission nothing reports back after QHttpServer; it reads everything it is offered.
        m_seenUnreadBytes = afterSlotRunsNow ? available : 0;
    }

    void onReadyReadAfterHttpServer()
    {
        m_seenUnreadBytes = m_socket->bytesAvailable();
        fitReadBuffer();
    }

    // Moves the deadline after new bytes: a head keeps the deadline it started with; body and idle time count
    // from the last bytes seen.
    void notePhase()
    {
        const qint64 now = m_server->nowMs();
        if (m_tracker.isReadingBody()) {
            m_phase = Phase::Body;
            m_deadlineMs = now + toMs(m_server->m_limits.idleTimeout);
        } else if (m_tracker.isBetweenRequests()) {
            m_phase = Phase::Idle;
            m_deadlineMs = now + toMs(m_server->m_limits.idleTimeout);
        } else if (m_phase != Phase::Head) {
            m_phase = Phase::Head;
            m_deadlineMs = now + toMs(m_server->m_limits.headerTimeout);
        }
    }

    // The socket's read buffer holds what QHttpServer keeps of the request in progress: its head and the body
    // this request may have. It grows when a head was granted a larger body and shrinks back once the buffer
    // is below the default size again (shrinking below the buffered bytes would stall reading).
    void fitReadBuffer()
    {
        const qint64 body = m_tracker.isReadingBody() ? m_tracker.lastBodyLimit() : m_tracker.maxBodyBytes();
        const qint64 wanted = m_tracker.maxHeaderBytes() + body + ReadBufferSlack;
        const qint64 current = m_socket->readBufferSize();
        if (wanted > current || (wanted < current && m_socket->bytesAvailable() < wanted))
            m_socket->setReadBufferSize(wanted);
    }

    // The tracker's AllowanceCheck: asks the server's authorizer and keeps its refusal for the answer.
    bool approveLargerBody(const HttpRequestHead &head)
    {
        m_refusal.reset();
        if (!m_server || !m_server->m_authorizer)
            return false;
        m_refusal = m_server->m_authorizer(head, m_peer);
        return !m_refusal;
    }

    void reject(HttpFramingTracker::Verdict verdict)
    {
        // A body too large for the default limit whose head was refused the larger one gets the refusal the API
        // would have given (e.g. 401), without its body being read.
        if (verdict == HttpFramingTracker::Verdict::TooLarge && m_tracker.lastAllowanceRefused() && m_refusal &&
            m_refusal->httpStatus() != 413) {
            const ApiError &error = *m_refusal;
            qCInfo(lcLimitedTcpServer) << "refusing a large body from" << m_peer << "at its head with"
                                       << error.httpStatus() << error.reason();
            QByteArray headers;
            for (const auto &[name, value] : error.headers())
                headers += name + ": " + value + "\r\n";
            sendAndClose(errorResponse(error.httpStatus(), statusText(error.httpStatus()), error.code(), error.reason(),
                                       error.description(), headers),
                         LingerTimeout);
            if (m_server)
                Q_EMIT m_server->requestRejected(m_peer, error.httpStatus(), error.reason());
            return;
        }
        const RejectionInfo info = rejectionInfo(verdict);
        qCInfo(lcLimitedTcpServer) << "rejecting request from" << m_peer << "with" << info.status << info.reason;
        sendAndClose(
            LimitedTcpServer::rejectionResponse(verdict, m_tracker.lastBodyLimit(), m_tracker.maxHeaderBytes()),
            LingerTimeout);
        if (m_server)
            Q_EMIT m_server->requestRejected(m_peer, info.status, info.reason);
    }

    // Takes the socket from QHttpServer, queues `response`, half-closes once it is written, discards what the
    // client still sends and aborts after `linger`.
    void sendAndClose(const QByteArray &response, std::chrono::milliseconds linger)
    {
        // Detach QHttpServer (and ourselves) from readyRead before its slot runs in this emission; its
        // disconnected() handling stays in place and deletes the socket once it is closed.
        QObject::disconnect(m_socket, &QIODevice::readyRead, nullptr, nullptr);
        connect(m_socket, &QIODevice::readyRead, this, &Connection::discardInput);
        // Under TLS the response leaves as encrypted bytes, and QSslSocket emits bytesWritten() before it hands
        // them to the TCP socket: look after that (queued), and again once the encrypted bytes are written.
        connect(m_socket, &QIODevice::bytesWritten, this, &Connection::halfCloseWhenWritten,
                static_cast<Qt::ConnectionType>((m_tlsSocket ? Qt::QueuedConnection : Qt::AutoConnection) |
                                                Qt::UniqueConnection));
        if (m_tlsSocket)
            connect(m_tlsSocket, &QSslSocket::encryptedBytesWritten, this, &Connection::halfCloseWhenWritten,
                    Qt::UniqueConnection);
        m_phase = Phase::Lingering;
        m_lingerMs = toMs(linger);
        // Also the limit for writing the answer: a client that does not read it is dropped all the same.
        m_deadlineMs = (m_server ? m_server->nowMs() : 0) + m_lingerMs;
        m_socket->write(response);
        discardInput();
        halfCloseWhenWritten();
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
        if (m_phase == Phase::Idle && m_server)
            m_deadlineMs = m_server->nowMs() + toMs(m_server->m_limits.idleTimeout);
    }

    void halfCloseWhenWritten()
    {
        if (m_halfClosed || m_socket->bytesToWrite() > 0 || m_socket->state() != QAbstractSocket::ConnectedState ||
            (m_tlsSocket && m_tlsSocket->encryptedBytesToWrite() > 0))
            return;
        m_halfClosed = true;
#ifdef Q_OS_UNIX
        // Half-close: the client sees the end of the response while we keep discarding what it still sends.
        ::shutdown(static_cast<int>(m_socket->socketDescriptor()), SHUT_WR);
#endif
        if (m_server)
            m_deadlineMs = m_server->nowMs() + m_lingerMs;
    }

    QTcpSocket *m_socket;
    QSslSocket *m_tlsSocket = nullptr; // the same socket when it serves TLS
    LimitedTcpServer *m_server;        // null once the server is being destroyed
    QHostAddress m_peer;
    HttpFramingTracker m_tracker;
    qint64 m_deadlineMs;
    qint64 m_lingerMs = 0;
    Phase m_phase = Phase::Head;  // the first head counts from the accept
    qint64 m_seenUnreadBytes = 0; // bytes already fed to the tracker that are still unread in the socket
    bool m_afterSlotConnected = false;
    bool m_halfClosed = false;
    bool m_counted = false;
    std::optional<ApiError> m_refusal; // the authorizer's answer for the most recent head it was asked about
};

LimitedTcpServer::LimitedTcpServer(qint64 maxBodyBytes, QObject *parent)
    : QSslServer(parent), m_maxBodyBytes(std::max<qint64>(maxBodyBytes, 0)),
      m_maxHeaderBytes(HttpFramingTracker::DefaultMaxHeaderBytes),
      m_counter(std::make_shared<ConnectionCounter>(m_limits.maxConnections, m_limits.maxConnectionsPerAddress))
{
    m_clock.start();
    connect(&m_sweepTimer, &QTimer::timeout, this, &LimitedTcpServer::sweep);
    // QSslServer creates the socket and starts the handshake; QHttpServer takes it only after the handshake.
    connect(this, &QSslServer::startedEncryptionHandshake, this, &LimitedTcpServer::guardTlsSocket);
}

LimitedTcpServer::~LimitedTcpServer()
{
    // The sockets (and their connections) are children destroyed after this object's members.
    for (Connection *connection : std::as_const(m_connections))
        connection->detach();
}

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

void LimitedTcpServer::setAllowanceAuthorizer(AllowanceAuthorizer authorizer)
{
    m_authorizer = std::move(authorizer);
}

void LimitedTcpServer::setConnectionLimits(const HttpConnectionLimits &limits)
{
    m_limits = limits;
    m_limits.headerTimeout = std::max(m_limits.headerTimeout, std::chrono::milliseconds(1));
    m_limits.idleTimeout = std::max(m_limits.idleTimeout, std::chrono::milliseconds(1));
    m_counter->setLimits(limits.maxConnections, limits.maxConnectionsPerAddress);
    m_limits.maxConnections = m_counter->maxTotal();
    m_limits.maxConnectionsPerAddress = m_counter->maxPerAddress();
    if (m_sweepTimer.isActive())
        startSweeping();
}

QByteArray LimitedTcpServer::rejectionResponse(HttpFramingTracker::Verdict verdict, qint64 maxBodyBytes,
                                               qsizetype maxHeaderBytes)
{
    const RejectionInfo info = rejectionInfo(verdict);
    if (info.status == 0)
        return {};
    return errorResponse(info.status, info.statusText, info.code, info.reason,
                         rejectionDescription(verdict, maxBodyBytes, maxHeaderBytes));
}

void LimitedTcpServer::setTlsConfiguration(const QSslConfiguration &configuration)
{
    setSslConfiguration(configuration);
    m_tls = true;
}

void LimitedTcpServer::flushConnections(QDeadlineTimer deadline)
{
    for (QAbstractSocket *socket : findChildren<QAbstractSocket *>()) {
        while (socket->bytesToWrite() > 0 && !deadline.hasExpired() &&
               socket->waitForBytesWritten(int(deadline.remainingTime()))) {
        }
    }
}

void LimitedTcpServer::shareConnectionCounter(std::shared_ptr<ConnectionCounter> counter)
{
    Q_ASSERT(counter && m_connections.isEmpty());
    m_counter = std::move(counter);
    m_limits.maxConnections = m_counter->maxTotal();
    m_limits.maxConnectionsPerAddress = m_counter->maxPerAddress();
}

void LimitedTcpServer::sendAnswersAtOnce(QAbstractSocket &socket)
{
    // An answer is written whole, so Nagle's algorithm only delays its last segment until the client's delayed
    // ACK (about 40 ms on Linux for answers of a few dozen KiB on a kept-alive connection): TCP_NODELAY.
    socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
}

void LimitedTcpServer::adoptConnection(qintptr socketDescriptor)
{
    incomingConnection(socketDescriptor);
}

void LimitedTcpServer::incomingConnection(qintptr socketDescriptor)
{
    if (m_tls) {
        incomingTlsConnection(socketDescriptor);
        return;
    }
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        qCWarning(lcLimitedTcpServer) << "cannot adopt accepted socket:" << socket->errorString();
        delete socket;
        return;
    }
    sendAnswersAtOnce(*socket);
    auto *connection = new Connection(socket, this, socket->peerAddress());
    startSweeping();
    if (connection->admit())
        addPendingConnection(socket);
}

// Under TLS the caps are applied to the descriptor, before a handshake costs anything: a refused client cannot read
// a plain 503 anyway, so its connection is just closed. An admitted one is counted and timed from the accept (so the
// header timeout also ends a handshake that never comes) and its bytes are tracked from the handshake's start.
void LimitedTcpServer::incomingTlsConnection(qintptr socketDescriptor)
{
    const QHostAddress peer = peerAddressOf(socketDescriptor);
    const ConnectionCounter::Admission admission = m_counter->tryAdd(peer);
    if (admission != ConnectionCounter::Admission::Admitted) {
        const QString reason = admission == ConnectionCounter::Admission::TotalFull
                                   ? u"too_many_connections"_s
                                   : u"too_many_connections_from_address"_s;
        logRefusal(peer, reason);
        QTcpSocket refused;
        if (refused.setSocketDescriptor(socketDescriptor))
            refused.abort();
        Q_EMIT connectionRefused(peer, 503, reason);
        return;
    }
    QSslServer::incomingConnection(socketDescriptor);
    // QSslServer made the socket as its newest child; it starts the handshake once the client's first bytes come.
    auto *socket = children().isEmpty() ? nullptr : qobject_cast<QSslSocket *>(children().constLast());
    if (!socket || socket->socketDescriptor() != socketDescriptor) { // QSslServer could not adopt the descriptor
        m_counter->remove(peer);
        return;
    }
    sendAnswersAtOnce(*socket);
    auto *connection = new Connection(socket, this, peer);
    connection->adoptAdmission();
    m_tlsHandshakes.insert(socket, connection);
    startSweeping();
}

void LimitedTcpServer::guardTlsSocket(QSslSocket *socket)
{
    if (Connection *connection = m_tlsHandshakes.take(socket))
        connection->watch();
}

QHostAddress LimitedTcpServer::peerAddressOf(qintptr socketDescriptor)
{
#ifdef Q_OS_UNIX
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    if (::getpeername(static_cast<int>(socketDescriptor), reinterpret_cast<sockaddr *>(&address), &length) == 0)
        return QHostAddress(reinterpret_cast<const sockaddr *>(&address));
#endif
    return {};
}

// One timer for all connections: a fraction of the shortest timeout (at most a second) is precise enough, and a
// sweep over a few hundred deadlines costs nothing next to one request.
void LimitedTcpServer::startSweeping()
{
    const auto shortest = std::min(m_limits.headerTimeout, m_limits.idleTimeout);
    const auto interval = std::clamp<std::chrono::milliseconds>(shortest / 4, 10ms, 1000ms);
    if (!m_sweepTimer.isActive() || m_sweepTimer.intervalAsDuration() != interval)
        m_sweepTimer.start(interval);
}

// At most one message a second, so a flood of connections cannot flood the log too.
void LimitedTcpServer::logRefusal(const QHostAddress &peer, const QString &reason)
{
    const qint64 now = nowMs();
    if (m_refusalsNotLogged > 0 && now - m_lastRefusalLogMs < 1000) {
        ++m_refusalsNotLogged;
        return;
    }
    qCWarning(lcLimitedTcpServer).noquote()
        << "refusing connection from" << peer.toString() << "with 503" << reason
        << (m_refusalsNotLogged > 1 ? u"(%1 more refused since the last message)"_s.arg(m_refusalsNotLogged - 1)
                                    : QString());
    m_lastRefusalLogMs = now;
    m_refusalsNotLogged = 1;
}

void LimitedTcpServer::sweep()
{
    if (m_connections.isEmpty()) {
        m_sweepTimer.stop();
        return;
    }
    const qint64 now = nowMs();
    QList<Connection *> due;
    for (Connection *connection : std::as_const(m_connections)) {
        if (connection->deadlineMs() <= now)
            due.append(connection);
    }
    for (Connection *connection : std::as_const(due)) {
        if (m_connections.contains(connection)) // an earlier one's signals may have closed it
            connection->onDeadline();
    }
}
