#include "webhook.h"

#include "entityfields.h"

using namespace EntityFields;

namespace {

QString readEventStatus(AnswerReader &in, QStringView field)
{
    return oneOf(in, field, {u"pending", u"delivered", u"failed"});
}

} // namespace

std::optional<WebhookEndpointInfo> WebhookEndpointInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("webhook endpoint"));
    expectEntity(in, u"webhook_endpoint");
    WebhookEndpointInfo e;
    e.mode = oneOf(in, u"mode", {u"test", u"live"});
    e.url = in.string(u"url");
    e.builtinInbox = in.boolean(u"builtin_inbox");
    e.webhookPassword = in.string(u"webhook_password");
    e.enabled = in.boolean(u"enabled");
    e.disabledReason = in.optionalString(u"disabled_reason");
    e.previousSecretExpiresAt = optionalDateTime(in, u"previous_secret_expires_at");
    e.createdAt = in.dateTime(u"created_at");
    e.updatedAt = in.dateTime(u"updated_at");
    e.secret = in.optionalString(u"secret");
    if (!in.ok())
        return failed<WebhookEndpointInfo>(in, error);
    return e;
}

QJsonObject WebhookEndpointInfo::toJson() const
{
    QJsonObject json{{QStringLiteral("entity"), QStringLiteral("webhook_endpoint")},
                     {QStringLiteral("mode"), mode},
                     {QStringLiteral("url"), url},
                     {QStringLiteral("builtin_inbox"), builtinInbox},
                     {QStringLiteral("webhook_password"), webhookPassword},
                     {QStringLiteral("enabled"), enabled},
                     {QStringLiteral("disabled_reason"), stringOrNull(disabledReason)},
                     {QStringLiteral("previous_secret_expires_at"), dateTimeOrNull(previousSecretExpiresAt)},
                     {QStringLiteral("created_at"), dateTime(createdAt)},
                     {QStringLiteral("updated_at"), dateTime(updatedAt)}};
    if (secret)
        json.insert(QStringLiteral("secret"), *secret);
    return json;
}

std::optional<WebhookEventInfo> WebhookEventInfo::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("webhook event"));
    expectEntity(in, u"webhook_event");
    WebhookEventInfo e;
    e.id = in.integer(u"id");
    e.webhookId = in.string(u"webhook_id");
    e.webhookEvent = in.string(u"webhook_event");
    e.transactionId = in.optionalInteger(u"transaction_id");
    e.status = readEventStatus(in, u"status");
    e.attempts = in.integer(u"attempts");
    e.nextAttemptAt = optionalDateTime(in, u"next_attempt_at");
    if (!in.ok())
        return failed<WebhookEventInfo>(in, error);
    return e;
}

QJsonObject WebhookEventInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_event")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("webhook_id"), webhookId},
                       {QStringLiteral("webhook_event"), webhookEvent},
                       {QStringLiteral("transaction_id"), integerOrNull(transactionId)},
                       {QStringLiteral("status"), status},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("next_attempt_at"), dateTimeOrNull(nextAttemptAt)}};
}

std::optional<WebhookDelivery> WebhookDelivery::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("webhook delivery"));
    expectEntity(in, u"webhook_delivery");
    WebhookDelivery d;
    d.id = in.integer(u"id");
    d.eventId = in.integer(u"event_id");
    d.webhookId = in.string(u"webhook_id");
    d.webhookEvent = in.string(u"webhook_event");
    d.transactionId = in.optionalInteger(u"transaction_id");
    d.attempt = in.integer(u"attempt");
    d.datetime = in.dateTime(u"datetime");
    d.url = in.string(u"url");
    d.httpStatus = in.optionalInteger(u"http_status");
    d.latencyMs = in.integer(u"latency_ms");
    d.success = in.boolean(u"success");
    d.error = in.optionalString(u"error");
    d.eventStatus = readEventStatus(in, u"event_status");
    d.nextAttemptAt = optionalDateTime(in, u"next_attempt_at");
    if (!in.ok())
        return failed<WebhookDelivery>(in, error);
    return d;
}

QJsonObject WebhookDelivery::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_delivery")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("event_id"), eventId},
                       {QStringLiteral("webhook_id"), webhookId},
                       {QStringLiteral("webhook_event"), webhookEvent},
                       {QStringLiteral("transaction_id"), integerOrNull(transactionId)},
                       {QStringLiteral("attempt"), attempt},
                       {QStringLiteral("datetime"), dateTime(datetime)},
                       {QStringLiteral("url"), url},
                       {QStringLiteral("http_status"), integerOrNull(httpStatus)},
                       {QStringLiteral("latency_ms"), latencyMs},
                       {QStringLiteral("success"), success},
                       {QStringLiteral("error"), stringOrNull(error)},
                       {QStringLiteral("event_status"), eventStatus},
                       {QStringLiteral("next_attempt_at"), dateTimeOrNull(nextAttemptAt)}};
}

std::optional<WebhookInboxMessage> WebhookInboxMessage::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("inbox message"));
    expectEntity(in, u"webhook_inbox_message");
    WebhookInboxMessage m;
    m.id = in.integer(u"id");
    m.webhookId = in.string(u"webhook_id");
    m.webhookEvent = in.string(u"webhook_event");
    m.transactionId = in.optionalInteger(u"transaction_id");
    m.receivedAt = in.dateTime(u"received_at");
    m.deliveries = in.integer(u"deliveries");
    m.body = in.object(u"body");
    if (!in.ok())
        return failed<WebhookInboxMessage>(in, error);
    return m;
}

QJsonObject WebhookInboxMessage::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_inbox_message")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("webhook_id"), webhookId},
                       {QStringLiteral("webhook_event"), webhookEvent},
                       {QStringLiteral("transaction_id"), integerOrNull(transactionId)},
                       {QStringLiteral("received_at"), dateTime(receivedAt)},
                       {QStringLiteral("deliveries"), deliveries},
                       {QStringLiteral("body"), body}};
}

std::optional<WebhookReceipt> WebhookReceipt::fromJson(const QJsonObject &json, QString *error)
{
    AnswerReader in(json, QStringLiteral("webhook receipt"));
    expectEntity(in, u"webhook_receipt");
    WebhookReceipt r;
    r.id = in.integer(u"id");
    r.webhookId = in.string(u"webhook_id");
    r.duplicate = in.boolean(u"duplicate");
    if (!in.ok())
        return failed<WebhookReceipt>(in, error);
    return r;
}

QJsonObject WebhookReceipt::toJson() const
{
    return QJsonObject{{QStringLiteral("entity"), QStringLiteral("webhook_receipt")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("webhook_id"), webhookId},
                       {QStringLiteral("duplicate"), duplicate}};
}
