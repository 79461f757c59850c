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

} // namespace

ApiRouter::ApiRouter(QHttpServer &server, Authorizer &authorizer) : m_authorizer(authorizer)
{
    server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        dispatch(request, std::move(responder));
    });
}

void ApiRouter::add(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler)
{
    m_routes.append(Route{method, pattern.split(QLatin1Char('/'), Qt::SkipEmptyParts), access, std::move(handler)});
}

QList<ApiRouter::RouteInfo> ApiRouter::routes() const
{
    QList<RouteInfo> list;
    for (const Route &route : m_routes)
        list.append(RouteInfo{route.method, QLatin1Char('/') + route.segments.join(QLatin1Char('/')), route.access});
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

void ApiRouter::dispatch(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    ApiRequest api;
    api.method = request.method();
    api.path = request.url().path();
    api.query = request.query();
    api.body = request.body();
    api.headers = request.headers();
    api.peer = request.remoteAddress();
    api.requestId = ApiRequest::newRequestId();
    const ApiReply reply(std::make_unique<QHttpServerResponder>(std::move(responder)), api.requestId);

    const QStringList segments = api.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const Route *found = nullptr;
    QByteArrayList allowed;
    QStringList captures;
    for (const Route &route : std::as_const(m_routes)) {
        if (!match(route.segments, segments, &captures))
            continue;
        if (route.method == api.method) {
            found = &route;
            api.captures = captures;
            break;
        }
        allowed.append(methodName(route.method));
    }
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

void ApiRouter::run(const Route &route, ApiRequest &request, const ApiReply &reply)
{
    try {
        if (route.access != Access::Public)
            request.caller = m_authorizer.authorize(route.access, request);
        if (!request.body.isEmpty() && !isJsonContentType(request.header("content-type")))
            throw ApiError(415, QStringLiteral("UNSUPPORTED_MEDIA_TYPE"), QStringLiteral("unsupported_media_type"),
                           QStringLiteral("send the body as Content-Type: application/json"));
        route.handler(request, reply);
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
        ++m_serverErrors;
        qCCritical(lcHttp, "request %s %s failed: %s", qPrintable(request.requestId), qPrintable(request.path),
                   e.what());
        if (!reply.isSent())
            reply.sendError(ApiError::serverError(request.requestId));
    }
}
