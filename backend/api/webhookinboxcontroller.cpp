#include "webhookinboxcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "entities/collection.h"
#include "entities/webhook.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "webhooks/webhookinbox.h"

#include <QJsonDocument>

namespace {

WebhookInboxMessage toEntity(const InboxMessage &m)
{
    WebhookInboxMessage message;
    message.id = m.id;
    message.webhookId = m.webhookId;
    message.webhookEvent = m.eventType;
    if (m.transactionId > 0)
        message.transactionId = m.transactionId;
    message.receivedAt = QDateTime::fromMSecsSinceEpoch(m.receivedAtMs, Qt::UTC);
    message.deliveries = m.deliveries;
    message.body = QJsonDocument::fromJson(m.body).object();
    return message;
}

qint64 queryInteger(const QUrlQuery &query, const QString &name, qint64 fallback, qint64 min, qint64 max)
{
    if (!query.hasQueryItem(name))
        return fallback;
    const std::optional<qint64> value = JsonFields::coerceInteger(query.queryItemValue(name).trimmed());
    if (!value || *value < min || *value > max)
        throw ApiError::badRequest(
            name, QStringLiteral("invalid_query_parameter"),
            QStringLiteral("%1 must be a whole number from %2 to %3").arg(name).arg(min).arg(max));
    return *value;
}

} // namespace

void WebhookInboxController::registerRoutes(ApiRouter &router)
{
    router.add(
        QHttpServerRequest::Method::Post, QStringLiteral("/hooks/inbox"), Access::Public,
        [this](const ApiRequest &request, const ApiReply &reply) {
            m_inbox.receive(
                request.header("webhook-id"), request.header("webhook-timestamp"), request.header("webhook-signature"),
                request.body, [reply](const WebhookInbox::Receipt *receipt, std::exception_ptr error) {
                    if (error)
                        return reply.sendException(error);
                    reply.sendData(
                        WebhookReceipt{receipt->message.id, receipt->message.webhookId, receipt->duplicate}.toJson());
                });
        });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/webhook-inbox"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const int limit = int(queryInteger(request.query, QStringLiteral("limit"), 50, 1, 200));
                   const qint64 cursor =
                       queryInteger(request.query, QStringLiteral("cursor"), 0, 1, std::numeric_limits<qint64>::max());
                   const QList<InboxMessage> messages =
                       m_inbox.list(request.caller.accountId, request.caller.mode, limit, cursor);
                   Collection<WebhookInboxMessage> page;
                   page.paged = true;
                   for (const InboxMessage &m : messages)
                       page.items.append(toEntity(m));
                   if (messages.size() == limit)
                       page.nextCursor = QString::number(messages.last().id);
                   reply.sendData(page.toJson());
               });
}
