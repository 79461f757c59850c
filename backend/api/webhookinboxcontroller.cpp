#include "webhookinboxcontroller.h"

#include "apierror.h"
#include "clock.h"
#include "http/apirouter.h"
#include "jsonfields.h"
#include "webhooks/webhookinbox.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

QJsonObject messageJson(const InboxMessage &m)
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_inbox_message")},
                       {QStringLiteral("id"), m.id},
                       {QStringLiteral("webhook_id"), m.webhookId},
                       {QStringLiteral("webhook_event"), m.eventType},
                       {QStringLiteral("transaction_id"),
                        m.transactionId > 0 ? QJsonValue(m.transactionId) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("received_at"), IstTime::formatMs(m.receivedAtMs)},
                       {QStringLiteral("deliveries"), m.deliveries},
                       {QStringLiteral("body"), QJsonDocument::fromJson(m.body).object()}};
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
    router.add(QHttpServerRequest::Method::Post, QStringLiteral("/hooks/inbox"), Access::Public,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   m_inbox.receive(request.header("webhook-id"), request.header("webhook-timestamp"),
                                   request.header("webhook-signature"), request.body,
                                   [reply](const WebhookInbox::Receipt *receipt, std::exception_ptr error) {
                                       if (error)
                                           return reply.sendException(error);
                                       reply.sendData(
                                           QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_receipt")},
                                                       {QStringLiteral("id"), receipt->message.id},
                                                       {QStringLiteral("webhook_id"), receipt->message.webhookId},
                                                       {QStringLiteral("duplicate"), receipt->duplicate}});
                                   });
               });
    router.add(QHttpServerRequest::Method::Get, QStringLiteral("/api/v1/webhook-inbox"), Access::Admin,
               [this](const ApiRequest &request, const ApiReply &reply) {
                   const int limit = int(queryInteger(request.query, QStringLiteral("limit"), 50, 1, 200));
                   const qint64 cursor =
                       queryInteger(request.query, QStringLiteral("cursor"), 0, 1, std::numeric_limits<qint64>::max());
                   const QList<InboxMessage> messages =
                       m_inbox.list(request.caller.accountId, request.caller.mode, limit, cursor);
                   QJsonArray items;
                   for (const InboxMessage &m : messages)
                       items.append(messageJson(m));
                   reply.sendData(
                       QJsonObject{{QStringLiteral("entity"), QStringLiteral("collection")},
                                   {QStringLiteral("count"), items.size()},
                                   {QStringLiteral("items"), items},
                                   {QStringLiteral("next_cursor"), messages.size() == limit
                                                                       ? QJsonValue(QString::number(messages.last().id))
                                                                       : QJsonValue(QJsonValue::Null)}});
               });
}
