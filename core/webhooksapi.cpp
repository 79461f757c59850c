#include "webhooksapi.h"

#include <QUrlQuery>

namespace {

QString endpointPath(const char *action = nullptr)
{
    const QString path = QStringLiteral("/api/v1/webhook-endpoint");
    return action ? path + QLatin1Char('/') + QLatin1String(action) : path;
}

} // namespace

QString WebhooksApi::deliveriesPath()
{
    return QStringLiteral("/api/v1/webhook-deliveries");
}

QString WebhooksApi::inboxPath()
{
    return QStringLiteral("/api/v1/webhook-inbox");
}

QUrl WebhooksApi::inboxUrl(const QUrl &baseUrl)
{
    QUrl inbox = baseUrl;
    inbox.setPath(QStringLiteral("/hooks/inbox"));
    return inbox;
}

TypedCall<WebhookEndpointInfo> WebhooksApi::endpoint()
{
    return {m_api.get(endpointPath()), &WebhookEndpointInfo::fromJson};
}

TypedCall<WebhookEndpointInfo> WebhooksApi::setEndpoint(const QString &url, const QString &password)
{
    return {m_api.put(endpointPath(),
                      QJsonObject{{QStringLiteral("url"), url}, {QStringLiteral("webhook_password"), password}}),
            &WebhookEndpointInfo::fromJson};
}

TypedCall<WebhookEndpointInfo> WebhooksApi::rotateSecret()
{
    return {m_api.post(endpointPath("rotate-secret"), QJsonObject()), &WebhookEndpointInfo::fromJson};
}

TypedCall<WebhookEventInfo> WebhooksApi::sendTest()
{
    return {m_api.post(endpointPath("test"), QJsonObject()), &WebhookEventInfo::fromJson};
}

TypedCall<WebhookEventInfo> WebhooksApi::redeliver(qint64 deliveryId)
{
    return {m_api.post(QStringLiteral("%1/%2/redeliver").arg(deliveriesPath()).arg(deliveryId), QJsonObject()),
            &WebhookEventInfo::fromJson};
}

TypedCall<Collection<WebhookDelivery>> WebhooksApi::deliveriesOf(qint64 transactionId, int limit)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("transaction_id"), QString::number(transactionId));
    query.addQueryItem(QStringLiteral("limit"), QString::number(limit));
    return {m_api.get(deliveriesPath(), query), &Collection<WebhookDelivery>::fromJson};
}
