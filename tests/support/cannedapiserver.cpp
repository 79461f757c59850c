#include "cannedapiserver.h"

#include <QJsonDocument>

namespace {

QString methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return QStringLiteral("GET");
    case QHttpServerRequest::Method::Post:
        return QStringLiteral("POST");
    case QHttpServerRequest::Method::Put:
        return QStringLiteral("PUT");
    case QHttpServerRequest::Method::Delete:
        return QStringLiteral("DELETE");
    default:
        return QStringLiteral("OTHER");
    }
}

} // namespace

CannedApiServer::CannedApiServer()
{
    m_server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        const Request seen{methodName(request.method()),
                           request.url().path(),
                           request.query(),
                           request.body(),
                           QJsonDocument::fromJson(request.body()).object(),
                           request.value("X-Session-Token")};
        m_requests << seen;
        handle(seen, responder);
    });
    m_port = m_server.listen(QHostAddress::LocalHost, 0);
}

CannedApiServer::~CannedApiServer() = default;

QUrl CannedApiServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

QList<CannedApiServer::Request> CannedApiServer::requests(const QString &method, const QString &path) const
{
    QList<Request> found;
    for (const Request &request : m_requests)
        if (request.method == method && request.path == path)
            found << request;
    return found;
}

void CannedApiServer::answer(QHttpServerResponder &responder, const QJsonObject &data)
{
    responder.write(QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}));
}

void CannedApiServer::fail(QHttpServerResponder &responder, const Failure &failure)
{
    responder.write(
        QJsonDocument(QJsonObject{
            {QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), failure.code},
                         {QStringLiteral("description"), failure.description},
                         {QStringLiteral("field"), failure.field.isEmpty() ? QJsonValue() : QJsonValue(failure.field)},
                         {QStringLiteral("reason"), failure.reason}}}}),
        failure.status);
}
