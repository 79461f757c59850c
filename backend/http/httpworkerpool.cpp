#include "httpworkerpool.h"

#include "apierror.h"
#include "apireply.h"
#include "apirequest.h"
#include "apirouter.h"
#include "store/database.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QMutex>
#include <QtCore/QPointer>
#include <QtCore/QSemaphore>
#include <QtCore/QThread>
#include <QtHttpServer/QHttpServer>
#include <QtHttpServer/QHttpServerResponder>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

Q_LOGGING_CATEGORY(lcHttpWorkers, "rechargedesk.http.workers")

namespace {
/// Connections the kernel may hold for the acceptor (as nginx's default): a burst of clients connecting at once (a
/// shop's terminals after a network break, a benchmark's 64) is not dropped while the server thread is busy.
constexpr int kListenBacklog = 511;
} // namespace

namespace {

/// Where the server thread sends work for one worker thread; closed when the worker stops, after which whatever is
/// sent is dropped (the connections it was for are gone).
class Mailbox
{
public:
    void open(QObject *worker)
    {
        const QMutexLocker lock(&m_mutex);
        m_worker = worker;
    }
    void close()
    {
        const QMutexLocker lock(&m_mutex);
        m_worker = nullptr;
    }
    /// Runs `job` on the worker's thread, after what was sent before; false when the worker has stopped.
    template <typename Job> bool post(Job &&job)
    {
        const QMutexLocker lock(&m_mutex);
        if (!m_worker)
            return false;
        QMetaObject::invokeMethod(m_worker, std::forward<Job>(job), Qt::QueuedConnection);
        return true;
    }

private:
    QMutex m_mutex;
    QObject *m_worker = nullptr;
};

/// One request's way back to its client, on the worker thread that read it: the responder and its connection, and
/// whether the connection is still open (read by the server thread while the request is there).
class PendingAnswer final : public std::enable_shared_from_this<PendingAnswer>
{
public:
    explicit PendingAnswer(QHttpServerResponder &&responder)
        : m_responder(std::move(responder)), m_socket(m_responder.socket())
    {}

    /// On the worker: true while the client's connection is open.
    bool isConnectedHere() const { return m_socket && m_socket->state() == QAbstractSocket::ConnectedState; }
    /// On any thread, once watch() ran: the connection was open when last seen by the worker.
    bool isOpen() const { return m_open.load(std::memory_order_acquire); }

    /// On the worker, before the request goes to the server thread: keeps isOpen() up to date.
    void watch()
    {
        if (!isConnectedHere()) {
            m_open.store(false, std::memory_order_release);
            return;
        }
        m_watch = QObject::connect(m_socket, &QAbstractSocket::disconnected, m_socket, [weak = weak_from_this()] {
            if (const auto self = weak.lock())
                self->m_open.store(false, std::memory_order_release);
        });
    }

    /// On the worker: writes the answer if the client is still there.
    bool write(const QString &requestId, const HttpAnswer &answer)
    {
        QObject::disconnect(m_watch);
        if (!isConnectedHere())
            return false;
        AnswerTarget::writeTo(m_responder, requestId, answer);
        return true;
    }

private:
    QHttpServerResponder m_responder;
    QPointer<QTcpSocket> m_socket;
    QMetaObject::Connection m_watch;
    std::atomic<bool> m_open = true;
};

/// An answer written on the worker thread itself (a route the worker answers).
class WorkerThreadTarget final : public AnswerTarget
{
public:
    explicit WorkerThreadTarget(std::shared_ptr<PendingAnswer> pending) : m_pending(std::move(pending)) {}
    bool write(const QString &requestId, const HttpAnswer &answer) override
    {
        return m_pending->write(requestId, answer);
    }
    bool isConnected() const override { return m_pending->isConnectedHere(); }

private:
    std::shared_ptr<PendingAnswer> m_pending;
};

/// An answer made on the server thread, sent to the worker thread that owns the connection.
class ServerThreadTarget final : public AnswerTarget
{
public:
    ServerThreadTarget(std::shared_ptr<PendingAnswer> pending, std::shared_ptr<Mailbox> mailbox)
        : m_pending(std::move(pending)), m_mailbox(std::move(mailbox))
    {}
    bool write(const QString &requestId, const HttpAnswer &answer) override
    {
        if (!m_pending->isOpen())
            return false;
        return m_mailbox->post([pending = m_pending, requestId, answer] { pending->write(requestId, answer); });
    }
    bool isConnected() const override { return m_pending->isOpen(); }

private:
    std::shared_ptr<PendingAnswer> m_pending;
    std::shared_ptr<Mailbox> m_mailbox;
};

} // namespace

/// One worker thread's HTTP: its LimitedTcpServer on a duplicate of the listening descriptor, its QHttpServer, and
/// the request handler that answers here or hands over to the server thread. Created, used and deleted on its thread.
class HttpWorkerPool::Worker final : public QObject
{
public:
    Worker(HttpWorkerPool &pool, std::shared_ptr<Mailbox> mailbox)
        : m_pool(pool), m_mailbox(std::move(mailbox)),
          m_tcp(new LimitedTcpServer(pool.m_settings.maxBodyBytes, &m_http))
    {
        const HttpWorkerSettings &settings = pool.m_settings;
        if (settings.tls)
            m_tcp->setTlsConfiguration(*settings.tls);
        m_tcp->setBodyLimitExceptions(settings.bodyLimitExceptions);
        if (settings.allowance) {
            m_tcp->setAllowanceAuthorizer([&pool](const HttpRequestHead &head, const QHostAddress &peer) {
                return pool.allowOnServerThread(head, peer);
            });
        }
        m_tcp->shareConnectionCounter(pool.m_counter);
        m_tcp->setConnectionLimits(settings.limits);
        connect(m_tcp, &LimitedTcpServer::requestRejected, &pool, &HttpWorkerPool::requestRejected);
        connect(m_tcp, &LimitedTcpServer::connectionRefused, &pool, &HttpWorkerPool::connectionRefused);
        if (!settings.databaseLocation.isEmpty()) {
            QString error;
            m_database = Database::open(settings.databaseLocation, &error);
            if (!m_database)
                qCWarning(lcHttpWorkers, "an HTTP worker works without a database connection of its own: %s",
                          qPrintable(error));
            m_resources.database = m_database.get();
        }
        m_http.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            serve(request, std::move(responder));
        });
        m_mailbox->open(this);
    }

    ~Worker() override { m_mailbox->close(); }
    Q_DISABLE_COPY_MOVE(Worker)

    /// Takes `descriptor` (a duplicate of the acceptor's listening socket; this worker closes it) without accepting
    /// from it: the acceptor hands connections over (adopt()); QHttpServer::bind wants a listening server.
    bool listenOn(qintptr descriptor)
    {
        if (!m_tcp->setSocketDescriptor(descriptor))
            return false;
        m_tcp->pauseAccepting();
        m_http.bind(m_tcp);
        // QTcpServer::nextPendingConnection() (QHttpServer taking a connection) turns accepting on again; this slot
        // runs after QHttpServer's and turns it off, so connections keep coming through the acceptor, in turn.
        connect(m_tcp, &QTcpServer::pendingConnectionAvailable, m_tcp, &QTcpServer::pauseAccepting);
        return true;
    }

    /// Serves a connection the acceptor accepted.
    void adopt(qintptr descriptor) { m_tcp->adoptConnection(descriptor); }

    void close() { m_tcp->close(); }

    /// Waits until what the sockets have to send is sent, or the deadline.
    void flush(QDeadlineTimer deadline) { m_tcp->flushConnections(deadline); }

private:
    void serve(const QHttpServerRequest &request, QHttpServerResponder &&responder)
    {
        const auto pending = std::make_shared<PendingAnswer>(std::move(responder));
        ApiRequest api = ApiRouter::read(request);
        const ApiReply here(std::make_unique<WorkerThreadTarget>(pending), api.requestId);
        if (m_pool.m_router.handleOnWorker(api, here, m_resources))
            return;
        here.handOver();
        pending->watch();
        const ApiReply there(std::make_unique<ServerThreadTarget>(pending, m_mailbox), api.requestId);
        QMetaObject::invokeMethod(
            &m_pool, [router = &m_pool.m_router, api = std::move(api), there]() mutable { router->handle(api, there); },
            Qt::QueuedConnection);
    }

    HttpWorkerPool &m_pool;
    std::shared_ptr<Mailbox> m_mailbox;
    std::unique_ptr<Database> m_database; ///< this worker's own connection, for reads
    ApiRouter::WorkerResources m_resources;
    QHttpServer m_http;
    LimitedTcpServer *m_tcp; ///< owned by m_http (QHttpServer::bind makes it a child)
};

/// Accepts the connections on the server thread and hands each to the next worker in turn, so the workers get equal
/// shares (when they all accepted from one socket, the first to wake took most of them).
class HttpWorkerPool::Acceptor final : public QTcpServer
{
public:
    explicit Acceptor(HttpWorkerPool &pool) : m_pool(pool) {}

protected:
    void incomingConnection(qintptr descriptor) override { m_pool.handOut(descriptor); }

private:
    HttpWorkerPool &m_pool;
};

struct HttpWorkerPool::Thread
{
    QThread thread;
    QObject *anchor = nullptr; ///< lives on `thread`: where the worker is made and deleted
    Worker *worker = nullptr;
    std::shared_ptr<Mailbox> mailbox = std::make_shared<Mailbox>();
};

HttpWorkerPool::HttpWorkerPool(ApiRouter &router, HttpWorkerSettings settings, QObject *parent)
    : QObject(parent), m_router(router), m_settings(std::move(settings)),
      m_counter(std::make_shared<ConnectionCounter>(m_settings.limits.maxConnections,
                                                    m_settings.limits.maxConnectionsPerAddress))
{
    m_settings.threads = std::max(m_settings.threads, 1);
}

HttpWorkerPool::~HttpWorkerPool()
{
    stopThreads();
}

bool HttpWorkerPool::listen(const QHostAddress &address, quint16 port, QString *error)
{
#ifdef Q_OS_UNIX
    m_acceptor = std::make_unique<Acceptor>(*this);
    Acceptor &listener = *m_acceptor;
    listener.setListenBacklogSize(kListenBacklog);
    if (!listener.listen(address, port)) {
        *error = listener.errorString();
        m_acceptor.reset();
        return false;
    }
    for (int i = 0; i < m_settings.threads; ++i) {
        auto thread = std::make_shared<Thread>();
        thread->thread.setObjectName(QStringLiteral("http-%1").arg(i + 1));
        thread->anchor = new QObject;
        thread->anchor->moveToThread(&thread->thread);
        thread->thread.start();
        m_threads.append(thread);
        const int descriptor = ::dup(int(listener.socketDescriptor()));
        bool listening = false;
        QMetaObject::invokeMethod(
            thread->anchor,
            [this, thread, descriptor, &listening] {
                thread->worker = new Worker(*this, thread->mailbox);
                listening = descriptor >= 0 && thread->worker->listenOn(descriptor);
            },
            Qt::BlockingQueuedConnection);
        if (!listening) {
            if (descriptor >= 0)
                ::close(descriptor);
            *error = QStringLiteral("cannot share the listening socket with HTTP worker thread %1").arg(i + 1);
            stopThreads();
            return false;
        }
    }
    qCInfo(lcHttpWorkers, "serving HTTP on %d worker threads", int(m_threads.size()));
    return true;
#else
    Q_UNUSED(address)
    Q_UNUSED(port)
    *error = QStringLiteral("HTTP worker threads need a Unix system (dup of the listening socket)");
    return false;
#endif
}

void HttpWorkerPool::handOut(qintptr descriptor)
{
    if (!m_threads.isEmpty()) {
        const std::shared_ptr<Thread> &thread = m_threads.at(m_next);
        m_next = (m_next + 1) % int(m_threads.size());
        if (thread->mailbox->post([worker = thread->worker, descriptor] { worker->adopt(descriptor); }))
            return;
    }
#ifdef Q_OS_UNIX
    ::close(int(descriptor)); // stopping: nobody serves it
#endif
}

void HttpWorkerPool::close()
{
    if (m_acceptor)
        m_acceptor->close();
    for (const std::shared_ptr<Thread> &thread : std::as_const(m_threads)) {
        thread->mailbox->post([worker = thread->worker] { worker->close(); });
    }
}

bool HttpWorkerPool::isListening() const
{
    return m_acceptor && m_acceptor->isListening();
}

QHostAddress HttpWorkerPool::serverAddress() const
{
    return m_acceptor ? m_acceptor->serverAddress() : QHostAddress();
}

quint16 HttpWorkerPool::serverPort() const
{
    return m_acceptor ? m_acceptor->serverPort() : 0;
}

int HttpWorkerPool::openConnections() const
{
    return m_counter->total();
}

void HttpWorkerPool::flush(QDeadlineTimer deadline)
{
    const auto flushed = std::make_shared<QSemaphore>();
    int waiting = 0;
    for (const std::shared_ptr<Thread> &thread : std::as_const(m_threads)) {
        if (thread->mailbox->post([worker = thread->worker, flushed, deadline] {
                worker->flush(deadline);
                flushed->release();
            }))
            ++waiting;
    }
    flushed->tryAcquire(waiting, deadline.isForever() ? -1 : int(deadline.remainingTime()));
}

std::optional<ApiError> HttpWorkerPool::allowOnServerThread(const HttpRequestHead &head, const QHostAddress &peer)
{
    struct Call
    {
        QByteArray head;
        QHostAddress peer;
        std::optional<ApiError> refusal;
        QSemaphore done;
    };
    const auto call = std::make_shared<Call>();
    call->head = head.block().toByteArray();
    call->peer = peer;
    QMetaObject::invokeMethod(
        this,
        [this, call] {
            call->refusal = m_settings.allowance(HttpRequestHead(call->head), call->peer);
            call->done.release();
        },
        Qt::QueuedConnection);
    // Never wait on a server thread that is stopping the workers (it waits for this thread).
    while (!call->done.tryAcquire(1, 50)) {
        if (m_stopping.load())
            return ApiError::gatewayUnavailable(QStringLiteral("server_stopping"),
                                                QStringLiteral("the server is stopping; retry shortly"))
                .withHeader("Retry-After", "1");
    }
    return call->refusal;
}

void HttpWorkerPool::stopThreads()
{
    m_stopping.store(true);
    if (m_acceptor)
        m_acceptor->close();
    for (const std::shared_ptr<Thread> &thread : std::as_const(m_threads)) {
        if (thread->thread.isRunning()) {
            QMetaObject::invokeMethod(
                thread->anchor,
                [thread] {
                    delete thread->worker; // closes its connections; answers still on the server thread are dropped
                    thread->worker = nullptr;
                },
                Qt::BlockingQueuedConnection);
        }
        thread->thread.quit();
        thread->thread.wait();
        delete thread->anchor;
        thread->anchor = nullptr;
    }
    m_threads.clear();
}
