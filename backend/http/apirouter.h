#pragma once

#include "apireply.h"
#include "apirequest.h"
#include "auth/authorizer.h"

#include <QHttpServerRequest>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

class Database;
class QHttpServer;

/// The single place where HTTP meets the service: matches the path (404), the method (405 with
/// Allow), authenticates and authorizes by the route's Access (Authorizer: 401/403/429), checks the body's Content-Type
/// (415), runs the handler, and turns whatever it throws into the error envelope (ApiError as is, anything else as a
/// logged 500). Every answer carries X-Request-Id. (api-conventions.md, "Error envelope and status codes")
class ApiRouter
{
public:
    /// Handles a matched, authorized request. Answer through `reply`, now or later; throw
    /// ApiError to answer with an error.
    using Handler = std::function<void(const ApiRequest &request, const ApiReply &reply)>;
    /// What an HTTP worker thread lends the WorkerHandlers it runs.
    struct WorkerResources
    {
        /// The worker's own connection to the server's database, for reads (null when it has none).
        Database *database = nullptr;
    };
    /// Answers a matched, authorized request on an HTTP worker thread (HttpWorkerPool, issue 17) without the server
    /// thread: through `reply`, at once, returning true; or returns false having answered nothing, and the request
    /// goes to the route's Handler on the server thread. Runs concurrently with the server thread and the other
    /// workers, so it may only read what is immutable or locked (the plan catalogue, FinalRecordCache) and the
    /// worker's own database connection, never the server thread's. May throw ApiError like a Handler.
    using WorkerHandler =
        std::function<bool(const WorkerResources &worker, const ApiRequest &request, const ApiReply &reply)>;

    /// Installs itself as the server's request handler.
    ApiRouter(QHttpServer &server, Authorizer &authorizer);

    /// Adds a route. `pattern` is a path whose `{name}` segments match one non-empty segment
    /// each, e.g. "/api/v1/transactions/{id}". With `onWorker`, an HTTP worker thread answers what it can of the
    /// route itself (see WorkerHandler); add routes before the workers start.
    void add(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler,
             WorkerHandler onWorker = {});

    /// Adds a route whose handler reads only what is immutable or locked (never the Database), so that HTTP worker
    /// threads answer it whole (a WorkerHandler that always answers); the server thread runs it when no workers
    /// serve or the caller must be authorized there.
    void addThreadSafe(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler);

    /// Issue 30: keeps the route added as (`method`, `pattern`) open to a suspended shop's keys (Authorizer: every
    /// other route answers them 403 account_suspended). Call after the route was added; a pattern never added is a
    /// programming error (asserted, ignored in release builds).
    void keepOpenWhileSuspended(QHttpServerRequest::Method method, const QString &pattern);

    /// The request as handlers see it, copied out of QHttpServer's (any thread); a fresh request id.
    static ApiRequest read(const QHttpServerRequest &request);
    /// Answers `request` on the server thread: 404/405, authorization, the route's handler, errors (the class
    /// comment). What QHttpServer's handler does for every request when no worker threads serve.
    void handle(ApiRequest &request, const ApiReply &reply);
    /// On an HTTP worker thread: answers `request` there when its route has a WorkerHandler, the caller is known
    /// without storage (Authorizer::authorizeFromMemory) and the WorkerHandler answers. False when nothing was
    /// answered: hand the request to handle() on the server thread.
    bool handleOnWorker(ApiRequest &request, const ApiReply &reply, const WorkerResources &worker);
    /// Requests answered on worker threads so far (tests and the server's stop line).
    quint64 answeredOnWorkers() const { return m_answeredOnWorkers.load(std::memory_order_relaxed); }

    /// A route as declared, for listing (tests walk every route).
    struct RouteInfo
    {
        QHttpServerRequest::Method method;
        QString pattern;
        Access access;
        bool openWhileSuspended = false; ///< keepOpenWhileSuspended()
    };
    /// Every route in the order added.
    QList<RouteInfo> routes() const;

    /// Number of requests answered with 5xx (for health reporting).
    quint64 serverErrors() const { return m_serverErrors.load(std::memory_order_relaxed); }

private:
    struct Route
    {
        QHttpServerRequest::Method method;
        QStringList segments;
        Access access;
        Handler handler;
        WorkerHandler onWorker;
        bool openWhileSuspended = false;
    };
    /// The route of `request` (its captures set), or null with *allowed the methods its path accepts (405) or empty
    /// (404).
    const Route *find(ApiRequest &request, QByteArrayList *allowed) const;
    void run(const Route &route, ApiRequest &request, const ApiReply &reply);
    /// Runs `answer` and turns what it throws into the error envelope (ApiError as is, a lost database as 503,
    /// anything else as a logged 500).
    void answerOrError(ApiRequest &request, const ApiReply &reply, const std::function<void()> &answer);
    static bool match(const QStringList &pattern, const QStringList &path, QStringList *captures);

    Authorizer &m_authorizer;
    QList<Route> m_routes;
    std::atomic<quint64> m_serverErrors = 0;
    std::atomic<quint64> m_answeredOnWorkers = 0;
};
