#pragma once

#include "apierror.h"
#include "connectioncounter.h"
#include "httpframingtracker.h"

#include <QtCore/QByteArray>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtCore/QString>
#include <QtCore/QTimer>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QSslServer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

/// How many connections a LimitedTcpServer keeps open and how long it waits for their clients.
struct HttpConnectionLimits
{
    int maxConnections = 512;          ///< open connections in total; more are answered 503 and closed
    int maxConnectionsPerAddress = 64; ///< open connections per client address (IPv6: per /64); more: 503
    /// A request head must be complete this long after the connection was accepted (first request) or after its
    /// first byte (later requests on a keep-alive connection); otherwise 408 and close.
    std::chrono::milliseconds headerTimeout{10'000};
    /// A connection with no traffic for this long, between requests or in the middle of a body, is closed.
    std::chrono::milliseconds idleTimeout{60'000};
};

/// A QTcpServer for QHttpServer::bind() that enforces request size limits QtHttpServer 6.4 lacks.
///
/// Every accepted connection gets a per-socket HttpFramingTracker whose readyRead handler is connected before
/// QHttpServer's, so it sees each chunk of bytes before QHttpServer parses (and buffers) it. A request whose
/// Content-Length exceeds the body limit (413), whose header block exceeds 16 KiB (431), that uses
/// Transfer-Encoding (411) or has a malformed or repeated Content-Length (400) is answered here with a JSON error
/// and `Connection: close`; QHttpServer is detached from the socket first, so it never sees that request, and the
/// rest of the upload is read and discarded (not buffered) until the client closes or a short linger time ends.
///
/// Before authentication nothing may cost much: a body larger than the default limit is allowed only for a body
/// limit exception whose head the AllowanceAuthorizer approves (e.g. an admin key for the catalogue upload), and
/// the socket's read buffer is sized per request to the limit that request got. HttpConnectionLimits caps open
/// connections (503) and closes slow heads (408) and idle connections; one timer per server sweeps the deadlines.
///
/// With setTlsConfiguration() it serves TLS instead (QSslServer does the handshake, with its time-out); the
/// guard is attached when the handshake starts, so it sees the decrypted bytes, and QHttpServer gets the socket
/// once the handshake succeeded. A client that does not speak TLS is dropped after the failed handshake.
class LimitedTcpServer final : public QSslServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedTcpServer)

public:
    /// Decides whether a request head earns the larger limit of a BodyLimitException with needsAuthorization, e.g.
    /// by checking its Authorization header as the API would: nothing when approved, else the error the API would
    /// answer (401, 403, 429 ...), which is sent at once instead of reading the body. Called at most once per such
    /// request, only when it declares a body above the default limit, on the server's thread, before any body byte
    /// is accepted.
    using AllowanceAuthorizer =
        std::function<std::optional<ApiError>(const HttpRequestHead &head, const QHostAddress &peer)>;

    /// Creates a server that rejects request bodies larger than maxBodyBytes (bytes, default 64 KiB) and header
    /// blocks larger than HttpFramingTracker::DefaultMaxHeaderBytes. Call listen(), then QHttpServer::bind(this).
    explicit LimitedTcpServer(qint64 maxBodyBytes = HttpFramingTracker::DefaultMaxBodyBytes, QObject *parent = nullptr);

    /// Destroys the server and its remaining connections.
    ~LimitedTcpServer() override;

    /// Serves TLS with `configuration` (certificate, key, protocols; see TlsIdentity) on connections accepted from
    /// now on (issue 12). Without it the server speaks plain HTTP.
    void setTlsConfiguration(const QSslConfiguration &configuration);

    /// Waits (blocking this thread) until every connection of this server has written what it has to send, or
    /// `deadline` passes: the last step of a clean stop, after the answers are handed to the sockets.
    void flushConnections(QDeadlineTimer deadline);

    /// True after setTlsConfiguration().
    bool isTls() const { return m_tls; }

    /// Returns the largest accepted request body in bytes.
    qint64 maxBodyBytes() const;

    /// Returns the largest accepted request header block in bytes.
    qsizetype maxHeaderBytes() const;

    /// Sets per method+path body limits (e.g. a larger one for an upload endpoint) for connections accepted from
    /// now on. The limit is decided from the request line, before authentication, so keep exceptions few.
    void setBodyLimitExceptions(const HttpFramingTracker::BodyLimitExceptions &exceptions);

    /// Returns the per method+path body limits.
    const HttpFramingTracker::BodyLimitExceptions &bodyLimitExceptions() const { return m_bodyLimitExceptions; }

    /// Sets who approves the exceptions that need authorization, for connections accepted from now on. Without
    /// one, those exceptions never apply: such requests keep the default body limit (413 above it).
    void setAllowanceAuthorizer(AllowanceAuthorizer authorizer);

    /// Sets the connection caps and timeouts; caps apply to connections accepted from now on, timeouts to all.
    void setConnectionLimits(const HttpConnectionLimits &limits);

    /// Returns the connection caps and timeouts.
    const HttpConnectionLimits &connectionLimits() const { return m_limits; }

    /// Counts this server's connections in `counter` from now on, with the counter's caps (HttpWorkerPool: the
    /// worker threads' servers share one counter, so the caps hold for all of them together). Call before the first
    /// connection; setConnectionLimits() afterwards changes the shared caps.
    void shareConnectionCounter(std::shared_ptr<ConnectionCounter> counter);

    /// Serves a connection another server accepted (HttpWorkerPool's acceptor hands each new connection to a worker
    /// thread's server in turn): exactly what this server does with one it accepts itself (caps, TLS handshake,
    /// guard), then QHttpServer gets it. Call on this server's thread; it need not accept connections itself.
    void adoptConnection(qintptr socketDescriptor);

    /// Returns the number of connections open and counted against the caps.
    int openConnections() const { return m_counter->total(); }

    /// Returns the complete HTTP/1.1 response (status line, headers, JSON body) sent for a rejection verdict,
    /// e.g. 413 with {"error":{"code":"PAYLOAD_TOO_LARGE",...,"reason":"body_too_large"}}. Returns an empty
    /// array for Verdict::Ok.
    static QByteArray rejectionResponse(HttpFramingTracker::Verdict verdict, qint64 maxBodyBytes,
                                        qsizetype maxHeaderBytes = HttpFramingTracker::DefaultMaxHeaderBytes);

Q_SIGNALS:
    /// Emitted after a connection's request was rejected and the error response queued; httpStatus is the status
    /// sent (400, 411, 413 or 431) and reason the error reason (e.g. "body_too_large").
    void requestRejected(const QHostAddress &peer, int httpStatus, const QString &reason);

    /// Emitted when a connection was refused because a cap was reached (status 503; reason "too_many_connections"
    /// or "too_many_connections_from_address") or closed after a timeout (408 "header_timeout"; 0 "idle_timeout"
    /// when closed without an answer).
    void connectionRefused(const QHostAddress &peer, int httpStatus, const QString &reason);

protected:
    /// Wraps the accepted descriptor in a QTcpSocket, attaches the size-limit guard, and queues it for
    /// QHttpServer. Under TLS QSslServer does that after the handshake (the guard is attached when it starts).
    void incomingConnection(qintptr socketDescriptor) override;

private:
    class Connection;

    void sweep();
    void logRefusal(const QHostAddress &peer, const QString &reason);
    void startSweeping();
    qint64 nowMs() const { return m_clock.elapsed(); }
    /// Applies the caps to a TLS connection's descriptor, then lets QSslServer start the handshake.
    void incomingTlsConnection(qintptr socketDescriptor);
    /// Starts the guard's framing tracker on a TLS socket whose handshake starts (admitted, counted and timed since
    /// incomingTlsConnection()).
    void guardTlsSocket(QSslSocket *socket);
    /// The client's address of an accepted descriptor (getpeername), before any socket adopts it.
    static QHostAddress peerAddressOf(qintptr socketDescriptor);
    /// Turns Nagle's algorithm off on an accepted socket (TCP_NODELAY), so a kept-alive answer is not held back.
    static void sendAnswersAtOnce(QAbstractSocket &socket);

    bool m_tls = false;
    QHash<const QObject *, Connection *> m_tlsHandshakes; // TLS sockets admitted, not yet watched (no handshake yet)
    qint64 m_maxBodyBytes;
    qsizetype m_maxHeaderBytes;
    HttpFramingTracker::BodyLimitExceptions m_bodyLimitExceptions;
    AllowanceAuthorizer m_authorizer;
    HttpConnectionLimits m_limits;
    std::shared_ptr<ConnectionCounter> m_counter;
    QSet<Connection *> m_connections; // every connection this server still tracks (open or lingering)
    QElapsedTimer m_clock;
    QTimer m_sweepTimer;
    qint64 m_lastRefusalLogMs = 0;
    int m_refusalsNotLogged = 0; // refusals since the last logged one, that one included
};
