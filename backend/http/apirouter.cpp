#include "apirouter.h"

#include "apierror.h"
#include "store/database.h"

#include <QHttpServer>
#include <QLoggingCategory>
#include <QMetaEnum>
#include <QRandomGenerator>

Q_LOGGING_CATEGORY(lcHttp, "rechargedesk.http")

namespace {

QByteArray methodName(QHttpServerRequest::Method method)
{
    return QByteArray(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(method))).toUpper();
}

bool isJsonContentType(const QByteArray &value)
{
    const QByteArray type = value.split(';').first().trimmed().toLower();
    return type == "application/json";
}

/// 415 unless a body is sent as JSON.
void checkContentType(const ApiRequest &request)
{
    if (!request.body.isEmpty() && !isJsonContentType(request.header("content-type")))
        throw ApiError(415, QStringLiteral("UNSUPPORTED_MEDIA_TYPE"), QStringLiteral("unsupported_media_type"),
                       QStringLiteral("send the body as Content-Type: application/json"));
}

} // namespace

ApiRouter::ApiRouter(QHttpServer &server, Authorizer &authorizer) : m_authorizer(authorizer)
{
    server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        ApiRequest api = read(request);
        const ApiReply reply(std::make_unique<QHttpServerResponder>(std::move(responder)), api.requestId);
        handle(api, reply);
    });
}

void ApiRouter::add(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler,
                    WorkerHandler onWorker)
{
    m_routes.append(Route{method, pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts), access, std::move(handler),
                          std::move(onWorker)});
}

void ApiRouter::keepOpenWhileSuspended(QHttpServerRequest::Method method, const QString &pattern)
{
    const QStringList segments = pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (Route &route : m_routes) {
        if (route.method == method && route.segments == segments) {
            route.openWhileSuspended = true;
            return;
        }
    }
    Q_ASSERT_X(false, "ApiRouter::keepOpenWhileSuspended", "no such route");
}

void ApiRouter::addThreadSafe(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler)
{
    WorkerHandler onWorker = [handler](const WorkerResources &, const ApiRequest &request, const ApiReply &reply) {
        handler(request, reply);
        return true;
    };
    add(method, pattern, access, std::move(handler), std::move(onWorker));
}

QList<ApiRouter::RouteInfo> ApiRouter::routes() const
{
    QList<RouteInfo> list;
    for (const Route &route : m_routes)
        list.append(RouteInfo{route.method, QLatin1Char('/') + route.segments.join(QLatin1Char('/')), route.access,
                              route.openWhileSuspended});
    return list;
}

bool ApiRouter::match(const QStringList &pattern, const QStringList &path, QStringList *captures)
{
    if (pattern.size() != path.size())
        return false;
    captures->clear();
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QString &p = pattern.at(i);
        if (p.startsWith(QLatin1Char('{')) && p.endsWith(QLatin1Char('}')))
            captures->append(path.at(i));
        else if (p != path.at(i))
            return false;
    }
    return true;
}

ApiRequest ApiRouter::read(const QHttpServerRequest &request)
{
    ApiRequest api;
    api.method = request.method();
    api.path = request.url().path();
    api.query = request.query();
    api.body = request.body();
    api.headers = request.headers();
    api.peer = request.remoteAddress();
    api.requestId = ApiRequest::newRequestId();
    return api;
}

const ApiRouter::Route *ApiRouter::find(ApiRequest &request, QByteArrayList *allowed) const
{
    const QStringList segments = request.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QStringList captures;
    for (const Route &route : m_routes) {
        if (!match(route.segments, segments, &captures))
            continue;
        if (route.method == request.method) {
            request.captures = captures;
            return &route;
        }
        allowed->append(methodName(route.method));
    }
    return nullptr;
}

void ApiRouter::handle(ApiRequest &api, const ApiReply &reply)
{
    QByteArrayList allowed;
    const Route *found = find(api, &allowed);
    if (!found) {
        if (allowed.isEmpty()) {
            reply.sendError(
                ApiError::notFound(QStringLiteral("unknown_path"), QStringLiteral("no such endpoint: ") + api.path));
        } else {
            reply.sendError(ApiError(405, QStringLiteral("METHOD_NOT_ALLOWED"), QStringLiteral("method_not_allowed"),
                                     QStringLiteral("%1 does not accept %2; use %3")
                                         .arg(api.path, QString::fromLatin1(methodName(api.method)),
                                              QString::fromLatin1(allowed.join(", "))))
                                .withHeader("Allow", allowed.join(", ")));
        }
        return;
    }
    run(*found, api, reply);
}

bool ApiRouter::handleOnWorker(ApiRequest &request, const ApiReply &reply, const WorkerResources &worker)
{
    QByteArrayList allowed;
    const Route *route = find(request, &allowed);
    if (!route || !route->onWorker)
        return false;
    const std::optional<AuthContext> caller =
        m_authorizer.authorizeFromMemory(route->access, request, route->openWhileSuspended);
    if (!caller)
        return false;
    request.caller = *caller;
    bool answered = false;
    answerOrError(request, reply, [&] {
        checkContentType(request);
        answered = route->onWorker(worker, request, reply);
    });
    answered = answered || reply.isSent();
    if (answered)
        m_answeredOnWorkers.fetch_add(1, std::memory_order_relaxed);
    return answered;
}

void ApiRouter::run(const Route &route, ApiRequest &request, const ApiReply &reply)
{
    answerOrError(request, reply, [&] {
        if (route.access != Access::Public)
            request.caller = m_authorizer.authorize(route.access, request, route.openWhileSuspended);
        checkContentType(request);
        route.handler(request, reply);
    });
}

void ApiRouter::answerOrError(ApiRequest &request, const ApiReply &reply, const std::function<void()> &answer)
{
    try {
        answer();
    } catch (const ApiError &error) {
        if (!reply.isSent())
            reply.sendError(error);
    } catch (const std::exception &e) {
        // A lost database connection is no bug: 503 with Retry-After, and the request did nothing.
        if (const auto *database = dynamic_cast<const DatabaseError *>(&e); database && database->isUnavailable()) {
            qCWarning(lcHttp, "request %s %s: %s", qPrintable(request.requestId), qPrintable(request.path), e.what());
            if (!reply.isSent())
                reply.sendError(databaseUnavailableError(*database));
            return;
        }
        m_serverErrors.fetch_add(1, std::memory_order_relaxed);
        qCCritical(lcHttp, "request %s %s failed: %s", qPrintable(request.requestId), qPrintable(request.path),
                   e.what());
        if (!reply.isSent())
            reply.sendError(ApiError::serverError(request.requestId));
    }
}
