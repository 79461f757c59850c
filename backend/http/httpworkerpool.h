#pragma once

#include "httpframingtracker.h"
#include "limitedtcpserver.h"

#include <QtCore/QDeadlineTimer>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QSslConfiguration>

#include <atomic>
#include <memory>
#include <optional>

class ApiRouter;
class QThread;

/// How the HTTP worker threads serve connections: what a single LimitedTcpServer would be given.
struct HttpWorkerSettings
{
    int threads = 1;                                               ///< worker threads (at least 1)
    qint64 maxBodyBytes = HttpFramingTracker::DefaultMaxBodyBytes; ///< LimitedTcpServer's body limit (bytes)
    HttpFramingTracker::BodyLimitExceptions bodyLimitExceptions;   ///< e.g. the catalogue upload's larger limit
    LimitedTcpServer::AllowanceAuthorizer allowance;               ///< runs on the pool's (server) thread
    HttpConnectionLimits limits;                                   ///< caps for all workers together, timeouts
    std::optional<QSslConfiguration> tls;                          ///< HTTPS when set
    /// The server's database (Database::open); each worker opens a connection of its own for the reads of its
    /// WorkerHandlers. Empty: workers have none.
    QString databaseLocation;
};

/// HTTP on several threads (issue 17, "reads scale with cores while writes keep one writer"): an acceptor on the
/// server thread hands each new connection to the next of N worker threads in turn; each worker has its own
/// LimitedTcpServer (the same limits, TLS and guard; the connection caps are shared) and QHttpServer, so reading,
/// parsing and writing HTTP happen there. A worker answers a
/// request itself only when its route says it can (ApiRouter::WorkerHandler: a finished sale's status from
/// FinalRecordCache, the plans lookup from the immutable catalogue) and the caller is known from memory
/// (Authorizer::authorizeFromMemory); every other request, and every write, goes to ApiRouter::handle() on the server
/// thread, whose answer is sent back to the worker that owns the connection. So the Database and every service keep
/// their one thread (architecture.md, "Threads").
class HttpWorkerPool final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpWorkerPool)

public:
    /// Creates the pool on the calling (server) thread, which runs `router`'s handlers; the workers start in listen().
    HttpWorkerPool(ApiRouter &router, HttpWorkerSettings settings, QObject *parent = nullptr);
    /// Stops the workers (their connections are closed) and waits for their threads.
    ~HttpWorkerPool() override;

    /// Starts the worker threads and listens; false with *error set when the address cannot be bound.
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    /// Stops accepting connections; open ones are still served.
    void close();
    bool isListening() const;
    QHostAddress serverAddress() const;
    quint16 serverPort() const;
    bool isTls() const { return m_settings.tls.has_value(); }
    /// Open connections of all workers, as counted against the caps.
    int openConnections() const;
    /// Waits until every answer handed to the workers before this call was written to its socket and sent (or the
    /// deadline passed): the server's clean stop (ApiServer::stop).
    void flush(QDeadlineTimer deadline);

signals:
    /// LimitedTcpServer::requestRejected of any worker (emitted on this object's thread).
    void requestRejected(const QHostAddress &peer, int httpStatus, const QString &reason);
    /// LimitedTcpServer::connectionRefused of any worker (emitted on this object's thread).
    void connectionRefused(const QHostAddress &peer, int httpStatus, const QString &reason);

private:
    class Acceptor;
    class Worker;
    struct Thread;

    /// Gives an accepted connection to the next worker (closes it when the workers are stopping).
    void handOut(qintptr descriptor);
    /// Runs the settings' allowance on this object's thread for a worker, which waits for it (a catalogue upload's
    /// head); 503 when the pool is stopping.
    std::optional<ApiError> allowOnServerThread(const HttpRequestHead &head, const QHostAddress &peer);
    /// Stops and deletes every worker and its thread.
    void stopThreads();

    ApiRouter &m_router;
    HttpWorkerSettings m_settings;
    std::shared_ptr<ConnectionCounter> m_counter;
    std::unique_ptr<Acceptor> m_acceptor;
    QList<std::shared_ptr<Thread>> m_threads;
    int m_next = 0; ///< the worker the next connection goes to
    std::atomic<bool> m_stopping = false;
};
