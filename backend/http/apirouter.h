#pragma once

#include "apireply.h"
#include "apirequest.h"
#include "auth/authorizer.h"

#include <QHttpServerRequest>
#include <QList>
#include <QString>

#include <functional>

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

    /// Installs itself as the server's request handler.
    ApiRouter(QHttpServer &server, Authorizer &authorizer);

    /// Adds a route. `pattern` is a path whose `{name}` segments match one non-empty segment
    /// each, e.g. "/api/v1/transactions/{id}".
    void add(QHttpServerRequest::Method method, const QString &pattern, Access access, Handler handler);

    /// A route as declared, for listing (tests walk every route).
    struct RouteInfo
    {
        QHttpServerRequest::Method method;
        QString pattern;
        Access access;
    };
    /// Every route in the order added.
    QList<RouteInfo> routes() const;

    /// Number of requests answered with 5xx (for health reporting).
    quint64 serverErrors() const { return m_serverErrors; }

private:
    struct Route
    {
        QHttpServerRequest::Method method;
        QStringList segments;
        Access access;
        Handler handler;
    };
    void dispatch(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void run(const Route &route, ApiRequest &request, const ApiReply &reply);
    static bool match(const QStringList &pattern, const QStringList &path, QStringList *captures);

    Authorizer &m_authorizer;
    QList<Route> m_routes;
    quint64 m_serverErrors = 0;
};
