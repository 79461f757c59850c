#pragma once

#include "httpframingtracker.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QSslServer>

/// A QTcpServer for QHttpServer::bind() that enforces request size limits QtHttpServer 6.4 lacks.
///
/// Every accepted connection gets a per-socket HttpFramingTracker whose readyRead handler is connected before
/// QHttpServer's, so it sees each chunk of bytes before QHttpServer parses (and buffers) it. A request whose
/// Content-Length exceeds the body limit (413), whose header block exceeds 16 KiB (431), that uses
/// Transfer-Encoding (411) or has a malformed or repeated Content-Length (400) is answered here with a JSON error
/// and `Connection: close`; QHttpServer is detached from the socket first, so it never sees that request, and the
/// rest of the upload is read and discarded (not buffered) until the client closes or a short linger time ends.
///
/// With setTlsConfiguration() it serves TLS instead (QSslServer does the handshake, with its time-out); the
/// guard is attached when the handshake starts, so it sees the decrypted bytes, and QHttpServer gets the socket
/// once the handshake succeeded. A client that does not speak TLS is dropped after the failed handshake.
class LimitedTcpServer final : public QSslServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LimitedTcpServer)

public:
    /// Creates a server that rejects request bodies larger than maxBodyBytes (bytes, default 64 KiB) and header
    /// blocks larger than HttpFramingTracker::DefaultMaxHeaderBytes. Call listen(), then QHttpServer::bind(this).
    explicit LimitedTcpServer(qint64 maxBodyBytes = HttpFramingTracker::DefaultMaxBodyBytes, QObject *parent = nullptr);

    /// Destroys the server and its remaining connections.
    ~LimitedTcpServer() override;

    /// Serves TLS with `configuration` (certificate, key, protocols; see TlsIdentity) on connections accepted from
    /// now on (issue 12). Without it the server speaks plain HTTP.
    void setTlsConfiguration(const QSslConfiguration &configuration);

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

    /// Returns the complete HTTP/1.1 response (status line, headers, JSON body) sent for a rejection verdict,
    /// e.g. 413 with {"error":{"code":"PAYLOAD_TOO_LARGE",...,"reason":"body_too_large"}}. Returns an empty
    /// array for Verdict::Ok.
    static QByteArray rejectionResponse(HttpFramingTracker::Verdict verdict, qint64 maxBodyBytes,
                                        qsizetype maxHeaderBytes = HttpFramingTracker::DefaultMaxHeaderBytes);

Q_SIGNALS:
    /// Emitted after a connection's request was rejected and the error response queued; httpStatus is the status
    /// sent (400, 411, 413 or 431) and reason the error reason (e.g. "body_too_large").
    void requestRejected(const QHostAddress &peer, int httpStatus, const QString &reason);

protected:
    /// Wraps the accepted descriptor in a QTcpSocket, attaches the size-limit guard, and queues it for
    /// QHttpServer. Under TLS QSslServer does that after the handshake (the guard is attached when it starts).
    void incomingConnection(qintptr socketDescriptor) override;

private:
    /// Sizes the read buffer of an accepted socket and attaches the size-limit guard (before QHttpServer sees it).
    void guardSocket(QTcpSocket *socket);

    bool m_tls = false;
    qint64 m_maxBodyBytes;
    qsizetype m_maxHeaderBytes;
    HttpFramingTracker::BodyLimitExceptions m_bodyLimitExceptions;
};
